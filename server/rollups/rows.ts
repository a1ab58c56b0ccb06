// Rollup rows as plain typed columns (wasm/kernel-types.ts RollupColumns), with helpers to
// cut, concatenate and move them between the main thread, the worker and DuckDB. Which
// columns there are, and which are floats, comes from the declaration (columns.ts).
import type { RollupRows } from '../../wasm/rollup-rows.js';
import { RollupRowColumns, RollupRowKeys, type RollupColumn, type RollupColumnType } from './columns.js';
import { latencyFromMicros } from '../store/latency-micros.js';

export type { RollupRows };
/**
 * A bucket result to rollup rows: the kernel's side of the format, every statistic taken
 * from the output of the same name (kernel-layout.test.ts checks it matches the declaration).
 */
export { rollupRowsFromBuckets } from '../../wasm/rollup-rows.js';

type Column = Float64Array | Int32Array;
const isFloat = (type: RollupColumnType) => type === 'DOUBLE';
/** Columns as a record by name, for the loops over every column. */
const columnsOf = (rows: RollupRows) => rows as unknown as Record<string, Column>;

/** n rows of zeros, every column allocated. */
export function emptyRollupRows(n = 0): RollupRows {
  const out: Record<string, Column> = {};
  for (const c of RollupRowColumns) out[c.key] = isFloat(c.type) ? new Float64Array(n) : new Int32Array(n);
  return out as unknown as RollupRows;
}

export function concatRollupRows(parts: RollupRows[]): RollupRows {
  const n = parts.reduce((s, p) => s + p.time.length, 0);
  const out = emptyRollupRows(n);
  let at = 0;
  const o = columnsOf(out);
  for (const p of parts) {
    const c = columnsOf(p);
    for (const k of RollupRowKeys) o[k].set(c[k], at);
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
  const out: Record<string, Column> = {};
  const c = columnsOf(rows);
  for (const k of RollupRowKeys) out[k] = c[k].slice(a, b);
  return out as unknown as RollupRows;
}

/**
 * Rollup rows from numeric result columns in declared order (sql.ts RollupSelectColumns;
 * NULL already NaN).
 */
export function rowsFromColumns(c: ArrayLike<number>[]): RollupRows {
  const out: Record<string, Column> = {};
  RollupRowColumns.forEach((col, i) => (out[col.key] = isFloat(col.type) ? asFloat64(c[i]) : asInt32(c[i])));
  return out as unknown as RollupRows;
}

/**
 * Rollup rows from result columns in RollupStoredColumns order (sql.ts): micros columns are
 * converted to ms here, exactly as latencyMsSql and the division by 1000 do it in SQL (the
 * same IEEE division of the same integer). The columns are the caller's own (a query's
 * copy): a Float64Array is converted in place.
 */
export function rowsFromStoredColumns(c: ArrayLike<number>[]): RollupRows {
  const out: Record<string, Column> = {};
  RollupRowColumns.forEach((col: RollupColumn, i) => (out[col.key] = fromStored(col, c[i])));
  return out as unknown as RollupRows;
}

/**
 * Rollup rows from result columns in RollupLeanStoredColumns order (sql.ts), converted as
 * rowsFromStoredColumns does; the columns a lean read leaves out read as "no value" (NaN)
 * when nullable, else 0, which the kernel merges as nothing. The fillers are shared by every
 * lean read (the kernel only reads them).
 */
export function leanRowsFromStoredColumns(c: ArrayLike<number>[]): RollupRows {
  const n = c[0].length;
  const out: Record<string, Column> = {};
  let i = 0;
  for (const col of RollupRowColumns) out[col.key] = 'lean' in col ? fromStored(col, c[i++]) : filler(n, isFloat(col.type), col.nullable);
  return out as unknown as RollupRows;
}

/** The column's values in memory's type and unit. */
function fromStored(col: RollupColumn, v: ArrayLike<number>): Column {
  if (!('micros' in col)) return isFloat(col.type) ? asFloat64(v) : asInt32(v);
  return col.micros === 'latency' ? latencyMs(v) : microsToMs(v);
}

const target = (v: ArrayLike<number>): Float64Array => (v instanceof Float64Array ? v : new Float64Array(v.length));

/** us -> ms (NaN, a NULL, stays NaN). */
function microsToMs(v: ArrayLike<number>): Float64Array {
  const out = target(v);
  for (let j = 0; j < v.length; j++) out[j] = v[j] / 1000;
  return out;
}

/** A stored latency -> ms, or the special code it stands for (server/store/latency-micros.ts). */
function latencyMs(v: ArrayLike<number>): Float64Array {
  const out = target(v);
  for (let j = 0; j < v.length; j++) out[j] = latencyFromMicros(v[j]);
  return out;
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
  for (const k of RollupRowKeys) {
    const src = columnsOf(rows)[k];
    const dst = columnsOf(out)[k];
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

let fillers = { none: new Float64Array(0), zeros: new Float64Array(0), zeroInts: new Int32Array(0) };
function filler(n: number, float: boolean, nullable: boolean): Column {
  if (fillers.none.length < n) {
    const m = Math.max(n, 2 * fillers.none.length);
    fillers = { none: new Float64Array(m).fill(NaN), zeros: new Float64Array(m), zeroInts: new Int32Array(m) };
  }
  return (float ? (nullable ? fillers.none : fillers.zeros) : fillers.zeroInts).subarray(0, n);
}
