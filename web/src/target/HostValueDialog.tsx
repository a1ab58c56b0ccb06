// Host value editor (spec 2 "Trace grid"): "Edit Name" or "Edit Notes" of a hop, with Cancel
// and Save, sent through the hub's UpdateHostValue.
import { useState } from 'react';
import { Modal } from '../components/Modal';
import { invoke } from '../hub/connection';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { CancelSaveActions } from '../components/CancelSaveActions';

export function HostValueDialog({ rowId, field, initial, onClose }: { rowId: string; field: 'Name' | 'Notes'; initial: string; onClose: () => void }) {
  const [value, setValue] = useState(initial);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await invoke('UpdateHostValue', rowId, field, value);
      showInfo('Changes saved');
      onClose();
    } catch (e) {
      reportError(e);
      setBusy(false);
    }
  };
  return (
    <Modal title={field === 'Name' ? 'Edit Name' : 'Edit Notes'} onClose={onClose}>
      <div className="modal-body">
        <div className="field">
          <label htmlFor="host-value">{field}</label>
          {field === 'Name' ? (
            <input id="host-value" value={value} autoFocus maxLength={1000} onChange={(e) => setValue(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void save()} />
          ) : (
            <textarea id="host-value" value={value} autoFocus maxLength={1000} onChange={(e) => setValue(e.target.value)} />
          )}
        </div>
        <CancelSaveActions busy={busy} onCancel={onClose} onSave={() => void save()} />
      </div>
    </Modal>
  );
}
