// Asked when the entry names a target the list already traces (issue 18: Enter silently
// started a duplicate trace): open the running one, start a second trace anyway, or cancel.
// It opens on the Enter that would have started the trace, so no button takes the focus:
// that same key press would choose it.
import type { TargetRow } from '../../../server/contract/targets';
import { Modal } from '../components/Modal';
import { hostLabel } from './hostLabel';

export function TracedTargetDialog({ row, onOpen, onStartAnother, onCancel }: { row: TargetRow; onOpen: () => void; onStartAnother: () => void; onCancel: () => void }) {
  const paused = !row.IsRunning;
  return (
    <Modal title="Already traced" onClose={onCancel} width={500}>
      <div className="modal-body">
        <p className="confirm-message">
          {hostLabel(row)} is already {paused ? 'open (paused)' : 'being traced'}. Open that trace, or start a second trace of the same target?
        </p>
        <div className="modal-actions">
          <button type="button" className="button secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button secondary" onClick={onStartAnother}>
            Start another trace
          </button>
          <button type="button" className="button primary" onClick={onOpen}>
            Open the {paused ? 'paused' : 'running'} trace
          </button>
        </div>
      </div>
    </Modal>
  );
}
