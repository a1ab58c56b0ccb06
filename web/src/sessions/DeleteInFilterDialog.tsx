// "Delete sessions in filter": the Delete Sessions modal of spec 2. The sessions are the ones
// the page's filters show; open ones (running or paused) among them are left alone, so a
// filter that happens to include a running trace never deletes it. A failure shows
// "Error: {message}" inline; success closes the modal (the page reloads and toasts).
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/errors';
import { Modal } from '../components/Modal';
import { deleteCountText, inlineErrorText } from './logic/sessionRows';

export function DeleteInFilterDialog({ count, openKept, onDelete, onClose }: { count: number; openKept: number; onDelete: () => Promise<void>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await onDelete();
    } catch (e) {
      setError(inlineErrorText(errorMessage(e)));
      setBusy(false);
    }
  };
  return (
    <Modal title="Delete Sessions" onClose={onClose} width={460}>
      <div className="modal-body">
        <p className="confirm-message">
          Select the sessions to delete using the filters on the previous page. Every session the filters show is deleted with its samples,
          hosts, comments and route changes; this cannot be undone.
        </p>
        {openKept > 0 && (
          <p className="confirm-message" data-testid="open-kept">
            {openKept === 1 ? '1 open session' : `${openKept} open sessions`} (running or paused) in the filter {openKept === 1 ? 'is' : 'are'} kept: close a target before deleting it.
          </p>
        )}
        {error && (
          <p className="form-failure" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button ref={cancel} type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button danger" disabled={busy || count === 0} onClick={() => void run()}>
            {deleteCountText(count)}
          </button>
        </div>
      </div>
    </Modal>
  );
}
