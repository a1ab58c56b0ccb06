// Loads the ticket list for the root user (the call refuses anyone else).
import { useCallback, useEffect, useState } from 'react';
import type { SupportTicketItem } from '../../../server/contract/support';
import { reportError } from '../state/reportError';
import { listSupportTickets } from './api';

export function useSupportTickets(enabled: boolean) {
  const [rows, setRows] = useState<SupportTicketItem[]>();
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    listSupportTickets()
      .then((list) => live && setRows(list))
      .catch((e: unknown) => reportError(e, { prefix: 'Could not load the support tickets: ' }));
    return () => {
      live = false;
    };
  }, [enabled, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { rows, reload };
}
