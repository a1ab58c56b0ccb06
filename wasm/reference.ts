// Plain TypeScript reference of the WASM kernels: the oracle of the property tests
// (wasm/kernels.test.ts) and the peer of `npm run bench:kernels`. Written for clarity with
// column arrays, independent of the AssemblyScript code; it must give the same answers.

import { LatencyCode, SpecialLatencyBase } from '../engine/latency-codes.js';
import {
  CellFlag,
  type BucketResult,
  type BucketSpec,
  type RollupColumns,
  type RowStatsResult,
  type SampleColumns,
  type TimeRange,
} from './kernel-types.js';

interface Cells {
  count: Int32Array;
  lost: Int32Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
  first: Float64Array;
  lastValid: Float64Array;
  jitterSum: Float64Array;
  jitterPairs: Int32Array;
  last: Float64Array;
  flags: Int32Array;
}

function emptyCells(n: number): Cells {
  return {
    count: new Int32Array(n),
    lost: new Int32Array(n),
    sum: new Float64Array(n),
    min: new Float64Array(n).fill(Infinity),
    max: new Float64Array(n).fill(-Infinity),
    first: new Float64Array(n).fill(NaN),
    lastValid: new Float64Array(n).fill(NaN),
    jitterSum: new Float64Array(n),
    jitterPairs: new Int32Array(n),
    last: new Float64Array(n).fill(NaN),
    flags: new Int32Array(n),
  };
}

function bucketIndex(time: number, spec: BucketSpec): number {
  const b = Math.floor((time - spec.start) / spec.period);
  return b >= 0 && b < spec.bucketCount ? b : -1;
}

/** Adds one valid latency to cell i. */
function addValid(c: Cells, i: number, v: number): void {
  const hadValid = c.count[i] - c.lost[i] > 0;
  if (hadValid) {
    c.jitterSum[i] += Math.abs(v - c.lastValid[i]);
    c.jitterPairs[i] += 1;
  } else {
    c.first[i] = v;
  }
  c.lastValid[i] = v;
  c.last[i] = v;
  c.sum[i] += v;
  if (v < c.min[i]) c.min[i] = v;
  if (v > c.max[i]) c.max[i] = v;
  c.count[i] += 1;
}

function accumulateSamples(c: Cells, samples: SampleColumns, spec: BucketSpec): void {
  const { hopCount } = spec;
  for (let s = 0; s < samples.time.length; s++) {
    const b = bucketIndex(samples.time[s], spec);
    if (b < 0) continue;
    const hop = samples.hop[s] | 0;
    const v = samples.latency[s];
    if (hop === 0 && v === LatencyCode.StopStart) {
      for (let h = 0; h < hopCount; h++) c.flags[b * hopCount + h] |= CellFlag.IsStartTrace;
      continue;
    }
    if (hop < 1 || hop > hopCount) continue;
    const i = b * hopCount + hop - 1;
    if (v >= SpecialLatencyBase) {
      addValid(c, i, v);
    } else if (v === LatencyCode.Timeout) {
      c.count[i] += 1;
      c.lost[i] += 1;
      c.last[i] = v;
    } else if (v === LatencyCode.NotParticipating) {
      c.flags[i] |= CellFlag.HasNotParticipating;
      c.last[i] = v;
    } else if (v === LatencyCode.StopStart) {
      c.flags[i] |= CellFlag.IsStartTrace;
    }
  }
}

/** A float column value; SQL NULL (null) means no value, like NaN. */
function float(column: ArrayLike<number | null>, r: number): number {
  return column[r] ?? NaN;
}

function accumulateRollups(c: Cells, rows: RollupColumns, spec: BucketSpec): void {
  const { hopCount } = spec;
  for (let r = 0; r < rows.time.length; r++) {
    const b = bucketIndex(rows.time[r], spec);
    const hop = rows.hop[r] | 0;
    if (b < 0 || hop < 1 || hop > hopCount) continue;
    const i = b * hopCount + hop - 1;
    const rowCount = rows.count[r] | 0;
    const rowLost = rows.lost[r] | 0;
    if (rowCount - rowLost > 0) {
      const first = float(rows.first, r);
      if (c.count[i] - c.lost[i] > 0) {
        c.jitterSum[i] += Math.abs(first - c.lastValid[i]);
        c.jitterPairs[i] += 1;
      } else {
        c.first[i] = first;
      }
      c.lastValid[i] = float(rows.lastValid, r);
      c.sum[i] += float(rows.sum, r);
      if (float(rows.min, r) < c.min[i]) c.min[i] = float(rows.min, r);
      if (float(rows.max, r) > c.max[i]) c.max[i] = float(rows.max, r);
    }
    c.jitterSum[i] += float(rows.jitterSum, r);
    c.jitterPairs[i] += rows.jitterPairs[r] | 0;
    c.count[i] += rowCount;
    c.lost[i] += rowLost;
    c.flags[i] |= rows.flags[r] | 0;
    const last = float(rows.last, r);
    if (!Number.isNaN(last)) c.last[i] = last;
  }
}

function finish(c: Cells, spec: BucketSpec): BucketResult {
  const n = spec.bucketCount * spec.hopCount;
  const average = new Float64Array(n);
  const jitter = new Float64Array(n);
  const routeBitMask = new Uint32Array(spec.bucketCount);
  const routeLength = new Int32Array(spec.bucketCount);
  for (let i = 0; i < n; i++) {
    const valid = c.count[i] - c.lost[i];
    if (valid > 0) {
      average[i] = c.sum[i] / valid;
      const b = Math.floor(i / spec.hopCount);
      const hop = (i % spec.hopCount) + 1;
      if (hop <= 32) routeBitMask[b] = (routeBitMask[b] | (1 << (hop - 1))) >>> 0;
      routeLength[b] = Math.max(routeLength[b], hop);
    } else {
      average[i] = NaN;
      c.min[i] = NaN;
      c.max[i] = NaN;
    }
    jitter[i] = c.jitterPairs[i] > 0 ? c.jitterSum[i] / c.jitterPairs[i] : NaN;
  }
  return { ...spec, ...c, average, jitter, routeBitMask, routeLength };
}

export function referenceBucketSamples(samples: SampleColumns, spec: BucketSpec): BucketResult {
  const c = emptyCells(spec.bucketCount * spec.hopCount);
  accumulateSamples(c, samples, spec);
  return finish(c, spec);
}

export function referenceMergeRollups(rows: RollupColumns, spec: BucketSpec): BucketResult {
  const c = emptyCells(spec.bucketCount * spec.hopCount);
  accumulateRollups(c, rows, spec);
  return finish(c, spec);
}

function rowStatsOf(one: BucketResult): RowStatsResult {
  const lossPercent = new Float64Array(one.hopCount);
  const goodCount = new Int32Array(one.hopCount);
  for (let h = 0; h < one.hopCount; h++) {
    goodCount[h] = one.count[h] - one.lost[h];
    lossPercent[h] = one.count[h] > 0 ? (one.lost[h] / one.count[h]) * 100 : NaN;
  }
  return {
    hopCount: one.hopCount,
    average: one.average,
    min: one.min,
    max: one.max,
    current: one.last,
    lossPercent,
    goodCount,
    count: one.count,
    lost: one.lost,
    jitter: one.jitter,
  };
}

function oneBucket(range: TimeRange, hopCount: number): BucketSpec {
  return { start: range.from, period: range.to - range.from, bucketCount: 1, hopCount };
}

export function referenceRowStats(samples: SampleColumns, range: TimeRange, hopCount: number): RowStatsResult {
  return rowStatsOf(referenceBucketSamples(samples, oneBucket(range, hopCount)));
}

export function referenceRowStatsFromRollups(
  rows: RollupColumns,
  range: TimeRange,
  hopCount: number,
): RowStatsResult {
  return rowStatsOf(referenceMergeRollups(rows, oneBucket(range, hopCount)));
}
