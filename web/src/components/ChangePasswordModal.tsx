// "Change your password" (spec 1 sections 2, 5, 8). For a web user whose password an admin
// set (temporary), it opens by itself after sign-in and cannot be dismissed: the user picks
// their own password or logs out (issue 26, item 5). Root's generated password keeps the
// warning only (docs/decisions.md).
import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { PasswordMaxLength } from '../../../server/contract/account';
import { useNavigate } from 'react-router-dom';
import { changePassword } from '../api/account';
import { ServerError, bodyErrorText, errorMessage } from '../api/errors';
import { changePasswordOpenAtom } from '../state/dialogs';
import { refreshCurrentUser } from '../state/session';
import { showInfo } from '../state/toasts';
import { currentUserAtom, isSelfHostedAtom } from '../state/user';
import { checkChangePassword, mustReplacePassword } from './changePasswordRules';
import { Field } from './Field';
import { Modal } from './Modal';

export function changePasswordFailure(error: unknown): string {
  const fromServer = error instanceof ServerError ? bodyErrorText(error.body) : undefined;
  return fromServer ?? `Couldn't change password (check your current password) - ${errorMessage(error)}`;
}

export function ChangePasswordModal() {
  const setOpen = useSetAtom(changePasswordOpenAtom);
  const requireCurrent = useAtomValue(isSelfHostedAtom);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const check = checkChangePassword({ current, next, confirm, requireCurrent });
  const mustChange = mustReplacePassword(useAtomValue(currentUserAtom));
  const navigate = useNavigate();
  const close = () => setOpen(false);
  const dismiss = () => !mustChange && close();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!check.valid || busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await changePassword(next, requireCurrent ? current : undefined);
      showInfo('Password changed successfully');
      close();
      await refreshCurrentUser();
    } catch (error) {
      setFailure(changePasswordFailure(error));
      setBusy(false);
    }
  };

  return (
    <Modal title="Change your password" onClose={dismiss}>
      <form className="modal-body" onSubmit={submit}>
        {mustChange && (
          <p className="temp-password-warning" role="status">
            You're using a temporary password. Choose your own password to continue.
          </p>
        )}
        {requireCurrent && (
          <Field label="Current password" id="cp-current" type="password" autoComplete="current-password" maxLength={PasswordMaxLength}
            value={current} onChange={(e) => setCurrent(e.target.value)} error={check.errors.current} autoFocus />
        )}
        <Field label="New password" id="cp-new" type="password" autoComplete="new-password" maxLength={PasswordMaxLength}
          value={next} onChange={(e) => setNext(e.target.value)} error={check.errors.next} autoFocus={!requireCurrent} />
        <Field label="Confirm new password" id="cp-confirm" type="password" autoComplete="new-password" maxLength={PasswordMaxLength}
          value={confirm} onChange={(e) => setConfirm(e.target.value)} error={check.errors.confirm} />
        {failure && <div className="form-failure" role="alert">{failure}</div>}
        <footer className="modal-actions">
          {mustChange ? (
            <button type="button" className="button secondary" onClick={() => { close(); navigate('/logout'); }}>Logout</button>
          ) : (
            <button type="button" className="button secondary" onClick={close}>Cancel</button>
          )}
          <button type="submit" className="button primary" disabled={!check.valid || busy}>Change Password</button>
        </footer>
      </form>
    </Modal>
  );
}
