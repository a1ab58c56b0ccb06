// Everything every page shares: toasts, the error banner and the shell dialogs.
import { useAtom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { setUnauthorizedHandler } from '../api/http';
import { ChangePasswordModal } from '../components/ChangePasswordModal';
import { SupportTicketDialog } from '../components/SupportTicketDialog';
import { changePasswordOpenAtom, getHelpAtom, supportDialogOpenAtom } from '../state/dialogs';
import { store } from '../state/store';
import { forgetLiveShareId, storedLiveShareId } from '../state/liveShareCookie';
import { currentUserAtom, trialExpiredAtom } from '../state/user';
import { ErrorBanner } from './ErrorBanner';
import { Toasts } from './Toasts';

export function Frame() {
  const navigate = useNavigate();
  const [supportOpen, setSupportOpen] = useAtom(supportDialogOpenAtom);
  const changePasswordOpen = useAtomValue(changePasswordOpenAtom);
  const [getHelp, setGetHelp] = useAtom(getHelpAtom);

  // A signed-in user is never a LiveShare visitor: a link this tab opened before (its
  // liveshareid cookie and session key) is dropped, so it rides on none of the user's
  // requests and a later sign-out is not taken for an invalid link (issue 41 item 6).
  const user = useAtomValue(currentUserAtom);
  useEffect(() => {
    if (user?.IsUser && storedLiveShareId()) forgetLiveShareId();
  }, [user]);

  // A lost session anywhere (a 401, or a session-wide 403: api/signedOut.ts): clear the
  // user and sign in again, then come back here.
  useEffect(() => {
    setUnauthorizedHandler(({ status, expired, temporaryPassword }) => {
      // A LiveShare visitor: a 401 means its link was switched off or expired (spec 3 section 2.6).
      if (store.get(currentUserAtom)?.IsLiveshare || (!store.get(currentUserAtom)?.IsUser && storedLiveShareId())) {
        if (status === 403) return;
        store.set(currentUserAtom, null);
        navigate('/InvalidLiveshare', { replace: true });
        return;
      }
      // Still signed in, but the password must be replaced first: ask for it, stay here.
      if (temporaryPassword) {
        store.set(changePasswordOpenAtom, true);
        return;
      }
      const from = location.pathname + location.search + location.hash;
      // The gate of the screen being left redirects too when the user clears; it reads
      // trialExpiredAtom so both redirects agree on expired=true.
      store.set(trialExpiredAtom, expired);
      store.set(currentUserAtom, null);
      navigate(expired ? '/login?expired=true' : '/login', { state: { from } });
    });
    return () => setUnauthorizedHandler(undefined);
  }, [navigate]);

  return (
    <>
      <Outlet />
      <ErrorBanner />
      <Toasts />
      {changePasswordOpen && <ChangePasswordModal />}
      {supportOpen && <SupportTicketDialog onClose={() => setSupportOpen(false)} />}
      {getHelp && <SupportTicketDialog help agentId={getHelp.agentId} onClose={() => setGetHelp(null)} />}
    </>
  );
}
