// What the page area shows while the signed-in web user must replace a temporary password:
// the server answers no other call (issue 26), so no screen loads until the change.
import { useSetAtom } from 'jotai';
import { changePasswordOpenAtom } from '../state/dialogs';
import { useDocumentTitle } from './documentTitle';

export function TemporaryPasswordPane() {
  useDocumentTitle('Change your password');
  const open = useSetAtom(changePasswordOpenAtom);
  return (
    <section className="page">
      <div className="coming-card temp-password-pane">
        <h2>You're using a temporary password.</h2>
        <p>Choose your own password to continue.</p>
        <button type="button" className="button primary" onClick={() => open(true)}>Change Password</button>
      </div>
    </section>
  );
}
