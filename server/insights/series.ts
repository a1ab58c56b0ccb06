// What every Insights test reads: one target's per-hop series over the tested range, on a
// grid of equal buckets (built from the store by load.ts, or by a scenario directly). Pure
// data, so the tests are pure functions of it.
import type { StatsKernels } from '../../wasm/stats.js';

export interface HopSeries {
  hop: number;
  /** Row id: "{targetId}_h_{hop}". */
  uniqueId: string;
  /** Display name: DNS name or address, or "*" for a hop that never answered. */
  name: string;
  address: string | null;
  /** Per bucket: average latency in ms (NaN when no answer). */
  latency: Float64Array;
  /** Per bucket: mean |difference| of consecutive latencies (NaN below two answers). */
  jitter: Float64Array;
  sent: Int32Array;
  lost: Int32Array;
}

export interface InsightSeries {
  targetId: string;
  targetName: string;
  /** Grid: bucket b covers [start + b * bucketMs, start + (b + 1) * bucketMs). */
  start: number;
  end: number;
  bucketMs: number;
  bucketCount: number;
  /** Hops 1..n in order (index hop - 1); only up to the target's hop when it answered. */
  hops: HopSeries[];
  /** The hop where the target's own address answered; null when it never did. */
  targetHop: number | null;
  traceIntervalMs: number;
  /** Raw latencies of one hop over the range (measurements only), for the detail charts. */
  rawLatencies?: (hop: number) => { time: Float64Array; latency: Float64Array };
}

/** Whole-range figures of one hop. */
export interface HopFigures {
  hop: number;
  sent: number;
  lost: number;
  /** lost / sent x 100; NaN when nothing was sent. */
  lossPercent: number;
  answered: boolean;
  /** Median and low quartile of the bucket averages (ms). */
  medianLatency: number;
  floorLatency: number;
  meanLatency: number;
  /** Mean jitter over buckets weighted by their answers. */
  jitter: number;
}

export interface TestContext {
  series: InsightSeries;
  stats: StatsKernels;
  figures: HopFigures[];
  includeDetails: boolean;
}

export function hopFigures(h: HopSeries, stats: StatsKernels): HopFigures {
  let sent = 0;
  let lost = 0;
  let jitterSum = 0;
  let jitterWeight = 0;
  for (let b = 0; b < h.sent.length; b++) {
    sent += h.sent[b];
    lost += h.lost[b];
    const good = h.sent[b] - h.lost[b];
    if (good > 1 && Number.isFinite(h.jitter[b])) {
      jitterSum += h.jitter[b] * (good - 1);
      jitterWeight += good - 1;
    }
  }
  const d = stats.describe(h.latency);
  return {
    hop: h.hop,
    sent,
    lost,
    lossPercent: sent > 0 ? (lost / sent) * 100 : NaN,
    answered: sent > lost,
    medianLatency: d.median,
    floorLatency: d.q1,
    meanLatency: d.mean,
    jitter: jitterWeight > 0 ? jitterSum / jitterWeight : NaN,
  };
}

/** Per-bucket loss percent of a hop (NaN where nothing was sent). */
export function lossSeries(h: HopSeries): Float64Array {
  const out = new Float64Array(h.sent.length);
  for (let b = 0; b < out.length; b++) out[b] = h.sent[b] > 0 ? (h.lost[b] / h.sent[b]) * 100 : NaN;
  return out;
}

export function bucketTime(s: InsightSeries, b: number): number {
  return s.start + b * s.bucketMs;
}
