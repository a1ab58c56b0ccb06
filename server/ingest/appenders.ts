// Appends a flush's samples (columns in the samples table's order).
import { DOUBLE, INTEGER, SMALLINT, type DuckDBConnection } from '@duckdb/node-api';
import { appendColumns, type ChunkColumn } from '../store/append-columns.js';
import type { SampleBatch } from './sample-columns.js';

const of = (type: ChunkColumn['type'], values: Float64Array | Int32Array): ChunkColumn => ({ type, values });

export function appendSamples(conn: DuckDBConnection, b: SampleBatch): Promise<void> {
  return appendColumns(conn, 'samples', b.length, [of(INTEGER, b.session), of(DOUBLE, b.time), of(SMALLINT, b.hop), of(DOUBLE, b.latency)]);
}
