// /activate#TOKEN: the page an activation mail links to (issue 26). It names the user the link
// is for, lets them choose their own password (the server applies the password policy), and
// then sends them to sign in with it. Public: the person has no session yet.
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PasswordMaxLength } from '../../../server/contract/account';
import { Brand } from '../components/Brand';
import { Field } from '../components/Field';
import { useDocumentTitle } from '../shell/documentTitle';
import { activate } from './api';
import { checkNewPassword } from './logic/activationLink';
import { failureText, useActivationLink } from './useActivationLink';

function PasswordForm({ token, username, onDone }: { token: string; username: string; onDone: () => void }) {
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const check = checkNewPassword(next, confirm);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!check.valid || busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await activate(token, next);
      onDone();
    } catch (err) {
      setFailure(failureText(err));
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <h1>Set your password</h1>
      <p className="hint">
        For the web user <b>{username}</b>. At least 8 characters, not containing your user name.
      </p>
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <Field label="New password" id="activation-password" type="password" autoComplete="new-password" autoFocus maxLength={PasswordMaxLength}
        value={next} onChange={(e) => setNext(e.target.value)} error={check.errors.next} />
      <Field label="Confirm new password" id="activation-confirm" type="password" autoComplete="new-password" maxLength={PasswordMaxLength}
        value={confirm} onChange={(e) => setConfirm(e.target.value)} error={check.errors.confirm} />
      {failure && <div className="form-failure" role="alert">{failure}</div>}
      <button type="submit" className="button primary block" disabled={!check.valid || busy}>Set Password</button>
    </form>
  );
}

export function ActivationPage() {
  useDocumentTitle('Set your password');
  const { hash } = useLocation();
  const link = useActivationLink(hash);
  const [done, setDone] = useState(false);
  const signInLink = (username: string) => `/login?u=${encodeURIComponent(username)}`;

  return (
    <div className="center-screen login-screen">
      <div className="auth-card activation">
        <div className="auth-brand"><Brand /></div>
        {link.state === 'checking' && <p className="hint">Checking the link…</p>}
        {link.state === 'refused' && (
          <>
            <h1>This link does not work</h1>
            <div className="form-failure" role="alert">{link.message}</div>
            <p><Link to="/login">Go to sign in</Link></p>
          </>
        )}
        {link.state === 'working' && !done && <PasswordForm token={link.token} username={link.info.Username} onDone={() => setDone(true)} />}
        {link.state === 'working' && done && (
          <>
            <h1>Password set</h1>
            <p role="status">Your password is set. Sign in as <b>{link.info.Username}</b> with it.</p>
            <Link className="button primary block" to={signInLink(link.info.Username)}>Sign in</Link>
          </>
        )}
      </div>
    </div>
  );
}
