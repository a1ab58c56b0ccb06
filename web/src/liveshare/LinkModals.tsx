// The create and edit dialogs of LiveShare links (spec 1 "LiveShare link management"). Create:
// Name (placeholder "Created {local date time}"), Expiration date (blank: never), Notes; then
// the view-only link with Copy URL, Visit URL now and Close. Edit: Name, the Summary or Agent
// picker, Expiration Date, Active, Notes, "Update Link"; a name or notes left empty keep the
// old ones. The edit dialog also lists the link's history (visits and changes).
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { LinkHistory, LiveShareLink } from '../../../server/contract/liveshare';
import { ServerError, bodyErrorText, errorMessage } from '../api/errors';
import { Field } from '../components/Field';
import { Modal } from '../components/Modal';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { copyText } from '../target/clipboard';
import { createLink, historyForLink, updateLink } from './api';
import { dateText, defaultLinkName, expirationFromInput, expirationToInput, parseSharedRef } from './logic/links';
import type { SharedChoice } from './useLiveShareLinks';

const failureText = (e: unknown) => (e instanceof ServerError ? bodyErrorText(e.body) : undefined) ?? errorMessage(e);
const Failure = ({ text }: { text?: string }) => (text ? <div className="form-failure" role="alert">{text}</div> : null);

/** Copies a link's URL with the spec's toast. */
export function copyLinkUrl(url: string): void {
  copyText(url).then(() => showInfo(`URL ${url} copied to clipboard`), (e) => reportError(e));
}

function TextArea({ label, id, value, onChange, placeholder }: { label: string; id: string; value: string; onChange: (v: string) => void; placeholder?: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} maxLength={4000} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

export function CreateLinkModal({ summaryRef, onClose, onChanged }: { summaryRef: string; onClose: () => void; onChanged: () => void }) {
  const placeholder = useMemo(() => defaultLinkName(new Date()), []);
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [created, setCreated] = useState<LiveShareLink | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const link = await createLink({ SummaryID: summaryRef, Description: name.trim() || placeholder, Notes: notes, ExpirationDate: expirationFromInput(expires) });
      setCreated(link);
      showInfo('LiveShare link created');
      onChanged();
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <Modal title="LiveShare link created" onClose={onClose} width={560}>
        <div className="modal-body">
          <p>Anyone with this view-only link can watch the shared targets{created.ExpirationDate ? ` until ${dateText(created.ExpirationDate)}` : ''}:</p>
          <input className="liveshare-url" readOnly value={created.LiveShareURL} aria-label="View-only link" onFocus={(e) => e.target.select()} data-testid="created-link-url" />
        </div>
        <footer className="modal-actions">
          <button type="button" className="button secondary" onClick={() => copyLinkUrl(created.LiveShareURL)}>Copy URL</button>
          <a className="button secondary" href={created.LiveShareURL} target="_blank" rel="noopener noreferrer">Visit URL now</a>
          <button type="button" className="button primary" onClick={onClose}>Close</button>
        </footer>
      </Modal>
    );
  }
  return (
    <Modal title="Create LiveShare link" onClose={onClose} width={480}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="Name" id="ls-name" autoFocus maxLength={200} placeholder={placeholder} value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Expiration date" id="ls-expires" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        <p className="hint">Leave the expiration blank for a link that never expires.</p>
        <TextArea label="Notes" id="ls-notes" value={notes} onChange={setNotes} />
        <Failure text={failure} />
        <footer className="modal-actions">
          <button type="button" className="button secondary" onClick={onClose}>Cancel</button>
          <button type="submit" className="button primary" disabled={busy}>Create</button>
        </footer>
      </form>
    </Modal>
  );
}

export function EditLinkModal({
  link,
  summaries,
  agents,
  onClose,
  onChanged,
}: {
  link: LiveShareLink;
  summaries: SharedChoice[];
  agents: SharedChoice[];
  onClose: () => void;
  onChanged: () => void;
}) {
  const kind = parseSharedRef(link.SummaryID)?.kind ?? 'Summary';
  const choices = kind === 'Agent' ? agents : summaries;
  const [name, setName] = useState('');
  const [shared, setShared] = useState(link.SummaryID);
  const [expires, setExpires] = useState(expirationToInput(link.ExpirationDate));
  const [active, setActive] = useState(link.Active);
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [history, setHistory] = useState<LinkHistory[] | null>(null);
  useEffect(() => {
    historyForLink(link.ShareId).then((h) => setHistory(h ?? []), (e) => reportError(e));
  }, [link.ShareId]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(undefined);
    try {
      // Empty name or notes: the server keeps the old ones.
      await updateLink(link.ShareId, { Description: name, Notes: notes, SummaryID: shared, ExpirationDate: expirationFromInput(expires), Active: active });
      showInfo('LiveShare link updated');
      onClose();
      onChanged();
    } catch (err) {
      setFailure(failureText(err));
      setBusy(false);
    }
  };
  return (
    <Modal title="Edit LiveShare link" onClose={onClose} width={560}>
      <form className="modal-body" onSubmit={submit}>
        <Field label="Name" id="ls-edit-name" autoFocus maxLength={200} placeholder={link.Description} value={name} onChange={(e) => setName(e.target.value)} />
        <div className="field">
          <label htmlFor="ls-edit-shared">{kind}</label>
          <select id="ls-edit-shared" value={shared} onChange={(e) => setShared(e.target.value)}>
            {!choices.some((c) => c.ref === link.SummaryID) && <option value={link.SummaryID}>{link.SummaryID}</option>}
            {choices.map((c) => (
              <option key={c.ref} value={c.ref}>{c.name}</option>
            ))}
          </select>
        </div>
        <Field label="Expiration Date" id="ls-edit-expires" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        <label className="checkbox-line">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active
        </label>
        <TextArea label="Notes" id="ls-edit-notes" value={notes} placeholder={link.Notes} onChange={setNotes} />
        <Failure text={failure} />
        <footer className="modal-actions">
          <button type="button" className="button secondary" onClick={onClose}>Cancel</button>
          <button type="submit" className="button primary" disabled={busy}>Update Link</button>
        </footer>
      </form>
      <section className="liveshare-history" aria-label="History">
        <h3>History</h3>
        {history === null ? (
          <p className="hint">Loading...</p>
        ) : history.length === 0 ? (
          <p className="hint">No visits or changes yet.</p>
        ) : (
          <table>
            <thead>
              <tr><th>Date</th><th>Address</th><th>Action</th><th>Details</th></tr>
            </thead>
            <tbody>
              {history.map((h) => (
                <tr key={h.DbId} data-testid="history-row">
                  <td>{dateText(h.Date)}</td>
                  <td>{h.IPAddress}</td>
                  <td>{h.Action}</td>
                  <td>{h.LogText}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Modal>
  );
}
