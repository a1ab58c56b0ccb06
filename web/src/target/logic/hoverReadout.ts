// The timeline graph's hover readout: the time under the cursor, and the values of the bucket
// that covers that time. The readout used to name the nearest sample's time, which can be
// minutes away from the pointer where data is sparse (a young trace, a paused stretch), so a
// user reading the axis and the readout saw two different times for the same spot.
import { clock } from './timeRangeText';

export interface ReadoutBucket {
  avgMs: number | null;
  lossPercent: number | null;
}

/**
 * Index of the bucket whose span [centre - period/2, centre + period/2) holds cursorMs, or -1.
 * `centres` are in time order (uPlot's x values are bucket centres).
 */
export function bucketIndexAt(centres: ArrayLike<number>, periodMs: number, cursorMs: number): number {
  let lo = 0;
  let hi = centres.length - 1;
  const half = periodMs / 2;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = centres[mid] - half;
    if (cursorMs < start) hi = mid - 1;
    else if (cursorMs >= start + periodMs) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * "HH:mm:ss  avg 12.3 ms  loss 0%" at the cursor; "no data" where no bucket covers it or the
 * bucket measured nothing (a gap's null row, a marker round); in a gap, its reason
 * ("HH:mm:ss  Agent offline, no data": issue 40 item 2).
 */
export function hoverReadoutText(cursorMs: number, bucket: ReadoutBucket | null, gapText?: string): string {
  const time = clock(new Date(cursorMs));
  if (gapText) return `${time}  ${gapText}, no data`;
  if (!bucket || (bucket.avgMs === null && bucket.lossPercent === null)) return `${time}  no data`;
  const avg = bucket.avgMs === null ? '–' : `${bucket.avgMs.toFixed(1)} ms`;
  const loss = bucket.lossPercent ? `${bucket.lossPercent.toFixed(0)}%` : '0%';
  return `${time}  avg ${avg}  loss ${loss}`;
}
