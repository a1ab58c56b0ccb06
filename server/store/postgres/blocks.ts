// What one packed block holds (block-codec.ts columns, in this order), and the round rows'
// bytes: the one place that knows the byte layouts of sample_rounds, sample_blocks and
// rollup_blocks (samples-schema.ts).
import { RollupRowColumns } from '../../rollups/columns.js';
import { ByteReader, ByteWriter, readColumn, writeColumn } from './block-codec.js';

/** A samples block of one hop: times (integer ms) and latencies (stored integers). */
export function encodeSampleBlock(time: ArrayLike<number>, latency: ArrayLike<number>, n: number): Uint8Array {
  const w = new ByteWriter();
  writeColumn(w, time, n);
  writeColumn(w, latency, n);
  return w.done();
}

export function decodeSampleBlock(data: Uint8Array, n: number): { time: Float64Array; latency: Float64Array } {
  const r = new ByteReader(data);
  const time = readColumn(r, n);
  const latency = readColumn(r, n);
  return { time, latency };
}

/** The columns a rollup block holds: every row column but the hop (the block's), as stored. */
export const RollupBlockColumns = RollupRowColumns.filter((c) => c.key !== 'hop');

/** The block columns (RollupBlockColumns indexes) kept in `data`: the lean ones; the others in `detail`. */
export const LeanBlockColumns: readonly number[] = RollupBlockColumns.map((c, k) => ('lean' in c ? k : -1)).filter((k) => k >= 0);
const DetailBlockColumns: readonly number[] = RollupBlockColumns.map((c, k) => ('lean' in c ? -1 : k)).filter((k) => k >= 0);

function encodePart(columns: ArrayLike<number>[], n: number, which: readonly number[]): Uint8Array {
  const w = new ByteWriter();
  for (const k of which) writeColumn(w, columns[k], n, RollupBlockColumns[k].nullable);
  return w.done();
}

/**
 * A rollup block of one hop: `columns` in RollupBlockColumns order, stored values (NaN a NULL),
 * as two byte strings: `data` the lean columns (what a timeline graph reads of every hop),
 * `detail` the others, so that a lean read transfers and decodes only the first.
 */
export function encodeRollupBlock(columns: ArrayLike<number>[], n: number): { data: Uint8Array; detail: Uint8Array } {
  return { data: encodePart(columns, n, LeanBlockColumns), detail: encodePart(columns, n, DetailBlockColumns) };
}

/** The columns of a rollup block in RollupBlockColumns order; without `detail` (a lean read) only the lean ones. */
export function decodeRollupBlock(data: Uint8Array, detail: Uint8Array | null, n: number): (Float64Array | undefined)[] {
  const out: (Float64Array | undefined)[] = new Array(RollupBlockColumns.length);
  const lean = new ByteReader(data);
  for (const k of LeanBlockColumns) out[k] = readColumn(lean, n);
  if (detail) {
    const rest = new ByteReader(detail);
    for (const k of DetailBlockColumns) out[k] = readColumn(rest, n);
  }
  return out;
}

/**
 * decodeRollupBlock into `out` (per RollupBlockColumns index, undefined: not wanted) at rows
 * [at, at + n): no arrays of its own. The lean columns always; the others when `detail` is given.
 */
export function decodeRollupBlockInto(data: Uint8Array, detail: Uint8Array | null, n: number, out: readonly (Float64Array | Int32Array | undefined)[], at: number): void {
  const lean = new ByteReader(data);
  for (const k of LeanBlockColumns) readColumn(lean, n, out[k]!.subarray(at, at + n));
  if (detail) {
    const rest = new ByteReader(detail);
    for (const k of DetailBlockColumns) readColumn(rest, n, out[k]!.subarray(at, at + n));
  }
}

/** A round row's hops (one byte each) and latencies (little-endian int32) back as numbers. */
export function roundSamples(hops: Uint8Array, latencies: Uint8Array): { hop: Uint8Array; latency: Int32Array } {
  const k = hops.length;
  if (latencies.length !== 4 * k) throw new Error('sample_rounds: hops and latencies differ in length');
  const latency = new Int32Array(k);
  const view = new DataView(latencies.buffer, latencies.byteOffset, latencies.byteLength);
  for (let i = 0; i < k; i++) latency[i] = view.getInt32(4 * i, true);
  return { hop: hops, latency };
}
