// /staff/sessionaudit: sign-in sessions of every account (time, address, browser), newest
// first; Revoke signs the user out of that session (their next call answers 401 and their
// live connection closes). ?userId= / ?accountId= narrow it (links from the other pages).
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDocumentTitle } from '../../shell/documentTitle';
import { ImpersonateButton } from '../ImpersonateButton';
import { idParam } from '../logic/query';
import { localTime, userAgentSummary } from '../logic/text';
import { useSignInSessions } from './useSignInSessions';
import '../staff.css';

export function SessionAuditPage() {
  useDocumentTitle('Session Audit');
  const [params] = useSearchParams();
  const userId = idParam(params, 'userId');
  const accountId = idParam(params, 'accountId');
  const [activeOnly, setActiveOnly] = useState(false);
  const { sessions, loading, revoke, revoking } = useSignInSessions({ userId, accountId, activeOnly });
  return (
    <section className="page staff-page session-audit">
      <header className="page-header">
        <h1>Session Audit</h1>
        {(userId || accountId) && <Link to="/staff/sessionaudit/">Show every account</Link>}
      </header>
      <div className="staff-tools">
        <label>
          <input type="checkbox" checked={activeOnly} onChange={(e) => setActiveOnly(e.target.checked)} /> Signed in now only
        </label>
        {loading && <span className="hint">Loading...</span>}
      </div>
      <table className="staff-grid" role="grid" aria-label="Sign-in sessions">
        <thead>
          <tr>
            <th>Signed in</th>
            <th>User</th>
            <th>Account</th>
            <th>Address</th>
            <th>Browser</th>
            <th>State</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.Id}>
              <td>{localTime(s.SignedInAt)}</td>
              <td>
                <Link to={`/staff/userandevents/?userId=${s.UserId}`}>{s.UserName}</Link>
              </td>
              <td>
                <Link to={`/staff/sessionaudit/?accountId=${s.AccountId}`}>{s.AccountName}</Link>
              </td>
              <td>{s.Address}</td>
              <td title={s.UserAgent}>{userAgentSummary(s.UserAgent)}</td>
              <td>
                {s.Active ? (
                  <span className="staff-badge ok">Active{s.Persistent ? ' (remembered)' : ''}</span>
                ) : s.RevokedAt ? (
                  <span className="staff-badge bad" title={localTime(s.RevokedAt)}>Revoked by {s.RevokedBy}</span>
                ) : (
                  <span className="staff-badge">Ended</span>
                )}
              </td>
              <td className="actions">
                {s.Active && (
                  <button type="button" className="button secondary" disabled={revoking === s.Id} onClick={() => void revoke(s.Id)}>
                    Revoke
                  </button>
                )}
                <ImpersonateButton userId={s.UserId} />
              </td>
            </tr>
          ))}
          {!loading && sessions.length === 0 && (
            <tr>
              <td colSpan={7} className="hint">No sign-in sessions.</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
