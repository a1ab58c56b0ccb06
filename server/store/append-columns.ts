// Writes typed columns to a DuckDB table through its appender, inside the caller's
// transaction (ingest's samples and tallies, the rollup rows). Rows go in as DataChunks (up
// to 2048 rows), and each column of a chunk is copied into DuckDB's vector in one native
// call from a typed array. The library's
// per-value setItem costs a call per value, and for a column with a NULL it updates the
// validity mask with BigInt arithmetic per value, which made appending the nullable rollup
// columns slower than appending the samples.
import bindings from '@duckdb/node-bindings';
import { BIGINT, DOUBLE, DuckDBDataChunk, INTEGER, SMALLINT, type DuckDBConnection } from '@duckdb/node-api';
import { isPgConnection, type Connection } from './db.js';
import type { PgConnection } from './postgres/store.js';

/** DuckDB's standard vector size: the most rows one DataChunk holds. */
export const ChunkRows = 2048;
/**
 * Chunks appended between two turns of the event loop (32,768 rows, 2 to 3 ms): a flush of
 * hundreds of thousands of rows would otherwise hold the main thread for tens of ms, and
 * every request with it (the console's calls read on their own connections meanwhile).
 */
const ChunksPerTurn = 16;

/**
 * A column to write: its DuckDB type and values; with `nullable`, NaN is stored as NULL;
 * `encode` maps each value to what is stored (latencies to integer microseconds,
 * server/store/latency-micros.ts) before it is cut to the type's width.
 */
export interface ChunkColumn {
  type: typeof DOUBLE | typeof INTEGER | typeof SMALLINT | typeof BIGINT;
  values: Float64Array | Int32Array;
  nullable?: boolean;
  encode?: (value: number) => number;
}

type Stored = Float64Array | Int32Array | Int16Array | BigInt64Array;

/**
 * A BIGINT column from whole numbers (below 2^53) without a BigInt per value: each value's
 * two 32-bit halves written into the 64-bit array's bytes (little-endian, as DuckDB's).
 */
function bigints(v: ArrayLike<number>, encode?: (x: number) => number): BigInt64Array {
  const out = new BigInt64Array(v.length);
  const halves = new Int32Array(out.buffer);
  for (let i = 0; i < v.length; i++) {
    const x = encode ? encode(v[i]) : v[i];
    if (Number.isNaN(x)) continue; // a NULL: masked, the value is not read
    halves[2 * i] = x >>> 0;
    halves[2 * i + 1] = Math.floor(x / 4294967296);
  }
  return out;
}

/** A column's values in its stored width (converted once, not chunk by chunk). */
function asStored(c: ChunkColumn, n: number): Stored {
  const v = c.values.subarray(0, n);
  if (c.type === BIGINT) return bigints(v, c.encode);
  const e = c.encode;
  if (e && c.type === INTEGER) {
    // One pass straight into the stored width (the latencies of every flush come this way).
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = e(v[i]);
    return out;
  }
  const values = e ? Float64Array.from(v, (x) => e(x)) : v;
  if (c.type === DOUBLE) return values instanceof Float64Array ? values : new Float64Array(values);
  if (c.type === INTEGER) return values instanceof Int32Array ? values : new Int32Array(values);
  return new Int16Array(values);
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
export async function appendColumns(conn: Connection, table: string, n: number, columns: ChunkColumn[]): Promise<void> {
  if (!n) return;
  if (isPgConnection(conn)) return pgAppendColumns(conn, table, n, columns);
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

/** PostgreSQL's names of the column types. */
function pgType(c: ChunkColumn): string {
  if (c.type === BIGINT) return 'bigint';
  if (c.type === INTEGER) return 'integer';
  if (c.type === SMALLINT) return 'smallint';
  return 'double precision';
}

/** Rows per INSERT on PostgreSQL: each column goes as one array parameter. */
export const PgAppendRows = 50_000;

/**
 * The same append on PostgreSQL, in the caller's transaction: one INSERT ... SELECT FROM
 * unnest of one typed array per column for each slice of rows (the generic bulk path; the
 * samples' COPY in binary is server/store/postgres/samples-*.ts).
 */
async function pgAppendColumns(conn: PgConnection, table: string, n: number, columns: ChunkColumn[]): Promise<void> {
  const stored = columns.map((c) => {
    const v = c.values.subarray(0, n);
    const out: (number | null)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const x = c.encode ? c.encode(v[i]) : v[i];
      out[i] = c.nullable && Number.isNaN(v[i]) ? null : c.type === DOUBLE ? x : Math.trunc(x);
    }
    return out;
  });
  const select = columns.map((c, k) => `$${k + 1}::${pgType(c)}[]`).join(', ');
  for (let off = 0; off < n; off += PgAppendRows) {
    const end = Math.min(n, off + PgAppendRows);
    await conn.client.query(`INSERT INTO ${table} SELECT * FROM unnest(${select})`, stored.map((col) => col.slice(off, end)));
  }
}

/** A row-wise append of mixed columns (text and numbers) to `table`, on either backend. */
export async function appendRows(conn: Connection, table: string, types: readonly ('VARCHAR' | 'INTEGER' | 'SMALLINT' | 'BIGINT' | 'DOUBLE')[], rows: readonly (readonly (string | number | null)[])[]): Promise<void> {
  if (!rows.length) return;
  if (isPgConnection(conn)) {
    const names: Record<string, string> = { VARCHAR: 'text', INTEGER: 'integer', SMALLINT: 'smallint', BIGINT: 'bigint', DOUBLE: 'double precision' };
    const select = types.map((t, k) => `$${k + 1}::${names[t]}[]`).join(', ');
    for (let off = 0; off < rows.length; off += PgAppendRows) {
      const part = rows.slice(off, off + PgAppendRows);
      await conn.client.query(`INSERT INTO ${table} SELECT * FROM unnest(${select})`, types.map((_, k) => part.map((r) => r[k])));
    }
    return;
  }
  const a = await conn.createAppender(table);
  try {
    for (const r of rows) {
      r.forEach((v, k) => {
        if (v === null) a.appendNull();
        else if (types[k] === 'VARCHAR') a.appendVarchar(String(v));
        else if (types[k] === 'INTEGER') a.appendInteger(v as number);
        else if (types[k] === 'SMALLINT') a.appendSmallInt(v as number);
        else if (types[k] === 'BIGINT') a.appendBigInt(BigInt(v as number));
        else a.appendDouble(v as number);
      });
      a.endRow();
    }
    a.flushSync();
  } finally {
    a.closeSync();
  }
}
