// A question before a page action that cannot be taken back (deleting an alert or an action),
// asked in the console's own dialog (components/ConfirmDialog), not the browser's confirm().
import { useCallback, useState } from 'react';
import type { Confirmation } from '../components/ConfirmDialog';

export function useConfirmation() {
  const [asking, setAsking] = useState<{ confirmation: Confirmation; go: () => void } | null>(null);
  const ask = useCallback((confirmation: Confirmation, go: () => void) => setAsking({ confirmation, go }), []);
  const confirm = useCallback(() => {
    setAsking((a) => {
      a?.go();
      return null;
    });
  }, []);
  const cancel = useCallback(() => setAsking(null), []);
  return { asking: asking?.confirmation ?? null, ask, confirm, cancel };
}
