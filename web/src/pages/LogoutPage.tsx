// /logout and /cancel-liveshare/: "Logging Out...", then /login (spec 1 sections 2 and 4).
import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { logout } from '../api/account';
import { useDocumentTitle } from '../shell/documentTitle';
import { forgetLiveShareId } from '../state/liveShareCookie';
import { authLoadingAtom, currentUserAtom } from '../state/user';

export function LogoutPage() {
  const navigate = useNavigate();
  const setUser = useSetAtom(currentUserAtom);
  const setLoading = useSetAtom(authLoadingAtom);
  const started = useRef(false);
  useDocumentTitle('Logging Out');
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Logout always clears state and goes to /login, whatever the server answered.
    logout()
      .catch(() => undefined)
      .finally(() => {
        forgetLiveShareId();
        setUser(null);
        setLoading(false);
        navigate('/login', { replace: true });
      });
  }, [navigate, setUser, setLoading]);
  return (
    <div className="center-screen">
      <div className="auth-card compact">
        <p className="logging-out">Logging Out...</p>
      </div>
    </div>
  );
}
