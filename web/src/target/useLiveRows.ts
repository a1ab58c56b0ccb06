// The grid rows of a live list (a target's hops, a summary's targets): read over the statistics
// focus, read again when the hub reports new samples (batched every 150 ms) or a change, and
// after the focus or the settings changed (debounced 100 ms); a source may ask for batches
// further apart (the summary: logic/liveBatch). One read at a time
// (logic/coalescedRuns): asks while a read is out are answered by one more read after it, over
// the focus as it is then. A batch asks at once: a debounce restarted by every batch never
// ran while samples kept coming faster than a read and a render took (All Targets with 100
// live targets read its rows once in seconds, or not at all).
// Each screen says how to read its rows and which hub events and group make them live.
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type DependencyList } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import type { GraphRowsResult } from '../../../server/contract/targets';
import { ServerError, errorMessage } from '../api/errors';
import { coalescedRuns, type CoalescedRuns } from './logic/coalescedRuns';
import { RowRefreshBatchMs, ViewportUpdateDebounceMs } from './logic/constants';
import { liveBatchDelayMs } from './logic/liveBatch';
import type { TimeRange } from './logic/graphTimeState';

export type RowsState =
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; result: GraphRowsResult };

export interface LiveRowsSource {
  /** Reads the rows of `id` over `range` (null or undefined: nothing to show). */
  read(id: string, range: TimeRange): Promise<GraphRowsResult | null | undefined>;
  /**
   * Subscribes to what makes the rows change: `sample(isoTime)` for a new sample, `changed()`
   * for anything else. Returns the unsubscribe (and group leave) function.
   */
  live(id: string, on: { sample: (isoTime: string) => void; changed: () => void }): () => void;
  /** Least time between two batches (logic/liveBatch); none by default. */
  minBatchGapMs?: number;
}

export function useLiveRows(
  id: string | undefined,
  range: TimeRange,
  onNewSamples: (newestMs: number) => void,
  source: LiveRowsSource,
  /** More reasons to read again (e.g. the account's sessions changed). */
  extraDeps: DependencyList = [],
): { rows: RowsState; refresh: () => void } {
  const [rows, setRows] = useState<RowsState>({ status: 'loading' });
  const [tick, setTick] = useState(0);
  const latestRange = useRef(range);
  latestRange.current = range;
  const onNew = useRef(onNewSamples);
  onNew.current = onNewSamples;
  const src = useRef(source);
  src.current = source;
  const reads = useRef<{ id: string; runs: CoalescedRuns; asked: boolean }>();

  // SettingsChanged: Warn, Bad and Scale of the rows' configuration may have changed.
  const settingsVersion = useAtomValue(settingsVersionAtom);

  useEffect(() => setRows({ status: 'loading' }), [id]);

  // The reader of this id and what makes it read again live.
  useEffect(() => {
    if (!id) return;
    let stopped = false;
    const runs = coalescedRuns(async () => {
      try {
        const result = await src.current.read(id, latestRange.current);
        if (!stopped && result) setRows({ status: 'ready', result });
      } catch (e) {
        if (stopped) return;
        if (e instanceof ServerError && (e.status === 404 || e.status === 400)) setRows({ status: 'notFound' });
        else setRows((prev) => (prev.status === 'ready' ? prev : { status: 'failed', message: errorMessage(e) }));
      }
    });
    reads.current = { id, runs, asked: false };
    let newest = 0;
    let lastBatch = -Infinity;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A batch moves the live focus (onNewSamples) and bumps the tick: the read is asked for
    // after that render, so it covers the focus the batch moved to.
    const flush = () => {
      timer = undefined;
      lastBatch = performance.now();
      if (newest) onNew.current(newest);
      setTick((t) => t + 1);
    };
    const schedule = () =>
      (timer ??= setTimeout(flush, liveBatchDelayMs(performance.now(), lastBatch, RowRefreshBatchMs, src.current.minBatchGapMs ?? 0)));
    const off = src.current.live(id, {
      sample: (time) => {
        const t = Date.parse(time);
        if (Number.isFinite(t) && t > newest) newest = t;
        schedule();
      },
      changed: schedule,
    });
    return () => {
      stopped = true;
      runs.stop();
      clearTimeout(timer);
      off();
    };
  }, [id]);

  // The first read and every batch or refresh ask at once; a focus or settings change alone
  // waits for 100 ms without another.
  const askedTick = useRef(tick);
  useEffect(() => {
    const r = reads.current;
    if (!id || r?.id !== id) return;
    if (!r.asked || tick !== askedTick.current) {
      r.asked = true;
      askedTick.current = tick;
      r.runs.request();
      return;
    }
    const timer = setTimeout(() => r.runs.request(), ViewportUpdateDebounceMs);
    return () => clearTimeout(timer);
  }, [id, range.startMs, range.endMs, tick, settingsVersion, ...extraDeps]);

  return { rows, refresh: () => setTick((t) => t + 1) };
}
