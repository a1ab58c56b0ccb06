// Writes rollup rows to the store through DuckDB's appender, in the table's column order:
// the owner columns, then the row's columns as declared (columns.ts), latencies and their
// sums as integer microseconds.
import { BIGINT, DOUBLE, INTEGER, SMALLINT } from '@duckdb/node-api';
import type { Connection } from '../store/db.js';
import { appendColumns, type ChunkColumn } from '../store/append-columns.js';
import { RollupOwnerColumns, RollupRowColumns, RollupTable, type RollupColumn, type RollupColumnType } from './columns.js';
import { latencyMicros, sumMicros } from '../store/latency-micros.js';
import { concatRollupRows, type RollupRows } from './rows.js';

const duckType: Record<RollupColumnType, ChunkColumn['type']> = { DOUBLE, INTEGER, SMALLINT };

/** How a row column goes into the table: micros columns as integer microseconds (columns.ts). */
function stored(c: RollupColumn, values: Float64Array | Int32Array): ChunkColumn {
  if (c.micros === 'latency' || c.micros === 'measurement') return { type: INTEGER, values, nullable: c.nullable, encode: latencyMicros };
  if (c.micros === 'sum') return { type: BIGINT, values, nullable: c.nullable, encode: sumMicros };
  return { type: duckType[c.type], values, nullable: c.nullable };
}

/** Rollup rows of one resolution and session, as the pipeline closes them. */
export interface RollupSet {
  resolution: number;
  sessionId: number;
  rows: RollupRows;
}

/** Appends every set through one appender (one per flush, not one per level and session). */
export function appendRollups(conn: Connection, sets: RollupSet[]): Promise<void> {
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
  const owners: Record<(typeof RollupOwnerColumns)[number]['sql'], Int32Array> = { resolution, session_id: session };
  const columns = r as unknown as Record<string, Float64Array | Int32Array>;
  return appendColumns(conn, RollupTable, n, [
    ...RollupOwnerColumns.map((c) => ({ type: duckType[c.type], values: owners[c.sql] })),
    // NaN (the kernel's "no value") is stored as NULL in the nullable columns.
    ...RollupRowColumns.map((c: RollupColumn) => stored(c, columns[c.key])),
  ]);
}
