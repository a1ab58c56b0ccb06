// The summary the screen shows and the account's summary list (for the add menu): read from
// GET /cmd/getsummaries, again whenever the hub says the list (SummaryListChanged,
// SessionsChanged) or this summary (SummaryChanged) changed.
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import type { Summary } from '../../../server/contract/summaries';
import { errorMessage } from '../api/errors';
import { summaryListVersionAtom, summaryVersionAtom } from '../hub/hubEvents';
import { getSummaries } from './api';

export type SummaryState = { status: 'loading' } | { status: 'notFound' } | { status: 'failed'; message: string } | { status: 'ready'; summary: Summary };

export function useSummary(summaryId: string | undefined) {
  const listVersion = useAtomValue(summaryListVersionAtom);
  const summaryVersion = useAtomValue(summaryVersionAtom);
  const [list, setList] = useState<Summary[]>([]);
  const [state, setState] = useState<SummaryState>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    getSummaries().then(
      (all) => {
        if (!live) return;
        setList(all ?? []);
        const found = (all ?? []).find((s) => s.UniqueID === summaryId);
        setState(found ? { status: 'ready', summary: found } : { status: 'notFound' });
      },
      (e) => live && setState((prev) => (prev.status === 'ready' ? prev : { status: 'failed', message: errorMessage(e) })),
    );
    return () => {
      live = false;
    };
  }, [summaryId, listVersion, summaryVersion, tick]);
  return { state, summary: state.status === 'ready' ? state.summary : null, list, reload: () => setTick((t) => t + 1) };
}
