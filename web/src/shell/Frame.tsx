// Everything every page shares: toasts, the error banner and the shell dialogs.
import { useAtom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { setUnauthorizedHandler } from '../api/http';
import { ChangePasswordModal } from '../components/ChangePasswordModal';
import { SupportTicketDialog } from '../components/SupportTicketDialog';
import { changePasswordOpenAtom, supportDialogOpenAtom } from '../state/dialogs';
import { store } from '../state/store';
import { currentUserAtom, trialExpiredAtom } from '../state/user';
import { ErrorBanner } from './ErrorBanner';
import { Toasts } from './Toasts';

export function Frame() {
  const navigate = useNavigate();
  const [supportOpen, setSupportOpen] = useAtom(supportDialogOpenAtom);
  const changePasswordOpen = useAtomValue(changePasswordOpenAtom);

  // A lost session anywhere: clear the user and sign in again, then come back here.
  useEffect(() => {
    setUnauthorizedHandler(({ expired, temporaryPassword }) => {
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
    </>
  );
}
