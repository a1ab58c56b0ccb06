// The user group of the sidebar (spec 1 section 2): username (click refreshes the user, at
// most once per 15 s), the temporary-password warning, account actions and Logout.
import { useAtomValue, useSetAtom } from 'jotai';
import { useState } from 'react';
import { Claim } from '../../../server/contract/account';
import { Icon } from '../components/Icon';
import { changePasswordOpenAtom, getHelpAtom } from '../state/dialogs';
import { refreshCurrentUser } from '../state/session';
import { currentUserAtom, isSelfHostedAtom } from '../state/user';
import { hasClaim } from './gates';
import { NavItem } from './NavItem';
import { UserRefreshIntervalMs, createThrottle } from './throttle';

const mayRefreshUser = createThrottle(UserRefreshIntervalMs);

export function UserGroup() {
  const user = useAtomValue(currentUserAtom);
  const selfHosted = useAtomValue(isSelfHostedAtom);
  const openChangePassword = useSetAtom(changePasswordOpenAtom);
  const openGetHelp = useSetAtom(getHelpAtom);
  const [open, setOpen] = useState(true);
  if (!user) return null;
  const impersonating = hasClaim(user, Claim.IsImpersonating);
  const tempPassword = hasClaim(user, Claim.TempPassword);

  const toggle = () => {
    setOpen(!open);
    if (mayRefreshUser()) void refreshCurrentUser();
  };

  return (
    <div className={`user-group${impersonating ? ' impersonating' : ''}`}>
      {tempPassword && (
        <div className="temp-password-warning" role="status">
          <Icon name="warning" size={16} />
          <span>You're using a temporary password.</span>
        </div>
      )}
      <button type="button" className="user-head" aria-expanded={open} onClick={toggle} title="Account menu">
        <span className="avatar">{user.Username.slice(0, 1).toUpperCase()}</span>
        <span className="user-name">{user.Username}</span>
        <Icon name="chevron" size={14} className="chevron" />
      </button>
      {/* Who is really signed in (the server's Message while impersonating). */}
      {impersonating && user.Message && <div className="impersonation-note" role="status">{user.Message}</div>}
      {open && (
        <div className="nav-group-items">
          {!selfHosted && hasClaim(user, Claim.UserManagement) && <NavItem icon="card" label="Manage Subscription" to="/subscription/" />}
          {/* Hidden for root (spec 1 section 6), except to replace the generated temporary
              password (docs/decisions.md, "Accounts and sign-in"). */}
          {/* Not while impersonating: the server refuses to change someone else's password. */}
          {(!user.IsRoot || tempPassword) && !impersonating && <NavItem icon="key" label="Change Password" onClick={() => openChangePassword(true)} />}
          {!selfHosted && <NavItem icon="help" label="Get Help" onClick={() => openGetHelp({})} />}
          {impersonating && <NavItem icon="user" label="Clear Impersonation" to="/clearimpersonation" />}
          <NavItem icon="logout" label="Logout" to="/logout" />
        </div>
      )}
    </div>
  );
}
