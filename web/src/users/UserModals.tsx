// The four web user dialogs with the spec's titles (spec 1 "Web users page"). Each sends its
// call, shows the server's Error text inside the dialog on failure, and on success closes
// and lets the page reload the list.
import { useState, type FormEvent, type ReactNode } from 'react';
import { PasswordMaxLength } from '../../../server/contract/account';
import { ActivationLinkHours, type RoleClaim, type WebUser } from '../../../server/contract/users';
import { ServerError, bodyErrorText, errorMessage } from '../api/errors';
import { Field } from '../components/Field';
import { Modal } from '../components/Modal';
import { showInfo } from '../state/toasts';
import { createUser, deleteUser, sendActivationLink, setUserPassword, updateUser } from './api';
import { newWebUser } from './logic/webUsers';

const failureText = (e: unknown) => (e instanceof ServerError ? bodyErrorText(e.body) : undefined) ?? errorMessage(e);

/** Sends `action`; closes on success, shows the failure in the dialog otherwise. */
function useSubmit(action: () => Promise<unknown>, done: () => void) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await action();
      done();
    } catch (err) {
      setFailure(failureText(err));
      setBusy(false);
    }
  };
  return { busy, failure, submit };
}

function Actions({ busy, label, onCancel, disabled }: { busy: boolean; label: string; onCancel: () => void; disabled?: boolean }) {
  return (
    <footer className="modal-actions">
      <button type="button" className="button secondary" onClick={onCancel}>Cancel</button>
      <button type="submit" className="button primary" disabled={busy || disabled}>{label}</button>
    </footer>
  );
}

const Failure = ({ text }: { text?: string }) => (text ? <div className="form-failure" role="alert">{text}</div> : null);

function Permissions({ roles, chosen, onChange }: { roles: RoleClaim[]; chosen: string[]; onChange: (roles: string[]) => void }): ReactNode {
  const toggle = (role: string) => onChange(chosen.includes(role) ? chosen.filter((r) => r !== role) : [...chosen, role]);
  return (
    <fieldset className="permissions">
      <legend>Permissions</legend>
      {roles.map((r) => (
        <label key={r.StorageString} className="permission">
          <input type="checkbox" checked={chosen.includes(r.StorageString)} onChange={() => toggle(r.StorageString)} />
          {r.DisplayString}
        </label>
      ))}
    </fieldset>
  );
}

interface Done {
  onClose: () => void;
  onChanged: () => void;
}
const finish = ({ onClose, onChanged }: Done) => () => {
  onClose();
  onChanged();
};

export function CreateUserModal({ roles, ...done }: Done & { roles: RoleClaim[] }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const { busy, failure, submit } = useSubmit(() => createUser(newWebUser(email, chosen), password), finish(done));
  return (
    <Modal title="Create a new web user" onClose={done.onClose} width={460}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="E-mail" id="wu-email" type="email" required autoFocus value={email} onChange={(e) => setEmail(e.target.value)} maxLength={256} />
        <Field label="Password" id="wu-password" type="password" required autoComplete="new-password" maxLength={PasswordMaxLength}
          value={password} onChange={(e) => setPassword(e.target.value)} />
        <Permissions roles={roles} chosen={chosen} onChange={setChosen} />
        <Failure text={failure} />
        <Actions busy={busy} label="Create User" onCancel={done.onClose} disabled={!email.trim() || !password} />
      </form>
    </Modal>
  );
}

export function EditUserModal({ user, roles, ...done }: Done & { user: WebUser; roles: RoleClaim[] }) {
  const [chosen, setChosen] = useState<string[]>(user.Roles);
  const { busy, failure, submit } = useSubmit(() => updateUser({ ...user, Roles: chosen }), finish(done));
  return (
    <Modal title="Update web permissions" onClose={done.onClose} width={460}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="E-mail" id="wu-edit-email" value={user.EmailAddress} readOnly />
        <Permissions roles={roles} chosen={chosen} onChange={setChosen} />
        <Failure text={failure} />
        <Actions busy={busy} label="Update" onCancel={done.onClose} />
      </form>
    </Modal>
  );
}

export function PasswordModal({ user, ...done }: Done & { user: WebUser }) {
  const [password, setPassword] = useState('');
  const { busy, failure, submit } = useSubmit(() => setUserPassword(user.Id, password), finish(done));
  return (
    <Modal title={`Enter a new password for ${user.EmailAddress}`} onClose={done.onClose} width={460}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="New Password" id="wu-new-password" type="password" autoFocus autoComplete="new-password" maxLength={PasswordMaxLength}
          value={password} onChange={(e) => setPassword(e.target.value)} />
        <p className="hint">The user must choose their own password at their next sign-in.</p>
        <Failure text={failure} />
        <Actions busy={busy} label="Set Password" onCancel={done.onClose} disabled={!password} />
      </form>
    </Modal>
  );
}

export function DeleteUserModal({ user, ...done }: Done & { user: WebUser }) {
  const { busy, failure, submit } = useSubmit(() => deleteUser(user.Id), finish(done));
  return (
    <Modal title="Delete User" onClose={done.onClose}>
      <form className="modal-body" onSubmit={submit}>
        <p>Are you sure you want to delete {user.EmailAddress}?</p>
        <Failure text={failure} />
        <Actions busy={busy} label="Delete" onCancel={done.onClose} />
      </form>
    </Modal>
  );
}

/** Not in the spec's screen (issue 26): mails the user a one-time link to set their own password. */
export function ActivationLinkModal({ user, ...done }: Done & { user: WebUser }) {
  const { busy, failure, submit } = useSubmit(async () => {
    const sent = await sendActivationLink(user.EmailAddress);
    if (sent) showInfo(sent.Message);
  }, finish(done));
  return (
    <Modal title="Send activation link" onClose={done.onClose} width={460}>
      <form className="modal-body" onSubmit={submit}>
        <p>Mail {user.EmailAddress} a link to set their own password?</p>
        <p className="hint">The link works once, for {ActivationLinkHours} hours; an earlier link stops working. The password the user has now keeps working until they use it.</p>
        <Failure text={failure} />
        <Actions busy={busy} label="Send Link" onCancel={done.onClose} />
      </form>
    </Modal>
  );
}
