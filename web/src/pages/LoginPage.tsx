// Sign in (spec 1 sections 2, 5, 8): validation before any call, u/p prefill and auto-login,
// the Trial Expired notice, and the return location after login.
import { useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { login } from '../api/account';
import { errorMessage } from '../api/errors';
import { Brand } from '../components/Brand';
import { Field } from '../components/Field';
import { useDocumentTitle } from '../shell/documentTitle';
import { supportDialogOpenAtom } from '../state/dialogs';
import { authLoadingAtom, currentUserAtom, trialExpiredAtom } from '../state/user';
import { hasLoginErrors, isExpiredLogin, validateLogin, type LoginErrors } from './loginValidation';

/** Where to go after login: the location the user was sent away from, else home. */
export function returnLocation(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !/^\/(login|logout)/i.test(from) ? from : '/';
}

function TrialExpiredNotice() {
  const openSupport = useSetAtom(supportDialogOpenAtom);
  return (
    <div className="trial-expired">
      <h1>Trial Expired</h1>
      <p>Your Hopwatch trial has expired. To keep monitoring, purchase a licence or switch to the free version inside the program.</p>
      <p>
        Questions? <button type="button" className="link-button" onClick={() => openSupport(true)}>Contact support</button> and we will help.
      </p>
      <p><Link to="/login">Back to sign in</Link></p>
    </div>
  );
}

export function LoginPage() {
  const [search] = useSearchParams();
  const { expired } = useParams();
  useDocumentTitle(isExpiredLogin(search, expired) ? 'Trial Expired' : 'Log in');
  const location = useLocation();
  const navigate = useNavigate();
  const setUser = useSetAtom(currentUserAtom);
  const setLoading = useSetAtom(authLoadingAtom);
  const setTrialExpired = useSetAtom(trialExpiredAtom);
  const [username, setUsername] = useState(search.get('u') ?? '');
  const [password, setPassword] = useState(search.get('p') ?? '');
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const autoTried = useRef(false);
  const showExpired = isExpiredLogin(search, expired);

  const signIn = async (name: string, pass: string) => {
    const found = validateLogin(name, pass);
    setErrors(found);
    setFailure(undefined);
    if (hasLoginErrors(found)) return;
    setBusy(true);
    try {
      const user = await login({ Username: name, Password: pass, RememberMe: rememberMe });
      setUser(user);
      setLoading(false);
      setTrialExpired(false);
      navigate(returnLocation(location.state), { replace: true });
    } catch (e) {
      setFailure(errorMessage(e));
      setBusy(false);
    }
  };

  // Both u and p in the query: sign in at once.
  useEffect(() => {
    const u = search.get('u');
    const p = search.get('p');
    if (autoTried.current || showExpired || !u || !p) return;
    autoTried.current = true;
    void signIn(u, p);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void signIn(username, password);
  };

  return (
    <div className="center-screen login-screen">
      <div className="auth-card">
        <div className="auth-brand"><Brand /></div>
        {showExpired ? (
          <TrialExpiredNotice />
        ) : (
          <form onSubmit={submit} noValidate>
            <h1>Sign in</h1>
            <p className="hint">Network path monitoring console</p>
            <Field label="Username" id="login-username" autoComplete="username" value={username} autoFocus
              onChange={(e) => setUsername(e.target.value)} error={errors.username} />
            <Field label="Password" id="login-password" type="password" autoComplete="current-password" value={password}
              onChange={(e) => setPassword(e.target.value)} error={errors.password} />
            <label className="checkbox">
              <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
              Remember login
            </label>
            {failure && <div className="form-failure" role="alert">{failure}</div>}
            <button type="submit" className="button primary block" disabled={busy}>Log in</button>
          </form>
        )}
      </div>
    </div>
  );
}
