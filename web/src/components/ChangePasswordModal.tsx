// "Change your password" (spec 1 sections 2, 5, 8).
import { useAtomValue, useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { PasswordMaxLength } from '../../../server/contract/account';
import { changePassword } from '../api/account';
import { ServerError, bodyErrorText, errorMessage } from '../api/errors';
import { changePasswordOpenAtom } from '../state/dialogs';
import { refreshCurrentUser } from '../state/session';
import { showInfo } from '../state/toasts';
import { isSelfHostedAtom } from '../state/user';
import { checkChangePassword } from './changePasswordRules';
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
  const close = () => setOpen(false);

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
    <Modal title="Change your password" onClose={close}>
      <form className="modal-body" onSubmit={submit}>
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
          <button type="button" className="button secondary" onClick={close}>Cancel</button>
          <button type="submit" className="button primary" disabled={!check.valid || busy}>Change Password</button>
        </footer>
      </form>
    </Modal>
  );
}
