// Sidebar, page and footer: the frame of every signed-in (or guest) screen.
import { useAtomValue } from 'jotai';
import { Outlet } from 'react-router-dom';
import { mustReplacePassword } from '../components/changePasswordRules';
import { currentUserAtom } from '../state/user';
import { TemporaryPasswordPane } from './TemporaryPasswordPane';
import { HubEventHandlers } from '../hub/HubEventHandlers';
import { OnboardingWindow } from '../onboarding/OnboardingWindow';
import { Footer } from './Footer';
import { Sidebar } from './Sidebar';
import { useStorageWarning } from './useStorageWarning';

export function Layout() {
  useStorageWarning();
  // Until a temporary password is replaced the server refuses every screen's calls.
  const held = mustReplacePassword(useAtomValue(currentUserAtom));
  return (
    <div className="app">
      <HubEventHandlers />
      <Sidebar />
      <div className="main-column">
        <main className="content">
          {held ? <TemporaryPasswordPane /> : <Outlet />}
        </main>
        <Footer />
      </div>
      {!held && <OnboardingWindow />}
    </div>
  );
}
