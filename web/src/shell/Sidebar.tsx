// The console sidebar (spec 1 section 2). Guests see Login; LiveShare visitors see only
// Cancel LiveShare; everyone else sees the groups their claims and licence allow.
import { useAtom, useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Claim, LicenseMode } from '../../../server/contract/account';
import { Brand } from '../components/Brand';
import { Icon } from '../components/Icon';
import { sidebarVisibleAtom } from '../state/sidebar';
import { currentUserAtom, isSelfHostedAtom } from '../state/user';
import { hasClaim } from './gates';
import { NavGroup, NavItem } from './NavItem';
import { SummariesGroup } from './SummariesGroup';
import { UserGroup } from './UserGroup';
import { SidebarAgents } from '../agents/SidebarAgents';
import { mustReplacePassword } from '../components/changePasswordRules';

const staffEntries: Array<[string, string]> = [
  ['Ping Servers', '/staff/pingserver-management'],
  ['Accounts', '/staff/accounts/'],
  ['Users and Events', '/staff/userandevents/'],
  ['Feedback', '/staff/feedback/'],
  ['Session Audit', '/staff/sessionaudit/'],
  ['Lookup', '/staff/lookup/'],
];

function StaffGroup({ canImpersonate }: { canImpersonate: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <NavGroup title="Staff" icon="staff" open={open} onToggle={() => setOpen(!open)}>
      {staffEntries.map(([label, to]) => <NavItem key={to} label={label} to={to} />)}
      {canImpersonate && <NavItem label="Impersonate" to="/impersonate" />}
    </NavGroup>
  );
}

function AgentsGroup({ selfHosted }: { selfHosted: boolean }) {
  const [open, setOpen] = useState(true);
  return (
    <NavGroup title={selfHosted ? 'CloudConnect' : 'Agents'} icon="agents" open={open} onToggle={() => setOpen(!open)}>
      <SidebarAgents />
    </NavGroup>
  );
}

function SidebarContent() {
  const user = useAtomValue(currentUserAtom);
  const selfHosted = useAtomValue(isSelfHostedAtom);
  if (!user) return <nav className="nav"><NavItem icon="login" label="Login" to="/login" /></nav>;
  if (user.IsLiveshare) return <nav className="nav"><NavItem icon="logout" label="Cancel LiveShare" to="/cancel-liveshare/" /></nav>;
  const can = (claim: Claim) => hasClaim(user, claim);
  // Groups that load data wait until a temporary password is replaced (the server refuses them).
  const held = mustReplacePassword(user);
  return (
    <>
      <nav className="nav">
        {/* Under the Sidekick licence "/" is the Sidekick screen (spec 1 section 2). */}
        <NavItem icon="targets" label={user.LicenseMode === LicenseMode.Sidekick ? 'Sidekick' : 'All Targets'} to="/" end />
        {!held && user.LicenseMode === LicenseMode.Professional && <SummariesGroup />}
        {/* Sidekick (spec 3 section 2.1: /sidekick for a licensed user; under its own licence it is "/"). */}
        {user.LicenseMode === LicenseMode.Professional && <NavItem label="Sidekick" to="/sidekick" />}
        {!held && can(Claim.CloudConnectManagement) && <AgentsGroup selfHosted={selfHosted} />}
        {can(Claim.SessionManagement) && <NavItem icon="sessions" label="Sessions" to="/sessions" />}
        {can(Claim.UserManagement) && <NavItem icon="users" label="Manage Users" to="/user-management" />}
        {can(Claim.SettingsManagement) && <NavItem icon="settings" label="Settings" to="/settings" />}
        {/* Self-hosted: the tickets users send are the root user's to read (hosted: Staff > Feedback). */}
        {selfHosted && user.IsRoot && <NavItem label="Support Tickets" to="/support-tickets" />}
        {can(Claim.Staff) && <StaffGroup canImpersonate={can(Claim.ImpersonateUser)} />}
        {/* Impersonate needs ImpersonateUser (spec 1 section 6); without the staff group
            (self-hosted has no staff) it stands on its own. */}
        {!can(Claim.Staff) && can(Claim.ImpersonateUser) && <NavItem icon="user" label="Impersonate" to="/impersonate" />}
      </nav>
      <UserGroup />
    </>
  );
}

export function Sidebar() {
  const [visible, setVisible] = useAtom(sidebarVisibleAtom);
  if (!visible) {
    return (
      <aside className="sidebar collapsed">
        <Link to="/" className="brand" aria-label="Hopwatch home"><Brand compact /></Link>
        <button type="button" className="icon-button sidebar-toggle" aria-label="Show sidebar" onClick={() => setVisible(true)}>
          <Icon name="expand" />
        </button>
      </aside>
    );
  }
  return (
    <aside className="sidebar">
      <div className="sidebar-top">
        <Link to="/" className="brand" aria-label="Hopwatch home"><Brand /></Link>
        <button type="button" className="icon-button sidebar-toggle" aria-label="Hide sidebar" onClick={() => setVisible(false)}>
          <Icon name="collapse" />
        </button>
      </div>
      <SidebarContent />
    </aside>
  );
}
