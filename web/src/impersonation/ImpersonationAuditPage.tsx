// /user-management/audit: the impersonation audit (issue 26), for the root user: who
// impersonated whom, when, from which address, and the state-changing calls meanwhile.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ImpersonationAuditEntry } from '../../../server/contract/account';
import { useDocumentTitle } from '../shell/documentTitle';
import { reportError } from '../state/reportError';
import { currentUserAtom } from '../state/user';
import { listAudit } from './api';
import { actionText } from './logic/audit';
import './impersonation.css';

function useImpersonationAudit(enabled: boolean) {
  const [rows, setRows] = useState<ImpersonationAuditEntry[]>();
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    listAudit()
      .then((list) => live && setRows(list))
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the impersonation audit: ' }));
    return () => {
      live = false;
    };
  }, [enabled]);
  return rows;
}

export function ImpersonationAuditPage() {
  useDocumentTitle('Impersonation Audit');
  const isRoot = !!useAtomValue(currentUserAtom)?.IsRoot;
  const rows = useImpersonationAudit(isRoot);
  return (
    <section className="page impersonation-audit">
      <header className="page-header">
        <h1>Impersonation Audit</h1>
        <Link to="/user-management">Back to Web Users</Link>
      </header>
      {!isRoot ? (
        <p className="hint">Only the root user can read the impersonation audit.</p>
      ) : (
        <table className="impersonate-grid" role="grid">
          <thead>
            <tr>
              <th>Time</th>
              <th>Impersonator</th>
              <th>Acting as</th>
              <th>What</th>
              <th>Status</th>
              <th>Address</th>
            </tr>
          </thead>
          <tbody>
            {(rows ?? []).map((r) => (
              <tr key={r.Id}>
                <td>{new Date(r.Time).toLocaleString()}</td>
                <td>{r.Actor}</td>
                <td>{r.AsUser}</td>
                <td>{actionText(r)}</td>
                <td>{r.Status || ''}</td>
                <td>{r.Address}</td>
              </tr>
            ))}
            {rows && rows.length === 0 && (
              <tr>
                <td colSpan={6} className="hint">Nobody has impersonated a user yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
