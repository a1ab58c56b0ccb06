// The target entry as a LiveShare visitor has it: the same box, but a link shows only what
// it shares, so starting a trace answers the spec's text ("Can't add new targets to a
// LiveShare link.") instead of calling the server; no trace history is read.
import { useState } from 'react';
import { CantAddTargets } from '../../../server/contract/liveshare';
import { showToast } from '../state/toasts';
import { EntryPlaceholder } from '../target/TargetEntry';

export function VisitorTargetEntry() {
  const [text, setText] = useState('');
  const refuse = () => showToast('error', CantAddTargets, false);
  return (
    <div className="target-entry" title={CantAddTargets}>
      <input
        aria-label="Target"
        placeholder={EntryPlaceholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') refuse();
        }}
      />
    </div>
  );
}
