// Writes typed columns to a table inside the caller's transaction (ingest's samples and
// tallies, the rollup rows), on either backend. On DuckDB the rows go in as one
// `INSERT INTO table SELECT * FROM hopwatch_columns(id)`: DuckDB runs the statement on its own
// threads and asks the main thread only for each slice of 2,048 rows, which is copied into
// DuckDB's vector in one native call per column (issue 45 item 2, docs/store.md "Ingest off
// the main thread"). The appender it replaces did its work on the calling thread: every 100
// DataChunks (204,800 rows) it wrote them into the table, compressing them, in one
// synchronous call of 50-270 ms that held every request behind it.
import { isMainThread } from 'node:worker_threads';
import bindings from '@duckdb/node-bindings';
import { BIGINT, DOUBLE, DuckDBTableFunction, INTEGER, SMALLINT, VARCHAR, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import { isPgConnection, type Connection } from './db.js';
import type { PgConnection } from './postgres/store.js';

/** DuckDB's standard vector size: the most rows one DataChunk holds. */
export const ChunkRows = 2048;

/**
 * A column to write: its DuckDB type and values; with `nullable`, NaN is stored as NULL;
 * `encode` maps each value to what is stored (latencies to integer microseconds,
 * server/store/latency-micros.ts) before it is cut to the type's width. Values already in the
 * type's width (a BigInt64Array for BIGINT, Int16Array for SMALLINT, Int32Array for INTEGER,
 * Float64Array for DOUBLE; no `encode`) are handed to DuckDB as views, nothing converted on
 * the main thread: the ingest's worker writes the samples so (issue 45 item 2). Such a column
 * has no NaN: its NULLs are `validity`, a mask of the whole column (bit set = value present,
 * read as 64-bit words), or none.
 */
export interface ChunkColumn {
  type: typeof DOUBLE | typeof INTEGER | typeof SMALLINT | typeof BIGINT;
  values: Float64Array | Int32Array | Int16Array | BigInt64Array;
  nullable?: boolean;
  validity?: Uint8Array;
  encode?: (value: number) => number;
}

type Stored = Float64Array | Int32Array | Int16Array | BigInt64Array;

/** A slice's buffer in a stored width, reused slice after slice. */
function scratchFor(c: ChunkColumn): Stored {
  if (c.type === BIGINT) return new BigInt64Array(ChunkRows);
  if (c.type === INTEGER) return new Int32Array(ChunkRows);
  if (c.type === SMALLINT) return new Int16Array(ChunkRows);
  return new Float64Array(ChunkRows);
}

/** Whether a column's values are already in its stored width (handed out as views). */
function inStoredWidth(c: ChunkColumn): boolean {
  if (c.encode) return false;
  const v = c.values;
  if (c.type === BIGINT) return v instanceof BigInt64Array;
  if (c.type === SMALLINT) return v instanceof Int16Array;
  if (c.type === INTEGER) return v instanceof Int32Array;
  return v instanceof Float64Array;
}

/**
 * Rows [off, off + rows) of a column in its stored width: the typed array itself where no
 * conversion is needed, else converted into `scratch`. A BIGINT from whole numbers (below
 * 2^53) without a BigInt per value: each value's two 32-bit halves written into the 64-bit
 * array's bytes (little-endian, as DuckDB's).
 */
function slice(c: ChunkColumn, scratch: Stored | undefined, off: number, rows: number): Stored {
  if (!scratch) return (c.values as Stored).subarray(off, off + rows);
  const v = c.values as Float64Array | Int32Array | Int16Array;
  const e = c.encode;
  if (c.type === BIGINT) {
    const halves = new Int32Array(scratch.buffer, 0, rows * 2);
    for (let i = 0; i < rows; i++) {
      const x = e ? e(v[off + i]) : v[off + i];
      if (Number.isNaN(x)) continue; // a NULL: masked, the value is not read
      halves[2 * i] = x >>> 0;
      halves[2 * i + 1] = Math.floor(x / 4294967296);
    }
    return scratch;
  }
  const out = scratch as Float64Array | Int32Array | Int16Array;
  for (let i = 0; i < rows; i++) out[i] = e ? e(v[off + i]) : v[off + i];
  return out;
}

/** Bytes of a slice's validity mask: DuckDB reads it as 64-bit words. */
const MaskBytes = ChunkRows / 8;

/**
 * The validity mask of a nullable column's slice (bit set = value present), into `mask`
 * (reused slice after slice), or a view of the column's own mask: a slice starts at a
 * multiple of 2048 rows, so at a whole 64-bit word.
 */
function validityOf(c: ChunkColumn, mask: Uint8Array, off: number, rows: number): Uint8Array {
  if (c.validity) return c.validity.subarray(off >> 3, (off >> 3) + Math.ceil(rows / 64) * 8);
  const values = c.values as Float64Array | Int32Array;
  const out = mask.subarray(0, Math.ceil(rows / 64) * 8).fill(0xff);
  for (let j = 0; j < rows; j++) if (Number.isNaN(values[off + j])) out[j >> 3] &= ~(1 << (j & 7));
  return out;
}

/** A text column (appendRows): each value is assigned to DuckDB's vector by itself; null is NULL. */
interface TextColumn {
  type: typeof VARCHAR;
  strings: readonly (string | null)[];
}

/** Writes a text column's slice into the vector, NULLs into its validity mask. */
function textSlice(c: TextColumn, vector: bindings.Vector, mask: Uint8Array, off: number, rows: number): void {
  const out = mask.subarray(0, Math.ceil(rows / 64) * 8).fill(0xff);
  for (let j = 0; j < rows; j++) {
    const v = c.strings[off + j];
    if (v === null) out[j >> 3] &= ~(1 << (j & 7));
    else bindings.vector_assign_string_element(vector, j, v);
  }
  // Every slice sets its mask: the output chunk may keep the previous slice's.
  bindings.vector_ensure_validity_writable(vector);
  bindings.copy_data_to_vector_validity(vector, 0, out.buffer as ArrayBuffer, out.byteOffset, out.byteLength);
}

/** One append in progress: its columns and how far the scan has read them. */
interface Scan {
  n: number;
  columns: (ChunkColumn | TextColumn)[];
  /** Per column, its slice buffer when it is converted (none for a column in its stored width). */
  scratch: (Stored | undefined)[];
  /** A slice's validity mask, reused. */
  mask: Uint8Array;
  /** Hears each slice handed to DuckDB (tests). */
  onSlice?: (rows: number) => void;
}

const scans = new Map<number, Scan>();
let nextScan = 0;

/** The table function the INSERT reads: the columns of scans.get(id), slice by slice. */
const ColumnsFunction = DuckDBTableFunction.create({
  name: 'hopwatch_columns',
  parameterTypes: [INTEGER],
  bindFunction: (info) => {
    const id = info.getParameter(0) as number;
    const scan = scans.get(id);
    if (!scan) return info.setError(`no columns to append under ${id}`);
    scan.columns.forEach((c, k) => info.addResultColumn(`c${k}`, c.type));
    info.setBindData({ id });
    info.setCardinality(scan.n, true);
  },
  initFunction: (info) => {
    info.setInitData({ off: 0 });
    info.setMaxThreads(1); // one reader: the slices go in order
  },
  mainFunction: (info, out: DuckDBDataChunk) => {
    const { id } = info.getBindData() as { id: number };
    const state = info.getInitData() as { off: number };
    const scan = scans.get(id);
    if (!scan) return info.setError(`no columns to append under ${id}`);
    const { off } = state;
    const rows = Math.min(ChunkRows, scan.n - off);
    bindings.data_chunk_set_size(out.chunk, rows);
    if (rows <= 0) return; // no rows: the scan is over
    try {
      for (let k = 0; k < scan.columns.length; k++) {
        const c = scan.columns[k];
        const vector = bindings.data_chunk_get_vector(out.chunk, k);
        if ('strings' in c) {
          textSlice(c, vector, scan.mask, off, rows);
          continue;
        }
        const col = slice(c, scan.scratch[k], off, rows);
        bindings.copy_data_to_vector(vector, 0, col.buffer as ArrayBuffer, col.byteOffset, rows * col.BYTES_PER_ELEMENT);
        // Every slice sets its mask: the output chunk may keep the previous slice's.
        if (c.nullable) {
          const mask = validityOf(c, scan.mask, off, rows);
          bindings.vector_ensure_validity_writable(vector);
          bindings.copy_data_to_vector_validity(vector, 0, mask.buffer as ArrayBuffer, mask.byteOffset, mask.byteLength);
        }
      }
    } catch (err) {
      info.setError((err as Error).message);
      return;
    }
    state.off = off + rows;
    scan.onSlice?.(rows);
  },
});

/** Connections the table function is registered on. */
const registered = new WeakSet<DuckDBConnection>();

/** Connections with an append under way, and how many. */
const appending = new Map<DuckDBConnection, number>();

/** Resolved once no append is under way (endAppends). */
let idleWaiters: (() => void)[] = [];

/**
 * Interrupts every append under way (each fails, its transaction rolls back: nothing it was
 * appending had been acknowledged) and resolves once they have ended. For a process that must
 * exit now (the server's shutdown limit, server/main.ts): once the process exits nothing
 * answers the INSERT's calls for slices, and its thread would wait for them forever.
 */
export function endAppends(): Promise<void> {
  if (!appending.size) return Promise.resolve();
  for (const conn of appending.keys()) conn.interrupt();
  return new Promise((resolve) => idleWaiters.push(resolve));
}

/**
 * An exit with an append under way (process.exit without endAppends first) cannot finish:
 * the INSERT's thread waits for the main thread, and the exit waits for that thread. The
 * process is ended at once instead of hanging at 100% of a core (found with bench:agents).
 */
function endAtExit(): void {
  // A worker thread's exit is not the process's (no module that appends runs in one today).
  if (!appending.size || !isMainThread) return;
  process.stderr.write(`hopwatch: exit during ${appending.size} append(s): their transactions are not committed; ending the process\n`);
  process.kill(process.pid, 'SIGKILL');
}
let exitHooked = false;

/**
 * Appends rows [0, n) of the columns to `table` (columns in table order) in the caller's
 * transaction. `onSlice` hears each slice of rows as DuckDB takes it (tests).
 */
export async function appendColumns(conn: Connection, table: string, n: number, columns: ChunkColumn[], onSlice?: (rows: number) => void): Promise<void> {
  if (!n) return;
  if (isPgConnection(conn)) return pgAppendColumns(conn, table, n, columns);
  return duckAppend(conn, table, n, columns, onSlice);
}

/** The append on DuckDB: INSERT ... SELECT FROM the table function, in the caller's transaction. */
async function duckAppend(conn: DuckDBConnection, table: string, n: number, columns: (ChunkColumn | TextColumn)[], onSlice?: (rows: number) => void): Promise<void> {
  if (!registered.has(conn)) {
    conn.registerTableFunction(ColumnsFunction);
    registered.add(conn);
  }
  if (!exitHooked) {
    process.on('exit', endAtExit);
    exitHooked = true;
  }
  const id = ++nextScan;
  const scratch = columns.map((c) => ('strings' in c || inStoredWidth(c) ? undefined : scratchFor(c)));
  scans.set(id, { n, columns, scratch, mask: new Uint8Array(MaskBytes), onSlice });
  appending.set(conn, (appending.get(conn) ?? 0) + 1);
  try {
    await conn.run(`INSERT INTO ${table} SELECT * FROM hopwatch_columns(${id})`);
  } finally {
    scans.delete(id);
    const left = appending.get(conn)! - 1;
    if (left) appending.set(conn, left);
    else appending.delete(conn);
    if (!appending.size) {
      for (const w of idleWaiters) w();
      idleWaiters = [];
    }
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
    const v = c.values;
    const out: (number | null)[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const raw = Number(v[i]);
      const x = c.encode ? c.encode(raw) : raw;
      const absent = c.validity ? !(c.validity[i >> 3] & (1 << (i & 7))) : c.nullable && Number.isNaN(raw);
      out[i] = absent ? null : c.type === DOUBLE ? x : Math.trunc(x);
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
  // Through the table function as the typed columns (the appender did every row in one
  // synchronous run on the main thread: 30,000 hop hosts a minute for 1,000 traces). Numbers
  // become typed columns in one pass, NULL as NaN; text is assigned slice by slice.
  const n = rows.length;
  const numberType = { INTEGER, SMALLINT, BIGINT, DOUBLE } as const;
  const columns = types.map((t, k): ChunkColumn | TextColumn => {
    if (t === 'VARCHAR') return { type: VARCHAR, strings: rows.map((r) => (r[k] === null ? null : String(r[k]))) };
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = rows[i][k];
      values[i] = v === null ? NaN : (v as number);
    }
    return { type: numberType[t], values, nullable: true };
  });
  return duckAppend(conn, table, n, columns);
}
