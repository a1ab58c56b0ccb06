// The summary grid's rows: TraceGraphRows (listType Summary, one row per target with its
// final hop's figures) over the statistics focus, read again as the hub reports new samples of
// a member (SummaryHostUpdated, batched every 150 ms), a change of the summary (SummaryChanged)
// or of the account's targets (SessionsChanged: a trace started or closed), and focus changes
// (debounced 100 ms). Joins the summary's hub group (RegisterForChangesToSummary) while shown.
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { ServerError, errorMessage } from '../api/errors';
import { keepRegistered, subscribe } from '../hub/connection';
import { sessionsVersionAtom } from '../hub/hubEvents';
import { RowRefreshBatchMs, ViewportUpdateDebounceMs } from '../target/logic/constants';
import type { TimeRange } from '../target/logic/graphTimeState';
import type { RowsState } from '../target/useTargetRows';
import { summaryRows } from './api';

export function useSummaryRows(summaryId: string | undefined, range: TimeRange, onNewSamples: (newestMs: number) => void): { rows: RowsState; refresh: () => void } {
  const [rows, setRows] = useState<RowsState>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const sessionsVersion = useAtomValue(sessionsVersionAtom);
  const seq = useRef(0);
  const latestRange = useRef(range);
  latestRange.current = range;
  const onNew = useRef(onNewSamples);
  onNew.current = onNewSamples;

  useEffect(() => setRows({ status: 'loading' }), [summaryId]);

  useEffect(() => {
    if (!summaryId) return;
    let newest = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (newest) onNew.current(newest);
      setTick((t) => t + 1);
    };
    const schedule = () => (timer ??= setTimeout(flush, RowRefreshBatchMs));
    const offHost = subscribe('SummaryHostUpdated', (id, _hostId, time) => {
      if (String(id) !== summaryId) return;
      const t = Date.parse(time);
      if (Number.isFinite(t) && t > newest) newest = t;
      schedule();
    });
    const offChanged = subscribe('SummaryChanged', (id) => String(id) === summaryId && schedule());
    const leave = keepRegistered('RegisterForChangesToSummary', 'UnregisterForChangesToSummary', summaryId);
    return () => {
      clearTimeout(timer);
      offHost();
      offChanged();
      leave();
    };
  }, [summaryId]);

  useEffect(() => {
    if (!summaryId) return;
    const timer = setTimeout(async () => {
      const mine = ++seq.current;
      try {
        const result = await summaryRows(summaryId, latestRange.current);
        if (mine === seq.current && result) setRows({ status: 'ready', result });
      } catch (e) {
        if (mine !== seq.current) return;
        if (e instanceof ServerError && (e.status === 404 || e.status === 400)) setRows({ status: 'notFound' });
        else setRows((prev) => (prev.status === 'ready' ? prev : { status: 'failed', message: errorMessage(e) }));
      }
    }, ViewportUpdateDebounceMs);
    return () => clearTimeout(timer);
  }, [summaryId, range.startMs, range.endMs, tick, sessionsVersion]);

  return { rows, refresh: () => setTick((t) => t + 1) };
}
