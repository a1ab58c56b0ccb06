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
  const { count, flags } = result;
  const cells = bucketCount * hopCount;
  const keep = new Int32Array(cells);
  let n = 0;
  for (let i = 0; i < cells; i++) if (count[i] > 0 || flags[i] !== 0) keep[n++] = i;
  const rows = emptyRollupRows(n);
  // Cells are bucket-major, so rows come out in time order. The columns are read into locals
  // once: this loop runs for every closed minute and hop of every flush.
  const t = rows.time;
  const h = rows.hop;
  for (let r = 0; r < n; r++) {
    const i = keep[r];
    const bucket = Math.floor(i / hopCount);
    t[r] = start + bucket * period;
    h[r] = i - bucket * hopCount + 1;
  }
  // Every other column of a row is the kernel output of the same name.
  const out = rows as unknown as Record<string, Float64Array | Int32Array>;
  const from = result as unknown as Record<string, Float64Array | Int32Array>;
  for (const key of Object.keys(out)) {
    if (key === 'time' || key === 'hop') continue;
    const to = out[key];
    const src = from[key];
    for (let r = 0; r < n; r++) to[r] = src[keep[r]];
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
