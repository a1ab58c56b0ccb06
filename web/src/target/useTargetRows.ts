// The grid rows of one target: TraceGraphRows over the statistics focus, read again as the
// hub reports new samples (HostUpdated, batched every 150 ms), route changes (RouteChanged)
// and focus changes (debounced 100 ms).
import { useEffect, useRef, useState } from 'react';
import type { GraphRowsResult } from '../../../server/contract/targets';
import { ServerError, errorMessage } from '../api/errors';
import { keepRegistered, subscribe } from '../hub/connection';
import { traceGraphRows } from './api';
import { RowRefreshBatchMs, ViewportUpdateDebounceMs } from './logic/constants';
import type { TimeRange } from './logic/graphTimeState';
import { sessionIdOf } from './logic/rowId';

export type RowsState =
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; result: GraphRowsResult };

export function useTargetRows(targetId: string | undefined, range: TimeRange, onNewSamples: (newestMs: number) => void): { rows: RowsState; refresh: () => void } {
  const [rows, setRows] = useState<RowsState>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const latestRange = useRef(range);
  latestRange.current = range;
  const onNew = useRef(onNewSamples);
  onNew.current = onNewSamples;

  useEffect(() => setRows({ status: 'loading' }), [targetId]);

  // Live: new samples and route changes of this target.
  useEffect(() => {
    if (!targetId) return;
    let newest = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (newest) onNew.current(newest);
      setTick((t) => t + 1);
    };
    const schedule = () => (timer ??= setTimeout(flush, RowRefreshBatchMs));
    const offHost = subscribe('HostUpdated', (rowId, time) => {
      if (sessionIdOf(String(rowId)) !== targetId) return;
      const t = Date.parse(time);
      if (Number.isFinite(t) && t > newest) newest = t;
      schedule();
    });
    const offRoute = subscribe('RouteChanged', (rowId) => sessionIdOf(String(rowId)) === targetId && schedule());
    const leave = keepRegistered('RegisterForNewSamples', 'UnregisterForNewSamples', targetId);
    return () => {
      clearTimeout(timer);
      offHost();
      offRoute();
      leave();
    };
  }, [targetId]);

  useEffect(() => {
    if (!targetId) return;
    const timer = setTimeout(async () => {
      // Answers may overtake each other: only the newest request's answer is shown.
      const mine = ++seq.current;
      try {
        const result = await traceGraphRows(targetId, latestRange.current);
        if (mine === seq.current && result) setRows({ status: 'ready', result });
      } catch (e) {
        if (mine !== seq.current) return;
        if (e instanceof ServerError && (e.status === 404 || e.status === 400)) setRows({ status: 'notFound' });
        else setRows((prev) => (prev.status === 'ready' ? prev : { status: 'failed', message: errorMessage(e) }));
      }
    }, ViewportUpdateDebounceMs);
    return () => clearTimeout(timer);
  }, [targetId, range.startMs, range.endMs, tick]);

  return { rows, refresh: () => setTick((t) => t + 1) };
}
