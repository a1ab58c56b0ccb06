// "Create a new agent" (button Create Agent) and "Update agent" (button Update).
import { useState } from 'react';
import { Modal } from '../components/Modal';
import { Field } from '../components/Field';

export function AgentNameDialog({ mode, initial, onSubmit, onClose }: { mode: 'create' | 'update'; initial?: string; onSubmit: (name: string) => void; onClose: () => void }) {
  const [name, setName] = useState(initial ?? '');
  const valid = name.trim().length > 0 && name.trim().length <= 100;
  return (
    <Modal title={mode === 'create' ? 'Create a new agent' : 'Update agent'} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) onSubmit(name.trim());
        }}
      >
        <Field label="Name" value={name} autoFocus maxLength={100} onChange={(e) => setName(e.target.value)} />
        <div className="modal-actions">
          <button type="button" className="button secondary" onClick={onClose}>Cancel</button>
          <button type="submit" className="button" disabled={!valid}>{mode === 'create' ? 'Create Agent' : 'Update'}</button>
        </div>
      </form>
    </Modal>
  );
}
