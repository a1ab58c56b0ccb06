// /staff/accounts (Staff claim): every account of the appliance with its plan, entitlements
// and use; Create Account, Entitlements, Suspend/Restore. A plain table: a few columns.
import { useState } from 'react';
import type { StaffAccount } from '../../../server/contract/accounts';
import { useDocumentTitle } from '../shell/documentTitle';
import { CreateAccountModal, EntitlementsModal, SuspendModal } from './AccountModals';
import { agentsText, filterAccounts, statusText, tracesText } from './logic/accountRows';
import { useStaffAccounts } from './useStaffAccounts';
import './accounts.css';

type Dialog = { kind: 'create' } | { kind: 'entitlements' | 'suspend'; account: StaffAccount } | undefined;

/** The new-account form's default traces: the default account's (the appliance's default). */
const defaultTracesOf = (accounts: StaffAccount[]) => accounts.find((a) => !a.IsProvider)?.EntitledTraces ?? 100;

export function StaffAccountsPage() {
  useDocumentTitle('Accounts');
  const { accounts, loaded, reload } = useStaffAccounts();
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<Dialog>();
  const close = () => setDialog(undefined);
  const shown = filterAccounts(accounts, search);

  return (
    <section className="page staff-accounts">
      <header className="page-header">
        <h1>Accounts</h1>
      </header>
      <div className="staff-accounts-tools">
        <input type="search" className="search" placeholder="Search..." aria-label="Search accounts" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="button" className="button primary" onClick={() => setDialog({ kind: 'create' })}>Create Account</button>
      </div>
      <table className="staff-accounts-grid" role="grid" aria-label="Accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th>Plan</th>
            <th>Status</th>
            <th>Users</th>
            <th>Traces</th>
            <th>Agents</th>
            <th>Created</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((a) => (
            <tr key={a.Id} data-account={a.Name}>
              <td>
                {a.Name} <span className="hint">#{a.Id}</span>
              </td>
              <td>{a.Plan}</td>
              <td className={a.Suspended ? 'status-suspended' : undefined} title={a.SuspendedReason || undefined}>{statusText(a)}</td>
              <td>{a.Users}</td>
              <td>{tracesText(a)}</td>
              <td>{agentsText(a)}</td>
              <td>{new Date(a.CreatedAt).toLocaleDateString()}</td>
              <td className="actions">
                <button type="button" className="button secondary" onClick={() => setDialog({ kind: 'entitlements', account: a })}>Entitlements</button>
                {!a.IsProvider && (
                  <button type="button" className="button secondary" onClick={() => setDialog({ kind: 'suspend', account: a })}>
                    {a.Suspended ? 'Restore' : 'Suspend'}
                  </button>
                )}
              </td>
            </tr>
          ))}
          {loaded && shown.length === 0 && (
            <tr>
              <td colSpan={8} className="hint">{search ? 'No account matches the search.' : 'No accounts yet.'}</td>
            </tr>
          )}
        </tbody>
      </table>
      {dialog?.kind === 'create' && <CreateAccountModal onClose={close} onChanged={reload} defaultTraces={defaultTracesOf(accounts)} />}
      {dialog?.kind === 'entitlements' && <EntitlementsModal account={dialog.account} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'suspend' && <SuspendModal account={dialog.account} onClose={close} onChanged={reload} />}
    </section>
  );
}
