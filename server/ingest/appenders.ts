// Writes sample and rollup columns to DuckDB through its appender, inside the caller's
// transaction. Rows go in as DataChunks (up to 2048 rows), and each column of a chunk is
// copied into DuckDB's vector in one native call from a typed array. The library's
// per-value setItem costs a call per value, and for a column with a NULL it updates the
// validity mask with BigInt arithmetic per value, which made appending the nullable rollup
// columns slower than appending the samples.
import bindings from '@duckdb/node-bindings';
import { DOUBLE, DuckDBDataChunk, INTEGER, SMALLINT, type DuckDBConnection } from '@duckdb/node-api';
import type { SampleBatch } from './sample-columns.js';
import { concatRollupRows, type RollupRows } from './rollup-rows.js';

/** DuckDB's standard vector size: the most rows one DataChunk holds. */
export const ChunkRows = 2048;
/**
 * Chunks appended between two turns of the event loop (32,768 rows, 2 to 3 ms): a flush of
 * hundreds of thousands of rows would otherwise hold the main thread for tens of ms, and
 * every request with it (the console's calls read on their own connections meanwhile).
 */
const ChunksPerTurn = 16;

/** A column to write: its DuckDB type and values; with `nullable`, NaN is stored as NULL. */
export interface ChunkColumn {
  type: typeof DOUBLE | typeof INTEGER | typeof SMALLINT;
  values: Float64Array | Int32Array;
  nullable?: boolean;
}

/** A column's values in its stored width (converted once, not chunk by chunk). */
function asStored(c: ChunkColumn, n: number): Float64Array | Int32Array | Int16Array {
  const v = c.values.subarray(0, n);
  if (c.type === DOUBLE) return v instanceof Float64Array ? v : new Float64Array(v);
  if (c.type === INTEGER) return v instanceof Int32Array ? v : new Int32Array(v);
  return new Int16Array(v);
}

/** The validity mask of a nullable float column (bit set = value present), or null if no NaN. */
function validityOf(values: Float64Array | Int32Array, off: number, rows: number): Uint8Array | null {
  let mask: Uint8Array | null = null;
  for (let j = 0; j < rows; j++) {
    if (!Number.isNaN(values[off + j])) continue;
    // DuckDB reads the mask as 64-bit words: whole words, every other bit valid.
    mask ??= new Uint8Array(Math.ceil(rows / 64) * 8).fill(0xff);
    mask[j >> 3] &= ~(1 << (j & 7));
  }
  return mask;
}

/**
 * Appends rows [0, n) of the columns to `table` (columns in table order). One DataChunk
 * serves every slice of 2048 rows: the appender copies what it is given, so the chunk is
 * reset and filled again rather than a new one (and its vectors) made per slice.
 */
export async function appendColumns(conn: DuckDBConnection, table: string, n: number, columns: ChunkColumn[]): Promise<void> {
  if (!n) return;
  const a = await conn.createAppender(table);
  try {
    const chunk = DuckDBDataChunk.create(columns.map((c) => c.type));
    const vectors = columns.map((_, k) => bindings.data_chunk_get_vector(chunk.chunk, k));
    const stored = columns.map((c) => asStored(c, n));
    for (let off = 0, chunkNo = 1; off < n; off += ChunkRows, chunkNo++) {
      const rows = Math.min(ChunkRows, n - off);
      bindings.data_chunk_reset(chunk.chunk); // every row valid again
      for (let k = 0; k < columns.length; k++) {
        const col = stored[k];
        const width = col.BYTES_PER_ELEMENT;
        bindings.copy_data_to_vector(vectors[k], 0, col.buffer as ArrayBuffer, col.byteOffset + off * width, rows * width);
        const mask = columns[k].nullable ? validityOf(columns[k].values, off, rows) : null;
        if (mask) {
          bindings.vector_ensure_validity_writable(vectors[k]);
          bindings.copy_data_to_vector_validity(vectors[k], 0, mask.buffer as ArrayBuffer, 0, mask.byteLength);
        }
      }
      bindings.data_chunk_set_size(chunk.chunk, rows);
      a.appendDataChunk(chunk);
      if (chunkNo % ChunksPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    a.flushSync();
  } finally {
    a.closeSync();
  }
}

const of = (type: ChunkColumn['type'], values: Float64Array | Int32Array): ChunkColumn => ({ type, values });
/** A float column where NaN (the kernel's "no value") is stored as NULL. */
const nullable = (values: Float64Array): ChunkColumn => ({ type: DOUBLE, values, nullable: true });

export function appendSamples(conn: DuckDBConnection, b: SampleBatch): Promise<void> {
  return appendColumns(conn, 'samples', b.length, [of(INTEGER, b.session), of(DOUBLE, b.time), of(SMALLINT, b.hop), of(DOUBLE, b.latency)]);
}

/** Rollup rows of one resolution and session, as the pipeline closes them. */
export interface RollupSet {
  resolution: number;
  sessionId: number;
  rows: RollupRows;
}

/** Appends every set through one appender (one per flush, not one per level and session). */
export function appendRollups(conn: DuckDBConnection, sets: RollupSet[]): Promise<void> {
  const parts = sets.filter((s) => s.rows.time.length > 0);
  if (!parts.length) return Promise.resolve();
  const r = parts.length === 1 ? parts[0].rows : concatRollupRows(parts.map((s) => s.rows));
  const n = r.time.length;
  const resolution = new Int32Array(n);
  const session = new Int32Array(n);
  let at = 0;
  for (const s of parts) {
    const k = s.rows.time.length;
    resolution.fill(s.resolution, at, at + k);
    session.fill(s.sessionId, at, at + k);
    at += k;
  }
  return appendColumns(conn, 'rollups', n, [
    of(INTEGER, resolution),
    of(INTEGER, session),
    of(DOUBLE, r.time),
    of(SMALLINT, r.hop),
    of(INTEGER, r.count),
    of(INTEGER, r.lost),
    of(DOUBLE, r.sum),
    nullable(r.min),
    nullable(r.max),
    nullable(r.first),
    nullable(r.lastValid),
    of(DOUBLE, r.jitterSum),
    of(INTEGER, r.jitterPairs),
    nullable(r.last),
    of(INTEGER, r.flags),
  ]);
}
