// The grid rows of a live list (a target's hops, a summary's targets): read over the statistics
// focus (debounced 100 ms), read again when the hub reports new samples (batched every 150 ms)
// or a change, and only the newest request's answer is shown (answers may overtake each other).
// Each screen says how to read its rows and which hub events and group make them live.
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type DependencyList } from 'react';
import { settingsVersionAtom } from '../hub/hubEvents';
import type { GraphRowsResult } from '../../../server/contract/targets';
import { ServerError, errorMessage } from '../api/errors';
import { RowRefreshBatchMs, ViewportUpdateDebounceMs } from './logic/constants';
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
  const seq = useRef(0);
  const latestRange = useRef(range);
  latestRange.current = range;
  const onNew = useRef(onNewSamples);
  onNew.current = onNewSamples;
  const src = useRef(source);
  src.current = source;

  // SettingsChanged: Warn, Bad and Scale of the rows' configuration may have changed.
  const settingsVersion = useAtomValue(settingsVersionAtom);

  useEffect(() => setRows({ status: 'loading' }), [id]);

  useEffect(() => {
    if (!id) return;
    let newest = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (newest) onNew.current(newest);
      setTick((t) => t + 1);
    };
    const schedule = () => (timer ??= setTimeout(flush, RowRefreshBatchMs));
    const off = src.current.live(id, {
      sample: (time) => {
        const t = Date.parse(time);
        if (Number.isFinite(t) && t > newest) newest = t;
        schedule();
      },
      changed: schedule,
    });
    return () => {
      clearTimeout(timer);
      off();
    };
  }, [id]);

  useEffect(() => {
    if (!id) return;
    const timer = setTimeout(async () => {
      const mine = ++seq.current;
      try {
        const result = await src.current.read(id, latestRange.current);
        if (mine === seq.current && result) setRows({ status: 'ready', result });
      } catch (e) {
        if (mine !== seq.current) return;
        if (e instanceof ServerError && (e.status === 404 || e.status === 400)) setRows({ status: 'notFound' });
        else setRows((prev) => (prev.status === 'ready' ? prev : { status: 'failed', message: errorMessage(e) }));
      }
    }, ViewportUpdateDebounceMs);
    return () => clearTimeout(timer);
  }, [id, range.startMs, range.endMs, tick, settingsVersion, ...extraDeps]);

  return { rows, refresh: () => setTick((t) => t + 1) };
}
