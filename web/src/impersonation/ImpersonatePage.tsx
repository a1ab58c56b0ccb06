// /impersonate (spec 1 section 2, gate ImpersonateUser): pick a user of the account to act
// as. The server offers only users whose permissions the caller holds, never root.
import { useState } from 'react';
import { useDocumentTitle } from '../shell/documentTitle';
import { reportError } from '../state/reportError';
import { startImpersonation } from './api';
import { matchingCandidates, permissionsText } from './logic/candidates';
import { restartConsoleAt } from './restartConsole';
import { useImpersonationCandidates } from './useImpersonationCandidates';
import './impersonation.css';

export function ImpersonatePage() {
  useDocumentTitle('Impersonate User');
  const candidates = useImpersonationCandidates();
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState<number>();
  const shown = matchingCandidates(candidates ?? [], search);

  const impersonate = async (id: number) => {
    setBusy(id);
    try {
      await startImpersonation(id);
      restartConsoleAt('/');
    } catch (e) {
      reportError(e, { prefix: 'Could not impersonate the user: ' });
      setBusy(undefined);
    }
  };

  return (
    <section className="page impersonate">
      <header className="page-header">
        <h1>Impersonate User</h1>
      </header>
      <p className="hint">
        Act as another user of this account to see what they see. Everything you change meanwhile is recorded with your name.
        Users holding permissions you do not have are not offered. Clear Impersonation in the user menu returns to your own user.
      </p>
      <div className="web-users-tools">
        <input type="search" className="search" placeholder="Search..." aria-label="Search users" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      <table className="impersonate-grid" role="grid">
        <thead>
          <tr>
            <th>User</th>
            <th>Permissions</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((user) => (
            <tr key={user.Id}>
              <td>{user.EmailAddress}</td>
              <td>{permissionsText(user.Roles)}</td>
              <td className="actions">
                <button type="button" className="button primary" disabled={busy !== undefined} onClick={() => void impersonate(user.Id)}>
                  Impersonate
                </button>
              </td>
            </tr>
          ))}
          {candidates && shown.length === 0 && (
            <tr>
              <td colSpan={3} className="hint">{search ? 'No user matches the search.' : 'There is no user you may impersonate.'}</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
