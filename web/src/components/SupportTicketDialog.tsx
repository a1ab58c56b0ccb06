// The support-ticket dialog (spec 1 sections 2, 5, 8): the local error log goes with it. As
// the hosted Get Help dialog (`help`) it says so and thanks with the product's support
// wording; with an agent (the onboarding window's Get Help) it sends
// /cmd/cloudconnect-agent-get-support for that agent instead of a plain ticket.
import { useAtomValue } from 'jotai';
import { useRef, useState, type FormEvent } from 'react';
import { requestCloudConnectSupport, sendSupportTicket } from '../api/support';
import { errorMessage } from '../api/errors';
import { errorLogJson } from '../state/errorLog';
import { showInfo } from '../state/toasts';
import { isSelfHostedAtom } from '../state/user';
import { Field } from './Field';
import { Modal } from './Modal';
import { SupportAnswers } from '../support/SupportAnswers';
import { StoredSupportValuesKey, canSubmitTicket, isValidEmail, readStoredSupportValues, supportRequestedText } from './supportTicketRules';

export function SupportTicketDialog({ onClose, help = false, agentId }: { onClose: () => void; help?: boolean; agentId?: number }) {
  const selfHosted = useAtomValue(isSelfHostedAtom);
  const [stored] = useState(() => readStoredSupportValues(localStorage.getItem(StoredSupportValuesKey)));
  const [name, setName] = useState(stored.name);
  const [email, setEmail] = useState(stored.email);
  const [problem, setProblem] = useState('');
  const [emailTouched, setEmailTouched] = useState(stored.email !== '');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const emailRef = useRef<HTMLInputElement>(null);
  const emailState = !selfHosted || !emailTouched ? '' : isValidEmail(email) ? 'valid' : 'invalid';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmitTicket(email, selfHosted)) {
      setEmailTouched(true);
      emailRef.current?.focus();
      return;
    }
    localStorage.setItem(StoredSupportValuesKey, JSON.stringify({ name, email }));
    setBusy(true);
    setFailure(undefined);
    try {
      const ticket = { name, email: selfHosted ? email.trim() : '', problemStatement: problem };
      if (agentId !== undefined) await requestCloudConnectSupport(agentId, ticket, errorLogJson(localStorage));
      else await sendSupportTicket(ticket, errorLogJson(localStorage));
      showInfo(help || agentId !== undefined ? supportRequestedText(selfHosted) : 'Support ticket sent. Thank you.');
      onClose();
    } catch (error) {
      setFailure(`Error sending support ticket: ${errorMessage(error)}`);
      setBusy(false);
    }
  };

  return (
    <Modal title={help || agentId !== undefined ? 'Get Help' : 'Submit a Support Ticket'} onClose={onClose} width={480}>
      <form className="modal-body" onSubmit={submit} noValidate>
        <Field label="Name" id="st-name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        {selfHosted && (
          <Field label="E-mail" id="st-email" type="email" autoComplete="email" className={emailState} inputRef={emailRef}
            value={email} onChange={(e) => { setEmail(e.target.value); setEmailTouched(true); }}
            error={emailState === 'invalid' ? 'Enter a valid e-mail address' : undefined} />
        )}
        <div className="field">
          <label htmlFor="st-problem">Problem description</label>
          <textarea id="st-problem" rows={5} value={problem} onChange={(e) => setProblem(e.target.value)} />
        </div>
        <p className="hint">Your recent console error log is attached to help us find the problem.</p>
        <SupportAnswers />
        {failure && <div className="form-failure" role="alert">{failure}</div>}
        <footer className="modal-actions">
          <button type="button" className="button secondary" onClick={onClose}>Cancel</button>
          <button type="submit" className="button primary" style={{ width: 120 }} disabled={busy}>Submit</button>
        </footer>
      </form>
    </Modal>
  );
}
