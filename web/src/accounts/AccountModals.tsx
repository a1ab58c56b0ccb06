// The staff Accounts page's dialogs: Create Account (with its first user; the one-time
// password is shown once to hand over), Entitlements, and Suspend/Restore. Each shows the
// server's Error text inside the dialog on failure.
import { useState, type FormEvent } from 'react';
import type { CreatedAccount, StaffAccount } from '../../../server/contract/accounts';
import { AccountNameMaxLength, PlanNameMaxLength } from '../../../server/contract/accounts';
import { ServerError, bodyErrorText, errorMessage } from '../api/errors';
import { Field } from '../components/Field';
import { Modal } from '../components/Modal';
import { createAccount, setEntitlements, suspendAccount } from './api';
import { parseEntitlement } from './logic/accountRows';

/** What granting the Local Machine means (issue 39 item 15, docs/accounts.md). */
const LocalMachineGrantHint =
  "The account's traces may run from this server, inside your networks; they count against its entitled traces. Taken back, its running Local Machine traces pause.";

const failureText = (e: unknown) => (e instanceof ServerError ? bodyErrorText(e.body) : undefined) ?? errorMessage(e);

function useSubmit<T>(action: () => Promise<T>, done: (result: T) => void) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      done(await action());
    } catch (err) {
      setFailure(failureText(err));
    }
    setBusy(false);
  };
  return { busy, failure, submit };
}

const Failure = ({ text }: { text?: string }) => (text ? <div className="form-failure" role="alert">{text}</div> : null);

function Actions({ busy, label, onCancel }: { busy: boolean; label: string; onCancel: () => void }) {
  return (
    <footer className="modal-actions">
      <button type="button" className="button secondary" onClick={onCancel}>Cancel</button>
      <button type="submit" className="button primary" disabled={busy}>{label}</button>
    </footer>
  );
}

interface Done {
  onClose: () => void;
  onChanged: () => void;
}

/** Entitlement inputs to the call's numbers, or a problem text for the dialog. */
function entitlementsOf(traces: string, agents: string): { traces: number; agents: number | null } | string {
  const t = parseEntitlement(traces, false);
  if ('problem' in t) return `Entitled traces: ${t.problem}`;
  const g = parseEntitlement(agents, true);
  if ('problem' in g) return `Entitled agents: ${g.problem}`;
  return { traces: t.value!, agents: g.value };
}

export function CreateAccountModal({ onClose, onChanged, defaultTraces }: Done & { defaultTraces: number }) {
  const [name, setName] = useState('');
  const [plan, setPlan] = useState('');
  const [email, setEmail] = useState('');
  const [traces, setTraces] = useState(String(defaultTraces));
  const [agents, setAgents] = useState('');
  const [created, setCreated] = useState<CreatedAccount>();
  const { busy, failure, submit } = useSubmit(
    async () => {
      const e = entitlementsOf(traces, agents);
      if (typeof e === 'string') throw new Error(e);
      return createAccount({ Name: name, Plan: plan, UserEmail: email, EntitledTraces: e.traces, EntitledAgents: e.agents });
    },
    (made) => {
      setCreated(made ?? undefined);
      onChanged();
    },
  );
  if (created) {
    return (
      <Modal title="Account created" onClose={onClose} width={480}>
        <div className="modal-body">
          <p>
            Account <strong>{created.Account.Name}</strong> is ready. Its first user <strong>{created.UserName}</strong> signs in with this
            one-time password and must then choose their own. It is shown only now.
          </p>
          <p className="one-time-password" aria-label="One-time password">
            <code>{created.TemporaryPassword}</code>
          </p>
          <footer className="modal-actions">
            <button type="button" className="button primary" onClick={onClose}>Done</button>
          </footer>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title="Create Account" onClose={onClose} width={480}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="Account name" id="acct-name" required autoFocus maxLength={AccountNameMaxLength} value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Plan" id="acct-plan" maxLength={PlanNameMaxLength} value={plan} onChange={(e) => setPlan(e.target.value)} />
        <Field label="First user's e-mail" id="acct-email" type="email" required maxLength={256} value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Entitled traces" id="acct-traces" inputMode="numeric" value={traces} onChange={(e) => setTraces(e.target.value)} />
        <Field label="Entitled agents (blank: no limit)" id="acct-agents" inputMode="numeric" value={agents} onChange={(e) => setAgents(e.target.value)} />
        <Failure text={failure} />
        <Actions busy={busy} label="Create" onCancel={onClose} />
      </form>
    </Modal>
  );
}

export function EntitlementsModal({ account, onClose, onChanged }: Done & { account: StaffAccount }) {
  const [plan, setPlan] = useState(account.Plan);
  const [traces, setTraces] = useState(String(account.EntitledTraces));
  const [agents, setAgents] = useState(account.EntitledAgents === null ? '' : String(account.EntitledAgents));
  const [localMachine, setLocalMachine] = useState(account.LocalMachine);
  const { busy, failure, submit } = useSubmit(
    async () => {
      const e = entitlementsOf(traces, agents);
      if (typeof e === 'string') throw new Error(e);
      // The provider's account keeps the Local Machine whatever is sent: it is not offered there.
      const grant = account.IsProvider ? {} : { LocalMachine: localMachine };
      return setEntitlements(account.Id, { Plan: plan, EntitledTraces: e.traces, EntitledAgents: e.agents, ...grant });
    },
    () => {
      onClose();
      onChanged();
    },
  );
  return (
    <Modal title={`Entitlements of ${account.Name}`} onClose={onClose} width={460}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="Plan" id="ent-plan" maxLength={PlanNameMaxLength} value={plan} onChange={(e) => setPlan(e.target.value)} />
        <Field label="Entitled traces" id="ent-traces" inputMode="numeric" autoFocus value={traces} onChange={(e) => setTraces(e.target.value)} />
        <Field label="Entitled agents (blank: no limit)" id="ent-agents" inputMode="numeric" value={agents} onChange={(e) => setAgents(e.target.value)} />
        {!account.IsProvider && (
          <label className="checkbox-line" title={LocalMachineGrantHint}>
            <input type="checkbox" checked={localMachine} onChange={(e) => setLocalMachine(e.target.checked)} /> May trace from the Local Machine (this server)
          </label>
        )}
        <Failure text={failure} />
        <Actions busy={busy} label="Save" onCancel={onClose} />
      </form>
    </Modal>
  );
}

export function SuspendModal({ account, onClose, onChanged }: Done & { account: StaffAccount }) {
  const suspending = !account.Suspended;
  const [reason, setReason] = useState('');
  const { busy, failure, submit } = useSubmit(
    () => suspendAccount(account.Id, suspending ? { Suspended: true, Reason: reason } : { Suspended: false }),
    () => {
      onClose();
      onChanged();
    },
  );
  return (
    <Modal title={suspending ? `Suspend ${account.Name}` : `Restore ${account.Name}`} onClose={onClose} width={460}>
      <form className="modal-body" onSubmit={submit}>
        {suspending ? (
          <>
            <p>Its users are signed out and cannot sign in until the account is restored. Its data and agents are kept.</p>
            <Field label="Reason (staff only)" id="suspend-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </>
        ) : (
          <p>Its users can sign in again.</p>
        )}
        <Failure text={failure} />
        <Actions busy={busy} label={suspending ? 'Suspend' : 'Restore'} onCancel={onClose} />
      </form>
    </Modal>
  );
}
