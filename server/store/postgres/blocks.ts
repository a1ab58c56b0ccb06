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

/**
 * A rollup block of one hop: `columns` in RollupBlockColumns order, stored values (NaN a NULL),
 * each column after its length in bytes (a varint), so that a read of some columns (a timeline
 * graph's lean columns of every hop) skips the others without decoding them.
 */
export function encodeRollupBlock(columns: ArrayLike<number>[], n: number): Uint8Array {
  const w = new ByteWriter();
  RollupBlockColumns.forEach((c, k) => {
    const col = new ByteWriter();
    writeColumn(col, columns[k], n, c.nullable);
    const bytes = col.done();
    w.varint(bytes.length);
    w.bytes(bytes);
  });
  return w.done();
}

/**
 * The columns of a rollup block in RollupBlockColumns order; `wanted` (indexes into that
 * order) decodes only those and leaves the others undefined (they are skipped, not read).
 */
export function decodeRollupBlock(data: Uint8Array, n: number, wanted?: ReadonlySet<number>): (Float64Array | undefined)[] {
  const r = new ByteReader(data);
  const out: (Float64Array | undefined)[] = [];
  for (let k = 0; k < RollupBlockColumns.length; k++) {
    const length = r.varint();
    const bytes = r.bytes(length);
    out.push(!wanted || wanted.has(k) ? readColumn(new ByteReader(bytes), n) : undefined);
  }
  return out;
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
