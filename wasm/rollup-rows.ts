// Turns a bucket result into rollup rows (only cells that hold something), the shape the
// store appends to its rollup tables and feeds back to mergeRollups for coarser answers.

import type { BucketResult, AggregateColumns } from './kernel-types.js';

export interface RollupRows extends AggregateColumns {
  time: Float64Array;
  hop: Int32Array;
}

/** A cell holds something when a sample was sent in it or it carries a flag. */
export function rollupRowsFromBuckets(result: BucketResult): RollupRows {
  const { bucketCount, hopCount, start, period } = result;
  const cells = bucketCount * hopCount;
  const keep: number[] = [];
  for (let i = 0; i < cells; i++) {
    if (result.count[i] > 0 || result.flags[i] !== 0) keep.push(i);
  }
  const n = keep.length;
  const rows = emptyRollupRows(n);
  // Cells are bucket-major, so rows come out in time order.
  for (let r = 0; r < n; r++) {
    const i = keep[r];
    const bucket = Math.floor(i / hopCount);
    rows.time[r] = start + bucket * period;
    rows.hop[r] = (i % hopCount) + 1;
    rows.count[r] = result.count[i];
    rows.lost[r] = result.lost[i];
    rows.sum[r] = result.sum[i];
    rows.min[r] = result.min[i];
    rows.max[r] = result.max[i];
    rows.first[r] = result.first[i];
    rows.lastValid[r] = result.lastValid[i];
    rows.jitterSum[r] = result.jitterSum[i];
    rows.jitterPairs[r] = result.jitterPairs[i];
    rows.last[r] = result.last[i];
    rows.flags[r] = result.flags[i];
  }
  return rows;
}

/** n rows of zeros, every column allocated. */
export function emptyRollupRows(n = 0): RollupRows {
  return {
    time: new Float64Array(n),
    hop: new Int32Array(n),
    count: new Int32Array(n),
    lost: new Int32Array(n),
    sum: new Float64Array(n),
    min: new Float64Array(n),
    max: new Float64Array(n),
    first: new Float64Array(n),
    lastValid: new Float64Array(n),
    jitterSum: new Float64Array(n),
    jitterPairs: new Int32Array(n),
    last: new Float64Array(n),
    flags: new Int32Array(n),
  };
}
