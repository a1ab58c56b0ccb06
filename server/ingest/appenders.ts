// Appends a flush's samples (columns in the samples table's order): latency as integer
// microseconds (server/store/latency-micros.ts, docs/store.md "Compact samples"), time as
// integer ms (migration 18, docs/store.md "Sample order": a round's time is Date.now()).
import { BIGINT, INTEGER, SMALLINT } from '@duckdb/node-api';
import type { Connection } from '../store/db.js';
import { appendColumns, type ChunkColumn } from '../store/append-columns.js';
import { latencyMicros } from '../store/latency-micros.js';
import type { SampleBatch } from './sample-columns.js';

const of = (type: ChunkColumn['type'], values: Float64Array | Int32Array): ChunkColumn => ({ type, values });

export function appendSamples(conn: Connection, b: SampleBatch): Promise<void> {
  // Validated (worker.ts prepare): already in the stored widths, so DuckDB is handed views.
  const st = b.stored;
  if (st) return appendColumns(conn, 'samples', b.length, [of(INTEGER, b.session), { type: BIGINT, values: st.time }, { type: SMALLINT, values: st.hop }, of(INTEGER, st.latency)]);
  return appendColumns(conn, 'samples', b.length, [
    of(INTEGER, b.session),
    { type: BIGINT, values: b.time, encode: Math.round },
    of(SMALLINT, b.hop),
    { type: INTEGER, values: b.latency, encode: latencyMicros },
  ]);
}
