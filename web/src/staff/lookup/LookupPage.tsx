// /staff/lookup: which account a user name, e-mail, agent id, target (address or name) or
// LiveShare id belongs to; each match links to the account's users' events and sessions, and
// offers to impersonate the matched user (or the account's first user).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { LookupMatch } from '../../../../server/contract/staff';
import { useDocumentTitle } from '../../shell/documentTitle';
import { reportError } from '../../state/reportError';
import { lookUp } from '../api';
import { ImpersonateButton } from '../ImpersonateButton';
import '../staff.css';

const KindText: Record<LookupMatch['Kind'], string> = {
  UserName: 'User name',
  Email: 'E-mail',
  Agent: 'Agent',
  Target: 'Target',
  LiveShare: 'LiveShare link',
  Account: 'Account',
};

export function LookupPage() {
  useDocumentTitle('Lookup');
  const [text, setText] = useState('');
  const [matches, setMatches] = useState<LookupMatch[]>();
  const [busy, setBusy] = useState(false);
  const find = async () => {
    setBusy(true);
    try {
      setMatches(await lookUp(text.trim()));
    } catch (e) {
      reportError(e, { prefix: 'Could not look it up: ' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="page staff-page lookup">
      <header className="page-header">
        <h1>Lookup</h1>
      </header>
      <form
        className="staff-tools"
        onSubmit={(e) => {
          e.preventDefault();
          void find();
        }}
      >
        <input type="search" aria-label="Look up" placeholder="User name, e-mail, agent id, target or LiveShare id" value={text} maxLength={320} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="button primary" disabled={busy || !text.trim()}>Look up</button>
      </form>
      {matches && (
        <table className="staff-grid" role="grid" aria-label="Lookup matches">
          <thead>
            <tr>
              <th>Found</th>
              <th>Matched</th>
              <th>Account</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {matches.map((m, i) => (
              <tr key={`${m.Kind}:${m.AccountId}:${i}`}>
                <td>{KindText[m.Kind]}</td>
                <td>{m.Matched}</td>
                <td>
                  {m.AccountName} <span className="hint">(id {m.AccountId})</span>
                </td>
                <td className="actions">
                  {m.UserId !== null && <Link to={`/staff/userandevents/?userId=${m.UserId}`}>Events</Link>}
                  <Link to={`/staff/sessionaudit/?accountId=${m.AccountId}`}>Sessions</Link>
                  <ImpersonateButton userId={m.UserId} />
                </td>
              </tr>
            ))}
            {matches.length === 0 && (
              <tr>
                <td colSpan={4} className="hint">Nothing matches.</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
