// Rename Summary dialog (spec 2 "Summary routes", sections 4, 5 and 8): a name field with
// Cancel / Rename; Rename is disabled until the name differs; an unchanged name just closes;
// a failure reads "Error: {message}" in the dialog; success closes it with "Summary renamed".
import { useState } from 'react';
import { Modal } from '../components/Modal';
import { errorMessage } from '../api/errors';
import { showInfo } from '../state/toasts';
import { renameSummary } from './api';
import { SummaryRenamedMessage, errorText, renameEnabled } from './logic/summaryRules';

export function RenameSummaryDialog({ summaryId, name, onClose }: { summaryId: string; name: string; onClose: () => void }) {
  const [value, setValue] = useState(name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const enabled = renameEnabled(name, value);
  const save = async () => {
    if (!enabled) return onClose();
    setBusy(true);
    try {
      await renameSummary(summaryId, value.trim());
      showInfo(SummaryRenamedMessage);
      onClose();
    } catch (e) {
      setError(errorText(errorMessage(e)));
      setBusy(false);
    }
  };
  return (
    <Modal title="Rename Summary" onClose={onClose}>
      <form
        className="modal-body"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="field">
          <label htmlFor="summary-name">Name</label>
          <input id="summary-name" value={value} autoFocus maxLength={200} onChange={(e) => (setValue(e.target.value), setError(undefined))} />
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={!enabled || busy}>
            Rename
          </button>
        </div>
      </form>
    </Modal>
  );
}
