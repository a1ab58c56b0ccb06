// Rollup rows as plain typed columns (wasm/kernel-types.ts RollupColumns), with helpers to
// cut, concatenate and move them between the main thread, the worker and DuckDB.
import { emptyRollupRows, type RollupRows } from '../../wasm/rollup-rows.js';

export { emptyRollupRows, type RollupRows };

const I32 = ['hop', 'count', 'lost', 'jitterPairs', 'flags'] as const;
const F64 = ['time', 'sum', 'min', 'max', 'first', 'lastValid', 'jitterSum', 'last'] as const;

export function concatRollupRows(parts: RollupRows[]): RollupRows {
  const n = parts.reduce((s, p) => s + p.time.length, 0);
  const out = emptyRollupRows(n);
  let at = 0;
  for (const p of parts) {
    for (const k of [...I32, ...F64]) (out[k] as Float64Array).set(p[k] as Float64Array, at);
    at += p.time.length;
  }
  return out;
}

/** Rows with from <= time < to (rows are in time order). */
export function sliceRollupRows(rows: RollupRows, from: number, to: number): RollupRows {
  let a = 0;
  while (a < rows.time.length && rows.time[a] < from) a++;
  let b = a;
  while (b < rows.time.length && rows.time[b] < to) b++;
  const out = {} as RollupRows;
  for (const k of [...I32, ...F64]) (out as unknown as Record<string, unknown>)[k] = (rows[k] as Float64Array).slice(a, b);
  return out;
}

export const rollupColumnNames = { I32, F64 };

/** The SQL columns of rollup rows, in the order rowsFromColumns expects. */
export const RollupSelectColumns = 'time, hop, count, lost, sum, min, max, first, last_valid, jitter_sum, jitter_pairs, last, flags';

/** Rollup rows from numeric result columns in RollupSelectColumns order (NULL already NaN). */
export function rowsFromColumns(c: ArrayLike<number>[]): RollupRows {
  return {
    time: asFloat64(c[0]),
    hop: asInt32(c[1]),
    count: asInt32(c[2]),
    lost: asInt32(c[3]),
    sum: asFloat64(c[4]),
    min: asFloat64(c[5]),
    max: asFloat64(c[6]),
    first: asFloat64(c[7]),
    lastValid: asFloat64(c[8]),
    jitterSum: asFloat64(c[9]),
    jitterPairs: asInt32(c[10]),
    last: asFloat64(c[11]),
    flags: asInt32(c[12]),
  };
}

/** The column as it is when it already has the type, else a converted copy. */
export const asInt32 = (c: ArrayLike<number>): Int32Array => (c instanceof Int32Array ? c : Int32Array.from(c));
export const asFloat64 = (c: ArrayLike<number>): Float64Array => (c instanceof Float64Array ? c : Float64Array.from(c));

/** The rows in time order (stable): as they are when they already are, else sorted copies. */
export function inTimeOrder(rows: RollupRows): RollupRows {
  const t = rows.time;
  let sorted = true;
  for (let i = 1; i < t.length && sorted; i++) if (t[i] < t[i - 1]) sorted = false;
  if (sorted) return rows;
  const idx = Array.from({ length: t.length }, (_, i) => i).sort((a, b) => t[a] - t[b] || a - b);
  const out = emptyRollupRows(t.length);
  for (const k of [...I32, ...F64]) {
    const src = rows[k] as Float64Array;
    const dst = out[k] as Float64Array;
    for (let i = 0; i < idx.length; i++) dst[i] = src[idx[i]];
  }
  return out;
}

/**
 * Parts (chunks of one result, in result order) as the kernel may take them one after the
 * other: as they are when each is in time order and none starts before the previous ended,
 * else one sorted whole.
 */
export function partsInTimeOrder(parts: RollupRows[]): RollupRows[] {
  let last = -Infinity;
  for (const p of parts) {
    const t = p.time;
    if (t.length && t[0] < last) return [inTimeOrder(concatRollupRows(parts))];
    for (let i = 1; i < t.length; i++) if (t[i] < t[i - 1]) return [inTimeOrder(concatRollupRows(parts))];
    if (t.length) last = t[t.length - 1];
  }
  return parts;
}
