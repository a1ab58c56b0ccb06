// Which samples the timeline graphs ask the server for (spec 2 sections 4 and 9): views are
// loaded at twice the viewport span, so a drag either way has data ready; live data is
// fetched with a 500 ms overlap so no sample falls between two fetches.
import { DataRangeViewportMultiple, LiveDataOverlapMarginMs } from './constants';
import { type GraphTimeState, type TimeRange, viewportRange } from './graphTimeState';

/**
 * The data range to load: twice the viewport span, centred on the viewport (half a
 * viewport before and after it).
 */
export function dataRangeToLoad(state: GraphTimeState): TimeRange {
  const { startMs, endMs } = viewportRange(state);
  const margin = ((DataRangeViewportMultiple - 1) * state.viewportPeriodMs) / 2;
  return { startMs: startMs - margin, endMs: endMs + margin };
}

/**
 * Whether the loaded data no longer serves the view: nothing loaded yet, the viewport
 * period changed (zoom or preset: the bucket size changes with it), or the viewport left
 * the loaded range.
 */
export function needsDataReload(loaded: TimeRange | null, state: GraphTimeState): boolean {
  if (loaded === null) return true;
  if (loaded.endMs - loaded.startMs !== DataRangeViewportMultiple * state.viewportPeriodMs) return true;
  const view = viewportRange(state);
  return view.startMs < loaded.startMs || view.endMs > loaded.endMs;
}

/** The range to fetch for live updates: from the last fetched end minus 500 ms to the newest sample. */
export function liveFetchRange(lastFetchedEndMs: number, newestSampleMs: number): TimeRange {
  return { startMs: lastFetchedEndMs - LiveDataOverlapMarginMs, endMs: newestSampleMs };
}

/**
 * Bucket size for DataPointBuckets (decision, the spec is silent): about one bucket per
 * plot pixel across the viewport, whole seconds, at least 1 s.
 */
export function bucketPeriodSeconds(viewportPeriodMs: number, plotWidthPx: number): number {
  if (plotWidthPx <= 0) return 1;
  return Math.max(1, Math.ceil(viewportPeriodMs / 1000 / plotWidthPx));
}
