// The route table of spec 1 section 2 with its gates. Screens that later issues build show
// a "coming" page, but their paths and gates are the real ones.
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { Claim } from '../../../server/contract/account';
import { ComingPage } from '../pages/ComingPage';
import { TargetPage } from '../target/TargetPage';
import { UserManagementPage } from '../users/UserManagementPage';
import { ClearImpersonationPage } from '../impersonation/ClearImpersonationPage';
import { ImpersonatePage } from '../impersonation/ImpersonatePage';
import { ImpersonationAuditPage } from '../impersonation/ImpersonationAuditPage';
import { SettingsPage } from '../settings/SettingsPage';
import { HomePage } from '../home/HomePage';
import { SummaryPage } from '../summary/SummaryPage';
import { SidekickPage } from '../sidekick/SidekickPage';
import { SidekickTargetPage } from '../sidekick/SidekickTargetPage';
import { AgentsPage } from '../agents/AgentsPage';
import { StaffAccountsPage } from '../accounts/StaffAccountsPage';
import { SubscriptionPage } from '../subscription/SubscriptionPage';
import { SessionsPage } from '../sessions/SessionsPage';
import { InvalidLivesharePage } from '../pages/InvalidLivesharePage';
import { LiveShareLinksPage } from '../liveshare/LiveShareLinksPage';
import { LiveShareViewerPage } from '../liveshare/LiveShareViewerPage';
import { LoginPage } from '../pages/LoginPage';
import { ActivationPage } from '../activation/ActivationPage';
import { LogoutPage } from '../pages/LogoutPage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { PingServerManagementPage } from '../staff/pingserver/PingServerManagementPage';
import { UsersAndEventsPage } from '../staff/userandevents/UsersAndEventsPage';
import { FeedbackPage } from '../staff/feedback/FeedbackPage';
import { SessionAuditPage } from '../staff/sessionaudit/SessionAuditPage';
import { LookupPage } from '../staff/lookup/LookupPage';
import { SupportTicketsPage } from '../support/SupportTicketsPage';
import { authLoadingAtom } from '../state/user';
import { RouteErrorFallback } from './ErrorFallback';
import { Frame } from './Frame';
import { Open, SignedIn, needsClaim, type Gate } from './gates';
import { Guard } from './Guard';
import { Layout } from './Layout';
import { LoadingPane } from './LoadingPane';

const SummaryGate: Gate = { signedIn: true, professional: true, notLiveShare: true };
const SidekickGate: Gate = { signedIn: true, notLiveShare: true };
const LiveShareLinksGate: Gate = { signedIn: true, professional: true, claims: [Claim.SummaryManagement] };
// A visitor whose link the server does not accept has no current user: the link is invalid.
const LiveShareViewerGate: Gate = { signedIn: true, professional: true, signedOutTo: '/InvalidLiveshare' };

/** Not-found, decided only once authentication has loaded. */
function CatchAll() {
  return useAtomValue(authLoadingAtom) ? <LoadingPane /> : <NotFoundPage />;
}

type Entry = [paths: string[], gate: Gate, element: ReactNode];

const gated = (paths: string[], gate: Gate, element: ReactNode): Entry => [paths, gate, element];
const coming = (paths: string[], gate: Gate, screen: string): Entry => gated(paths, gate, <ComingPage screen={screen} />);

/** Screens inside the sidebar layout. */
export const shellEntries: Entry[] = [
  gated(['/'], SignedIn, <HomePage />),
  // Spec 3 section 2.1: /target, /sktargets and /agent without an id "go to the main
  // container": they land on / (one address for the main screen, so reload and links agree).
  gated(['/target', '/sktargets', '/agent'], SignedIn, <Navigate to="/" replace />),
  gated(['/summary/:summaryUniqueID?', '/summarys/:summaryId?'], SummaryGate, <SummaryPage />),
  gated(['/targets/:targetUniqueID?'], SignedIn, <TargetPage />),
  gated(['/agents', '/cloudconnect', '/agent/:agentUniqueID'], needsClaim(Claim.CloudConnectManagement), <AgentsPage />),
  gated(['/sessions'], needsClaim(Claim.SessionManagement), <SessionsPage />),
  gated(['/user-management'], needsClaim(Claim.UserManagement), <UserManagementPage />),
  // The impersonation audit: root reads it (the page says so to anyone else).
  gated(['/user-management/audit'], needsClaim(Claim.UserManagement), <ImpersonationAuditPage />),
  gated(['/settings'], needsClaim(Claim.SettingsManagement), <SettingsPage />),
  // The root user reads them (the page says so to anyone else): issue 41 item 11.
  gated(['/support-tickets'], needsClaim(Claim.SettingsManagement), <SupportTicketsPage />),
  gated(['/subscription'], needsClaim(Claim.UserManagement), <SubscriptionPage />),
  gated(['/LiveShareLinks/:summaryId?'], LiveShareLinksGate, <LiveShareLinksPage />),
  gated(['/LiveShare/:liveShareId/:liveSharePw'], LiveShareViewerGate, <LiveShareViewerPage />),
  gated(['/staff/pingserver-management'], needsClaim(Claim.Staff), <PingServerManagementPage />),
  gated(['/staff/accounts'], needsClaim(Claim.Staff), <StaffAccountsPage />),
  gated(['/staff/userandevents'], needsClaim(Claim.Staff), <UsersAndEventsPage />),
  gated(['/staff/feedback'], needsClaim(Claim.Staff), <FeedbackPage />),
  gated(['/staff/sessionaudit'], needsClaim(Claim.Staff), <SessionAuditPage />),
  gated(['/staff/lookup'], needsClaim(Claim.Staff), <LookupPage />),
  gated(['/impersonate'], needsClaim(Claim.ImpersonateUser), <ImpersonatePage />),
  gated(['/clearimpersonation'], needsClaim(Claim.IsImpersonating), <ClearImpersonationPage />),
  // The page itself shows the purchase view without a non-trial licence (server state).
  gated(['/sidekick'], SidekickGate, <SidekickPage />),
  gated(['/sktargets/:targetId'], SidekickGate, <SidekickTargetPage />),
  gated(['/InvalidLiveshare'], Open, <InvalidLivesharePage />),
];

const toRoutes = (entries: Entry[]): RouteObject[] =>
  entries.flatMap(([paths, gate, element]) => paths.map((path) => ({ path, element: <Guard gate={gate}>{element}</Guard> })));

export const routes: RouteObject[] = [
  {
    element: <Frame />,
    errorElement: <RouteErrorFallback />,
    children: [
      { path: '/login/:expired?', element: <LoginPage /> },
      { path: '/logout', element: <LogoutPage /> },
      // The page an activation mail links to (server/activation/): public, outside the shell.
      { path: '/activate', element: <ActivationPage /> },
      { path: '/cancel-liveshare', element: <LogoutPage /> },
      {
        element: <Layout />,
        errorElement: <RouteErrorFallback />,
        children: [...toRoutes(shellEntries), { path: '*', element: <CatchAll /> }],
      },
    ],
  },
];
