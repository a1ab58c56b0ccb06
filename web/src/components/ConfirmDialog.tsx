// A confirmation before an action that cannot be taken back (ending a session): the title
// names the action, the message says what ends and what stays. Cancel has the focus, so an
// Enter pressed out of habit does not end a session; Escape or the close control cancel.
import { useEffect, useRef } from 'react';
import { Modal } from './Modal';

export interface Confirmation {
  title: string;
  message: string;
  confirmLabel: string;
}

export function ConfirmDialog({ confirmation, onConfirm, onCancel }: { confirmation: Confirmation; onConfirm: () => void; onCancel: () => void }) {
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <Modal title={confirmation.title} onClose={onCancel}>
      <div className="modal-body">
        <p className="confirm-message">{confirmation.message}</p>
        <div className="modal-actions">
          <button ref={cancel} type="button" className="button secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button danger" onClick={onConfirm}>
            {confirmation.confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
