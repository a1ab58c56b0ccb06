// Packet loss on the timeline graphs as the share lost per bucket (issue 41 item 2; spec 2:
// "Loss percent = lost count / latency count x 100"). A latency bucket is about one plot
// pixel, so on a 10-minute graph of a 2.5 s trace it holds one sample or none: its loss is
// 0% or 100%, and 20% loss read as a row of full-height outages. Loss is therefore drawn on
// buckets of its own that hold several rounds (LossBucketRounds), on a fixed time grid so a
// bar does not move as samples arrive. Decisions: docs/target-window-logic.md "Graphs that show a LAN".
import type { DataPoint } from '../../../../server/contract/data';
import { gapThresholdMs } from './timelineGaps';

/** Rounds a loss bucket holds at the trace interval: one lost probe reads as 10%, not 100%. */
export const LossBucketRounds = 10;

export interface LossBucket {
  /** Start of the first latency bucket with samples in it. */
  startMs: number;
  /** End of the last latency bucket with samples in it (the bar covers only time with samples). */
  endMs: number;
  sent: number;
  lost: number;
  /** lost / sent x 100. */
  percent: number;
}

type LossPoint = Pick<DataPoint, 'Period' | 'LatencyCount' | 'LostPacketCount'>;

/**
 * The loss bucket length: a whole number of latency buckets (so the grids agree) covering at
 * least LossBucketRounds trace intervals.
 */
export function lossBucketPeriodMs(periodMs: number, intervalMs: number): number {
  const period = Math.max(1, periodMs);
  return period * Math.max(1, Math.ceil((LossBucketRounds * Math.max(0, intervalMs)) / period));
}

/**
 * The loss buckets of latency buckets `points` (time order). A bucket with fewer than half of
 * the rounds it could hold (the open bucket at the live edge, the first one of a trace, the
 * ends of a paused stretch) joins the adjacent bucket before or after it when there is one, so
 * two rounds at the live edge with one lost are not drawn as a 50% spike.
 */
export function lossBuckets(points: readonly LossPoint[], periodMs: number, intervalMs: number): LossBucket[] {
  const lossPeriod = lossBucketPeriodMs(periodMs, intervalMs);
  const grid: (LossBucket & { slot: number })[] = [];
  for (const p of points) {
    if (!(p.LatencyCount > 0)) continue;
    const start = Date.parse(p.Period);
    const slot = Math.floor(start / lossPeriod);
    let b = grid[grid.length - 1];
    if (!b || b.slot !== slot) grid.push((b = { slot, startMs: start, endMs: start + periodMs, sent: 0, lost: 0, percent: 0 }));
    b.endMs = start + periodMs;
    b.sent += p.LatencyCount;
    b.lost += Math.max(0, p.LostPacketCount);
  }
  const full = Math.max(1, lossPeriod / Math.max(1, intervalMs));
  // Adjacent: no gap between them (logic/timelineGaps), so a bar never bridges one.
  const near = Math.max(gapThresholdMs(intervalMs, periodMs) - periodMs, 0);
  const adjacent = (a: LossBucket, b: LossBucket) => b.startMs - a.endMs <= near;
  const merged: LossBucket[] = [];
  for (let i = 0; i < grid.length; i++) {
    const b = grid[i];
    const prev = merged[merged.length - 1];
    const next = grid[i + 1];
    const partial = b.sent < full / 2;
    if (partial && prev && adjacent(prev, b)) {
      prev.endMs = b.endMs;
      prev.sent += b.sent;
      prev.lost += b.lost;
    } else if (partial && next && adjacent(b, next)) {
      next.startMs = b.startMs;
      next.sent += b.sent;
      next.lost += b.lost;
    } else {
      merged.push({ startMs: b.startMs, endMs: b.endMs, sent: b.sent, lost: b.lost, percent: 0 });
    }
  }
  for (const b of merged) b.percent = b.sent > 0 ? (b.lost / b.sent) * 100 : 0;
  return merged;
}

/** The loss bucket covering timeMs, if any (buckets in time order). */
export function lossBucketAt(buckets: readonly LossBucket[], timeMs: number): LossBucket | undefined {
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (timeMs < buckets[mid].startMs) hi = mid - 1;
    else if (timeMs >= buckets[mid].endMs) lo = mid + 1;
    else return buckets[mid];
  }
  return undefined;
}
