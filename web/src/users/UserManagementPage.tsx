// /user-management, "Web Users" (spec 1 "Web users page"): search, Create User, and the grid
// of users (User, Actions: Edit, Password, Delete), root users hidden, reloaded after every
// change. The row's "..." menu adds Send activation link (not in the spec's screen; issue 26). The grid is a plain table: two columns and a few rows need no canvas grid.
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { currentUserAtom } from '../state/user';
import type { WebUser } from '../../../server/contract/users';
import { ActivationLinkModal, CreateUserModal, DeleteUserModal, EditUserModal, PasswordModal } from './UserModals';
import { UserRowMenu } from './UserRowMenu';
import { UsersActionsWidth, visibleUsers } from './logic/webUsers';
import { useWebUsers } from './useWebUsers';
import './users.css';
import { useDocumentTitle } from '../shell/documentTitle';

type Dialog = { kind: 'create' } | { kind: 'edit' | 'password' | 'delete' | 'activation'; user: WebUser } | undefined;

export function UserManagementPage() {
  useDocumentTitle('Web Users');
  const [search, setSearch] = useState('');
  const { users, roles, reload } = useWebUsers(search);
  const [dialog, setDialog] = useState<Dialog>();
  const close = () => setDialog(undefined);
  const shown = visibleUsers(users, search);
  const isRoot = !!useAtomValue(currentUserAtom)?.IsRoot;

  return (
    <section className="page web-users">
      <header className="page-header">
        <h1>Web Users</h1>
        {isRoot && <Link to="/user-management/audit" className="header-link">Impersonation Audit</Link>}
      </header>
      <div className="web-users-tools">
        <input type="search" className="search" placeholder="Search..." aria-label="Search users" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="button" className="button primary" onClick={() => setDialog({ kind: 'create' })}>Create User</button>
      </div>
      <table className="web-users-grid" role="grid">
        <thead>
          <tr>
            <th>User</th>
            <th style={{ width: UsersActionsWidth }}>Actions</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((user) => (
            <tr key={user.Id}>
              <td>{user.EmailAddress}</td>
              <td className="actions">
                <button type="button" className="button secondary" onClick={() => setDialog({ kind: 'edit', user })}>Edit</button>
                <button type="button" className="button secondary" onClick={() => setDialog({ kind: 'password', user })}>Password</button>
                <button type="button" className="button secondary" onClick={() => setDialog({ kind: 'delete', user })}>Delete</button>
                <UserRowMenu user={user} onSendActivationLink={() => setDialog({ kind: 'activation', user })} />
              </td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={2} className="hint">{search ? 'No user matches the search.' : 'No web users yet.'}</td>
            </tr>
          )}
        </tbody>
      </table>
      {dialog?.kind === 'create' && <CreateUserModal roles={roles} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'edit' && <EditUserModal user={dialog.user} roles={roles} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'password' && <PasswordModal user={dialog.user} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'delete' && <DeleteUserModal user={dialog.user} onClose={close} onChanged={reload} />}
      {dialog?.kind === 'activation' && <ActivationLinkModal user={dialog.user} onClose={close} onChanged={reload} />}
    </section>
  );
}
