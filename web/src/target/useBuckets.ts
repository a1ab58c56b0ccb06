// Timeline data of one hop (spec 2 sections 4 and 9): DataPointBuckets loaded at twice the
// viewport span, reloaded when the viewport leaves it or its period changes, and topped up
// with a 500 ms overlap as live samples arrive; while a full load is in flight nothing else
// is asked (it serves the view). Loads are debounced 100 ms after the last
// viewport change and throttled to one per 125 ms. Live top-ups follow `newestSampleMs`: the
// time state's newest sample, or on the summary this graph's own target's (the shared state's
// newest moves with every target's samples, and 100 graphs asked for data at every batch).
import { useEffect, useRef, useState } from 'react';
import type { DataPoint, Outage } from '../../../server/contract/data';
import { dataPointBuckets } from './api';
import { DataLoadThrottleMs, ViewportUpdateDebounceMs } from './logic/constants';
import { bucketPeriodSeconds, dataRangeToLoad, liveFetchRange, needsDataReload } from './logic/graphDataRange';
import type { GraphTimeState, TimeRange } from './logic/graphTimeState';

export interface BucketSeries {
  periodMs: number;
  /** Bucket start -> point, in time order when read through `points`. */
  points: DataPoint[];
  loaded: TimeRange | null;
  /** The outages of the trace's agent and of the server over the loaded range (the gaps' reasons). */
  outages: Outage[];
  /** Bumps on every change, for effects. */
  version: number;
}

export function useBuckets(
  rowId: string,
  state: GraphTimeState,
  plotWidthPx: number,
  reloadToken: number,
  newestSampleMs: number | null = state.newestSampleMs,
): BucketSeries {
  const [series, setSeries] = useState<BucketSeries>({ periodMs: 1000, points: [], loaded: null, outages: [], version: 0 });
  const outages = useRef(new Map<string, Outage>());
  const byTime = useRef(new Map<number, DataPoint>());
  const loaded = useRef<TimeRange | null>(null);
  const fetchedEnd = useRef(0);
  const periodMs = useRef(0);
  const lastLoadAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef({ state, plotWidthPx, newestSampleMs });
  latest.current = { state, plotWidthPx, newestSampleMs };
  const abort = useRef<AbortController>();
  /** The full load in flight: what it will have loaded, at which bucket period. */
  const pendingFull = useRef<{ loaded: TimeRange; periodMs: number } | null>(null);

  // A new target/hop or an explicit reload starts from nothing.
  useEffect(() => {
    byTime.current = new Map();
    loaded.current = null;
    fetchedEnd.current = 0;
    outages.current = new Map();
    abort.current?.abort();
    pendingFull.current = null;
    setSeries({ periodMs: 1000, points: [], loaded: null, outages: [], version: 0 });
  }, [rowId, reloadToken]);

  useEffect(() => {
    const run = async () => {
      timer.current = undefined;
      lastLoadAt.current = Date.now();
      const { state: s, plotWidthPx: width, newestSampleMs: newestMs } = latest.current;
      const period = bucketPeriodSeconds(s.viewportPeriodMs, width) * 1000;
      const full = needsDataReload(loaded.current, s) || period !== periodMs.current;
      // A full load already on its way serves this view too: starting another would abort it
      // and ask again (the home page asked for each graph's data two to four times while its
      // first answer was in flight, as the live viewport and newest sample moved; issue 41
      // item 12). A live top-up waits for it as well: the next sample brings one.
      const inFlight = pendingFull.current;
      if (inFlight && (!full || (inFlight.periodMs === period && !needsDataReload(inFlight.loaded, s)))) return;
      let range: TimeRange;
      if (full) {
        const r = dataRangeToLoad(s);
        // Buckets on a grid of their own period, so live top-ups land on the same buckets.
        range = { startMs: Math.floor(r.startMs / period) * period, endMs: r.endMs };
      } else {
        if (newestMs === null || newestMs <= fetchedEnd.current) return;
        const r = liveFetchRange(fetchedEnd.current, newestMs + 1);
        range = { startMs: Math.floor(r.startMs / period) * period, endMs: r.endMs };
      }
      abort.current?.abort();
      const ac = new AbortController();
      abort.current = ac;
      pendingFull.current = full ? { loaded: dataRangeToLoad(s), periodMs: period } : null;
      try {
        const answer = await dataPointBuckets(rowId, range.startMs, range.endMs, period / 1000, false, ac.signal);
        if (ac.signal.aborted || !answer) return;
        if (full) {
          byTime.current = new Map();
          outages.current = new Map();
          periodMs.current = period;
          loaded.current = dataRangeToLoad(s);
        }
        for (const p of answer.Points) byTime.current.set(Date.parse(p.Period), p);
        // By start: a top-up's answer holds the open outage again, now perhaps ended.
        for (const o of answer.Outages ?? []) outages.current.set(`${o.Reason} ${o.Start}`, o);
        const newest = answer.MostRecentDatapoint ? Date.parse(answer.MostRecentDatapoint) + 1 : range.endMs;
        fetchedEnd.current = Math.max(range.startMs, Math.min(range.endMs, newest));
        const points = [...byTime.current.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
        const known = [...outages.current.values()].sort((a, b) => Date.parse(a.Start) - Date.parse(b.Start));
        setSeries((prev) => ({ periodMs: periodMs.current, points, loaded: loaded.current, outages: known, version: prev.version + 1 }));
      } catch (e) {
        // Spec 2 section 8: a bucket failure is logged and stops the spinner.
        if (!ac.signal.aborted) console.warn('DataPointBuckets failed', e);
      } finally {
        if (abort.current === ac) pendingFull.current = null;
      }
    };
    if (timer.current) return;
    const wait = Math.max(ViewportUpdateDebounceMs, DataLoadThrottleMs - (Date.now() - lastLoadAt.current));
    timer.current = setTimeout(() => void run(), wait);
  }, [rowId, reloadToken, state.viewportEndMs, state.viewportPeriodMs, newestSampleMs, plotWidthPx]);

  useEffect(() => () => {
    clearTimeout(timer.current);
    abort.current?.abort();
  }, []);
  return series;
}
