// The footer of the edit dialogs: Cancel closes, Save runs the save (disabled while busy).
export function CancelSaveActions({ busy, onCancel, onSave }: { busy: boolean; onCancel: () => void; onSave: () => void }) {
  return (
    <div className="modal-actions">
      <button type="button" className="button secondary" onClick={onCancel}>
        Cancel
      </button>
      <button type="button" className="button primary" disabled={busy} onClick={onSave}>
        Save
      </button>
    </div>
  );
}
