// The timeline graph's hover readout (issue 41 item 2): it snaps to the nearest bucket with
// samples and says that bucket's time and values. Reading only the bucket under the pointer
// said "no data" at most positions of a young or short-interval trace (latency buckets are
// about a pixel wide, so a 2.5 s trace leaves most of them empty). The snap reaches no further
// than a gap's threshold (logic/timelineGaps), so the readout never names a sample minutes
// away; in a gap it names the gap and the time under the pointer (issue 40 item 2).
import { latencyDisplayText } from '../../../../server/contract/latency';
import { clock } from './timeRangeText';

export interface ReadoutBucket {
  /** The bucket's start (the time the readout names). */
  startMs: number;
  avgMs: number | null;
  /** The share lost in the loss bucket covering this one (what the bars draw), null if none. */
  lossPercent: number | null;
}

/**
 * Index of the nearest x value to cursorMs (xs in time order) for which hasSamples(i) holds,
 * within maxDistanceMs; -1 when there is none that close.
 */
export function nearestSampleIndex(xs: ArrayLike<number>, hasSamples: (i: number) => boolean, cursorMs: number, maxDistanceMs: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < cursorMs) lo = mid + 1;
    else hi = mid;
  }
  // lo: the first x at or after the cursor. Walk out both ways to the first with samples.
  let after = lo;
  while (after < xs.length && !hasSamples(after)) after++;
  let before = lo - 1;
  while (before >= 0 && !hasSamples(before)) before--;
  const dAfter = after < xs.length ? xs[after] - cursorMs : Infinity;
  const dBefore = before >= 0 ? cursorMs - xs[before] : Infinity;
  const best = dBefore <= dAfter ? before : after;
  return Math.min(dBefore, dAfter) <= maxDistanceMs ? best : -1;
}

/** The timeline's columns as uPlot holds them: bucket centres, min, max, average, loss % (null: none). */
type Columns = readonly [ArrayLike<number>, ...ArrayLike<number | null | undefined>[]];

/**
 * The bucket the readout names at cursorMs: the nearest with samples within maxDistanceMs (a
 * bucket whose rounds were all lost has samples: its loss, not an average), with its start,
 * its average and the share lost of the loss bucket it lies in (`lossShareAt`, what the bars
 * draw); null when none is that close.
 */
export function readoutBucketAt(columns: Columns, periodMs: number, cursorMs: number, maxDistanceMs: number, lossShareAt: (startMs: number) => number | null): ReadoutBucket | null {
  const value = (k: number, i: number) => columns[k]?.[i] ?? null;
  const i = nearestSampleIndex(columns[0], (k) => value(3, k) !== null || value(4, k) !== null, cursorMs, maxDistanceMs);
  if (i < 0) return null;
  const startMs = columns[0][i] - periodMs / 2;
  return { startMs, avgMs: value(3, i), lossPercent: lossShareAt(startMs) };
}

/** "12%" for a loss share; "<1%" for a share that rounds to 0 but is not 0. */
export function lossShareText(percent: number): string {
  if (!(percent > 0)) return '0%';
  return percent < 0.5 ? '<1%' : `${Math.round(percent)}%`;
}

/**
 * "HH:mm:ss  avg 0.03 ms  loss 20%" for the bucket snapped to (its time); "HH:mm:ss  no data"
 * at the cursor time where no bucket is near; in a gap, its reason at the cursor time
 * ("HH:mm:ss  Agent offline, no data"). Latency has the grid's digits (two decimals below
 * 1 ms: "0.03", not "0.0").
 */
export function hoverReadoutText(cursorMs: number, bucket: ReadoutBucket | null, gapText?: string): string {
  if (gapText) return `${clock(new Date(cursorMs))}  ${gapText}, no data`;
  if (!bucket || (bucket.avgMs === null && bucket.lossPercent === null)) return `${clock(new Date(cursorMs))}  no data`;
  const avg = bucket.avgMs === null ? '–' : `${latencyDisplayText(bucket.avgMs)} ms`;
  return `${clock(new Date(bucket.startMs))}  avg ${avg}  loss ${lossShareText(bucket.lossPercent ?? 0)}`;
}
