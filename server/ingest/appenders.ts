// Writes sample and rollup columns to DuckDB through its appender (the fastest path in),
// inside the caller's transaction.
import type { DuckDBConnection } from '@duckdb/node-api';
import type { SampleBatch } from './sample-columns.js';
import type { RollupRows } from './rollup-rows.js';

export async function appendSamples(conn: DuckDBConnection, b: SampleBatch): Promise<void> {
  if (!b.length) return;
  const a = await conn.createAppender('samples');
  try {
    for (let i = 0; i < b.length; i++) {
      a.appendInteger(b.session[i]);
      a.appendDouble(b.time[i]);
      a.appendSmallInt(b.hop[i]);
      a.appendDouble(b.latency[i]);
      a.endRow();
    }
    a.flushSync();
  } finally {
    a.closeSync();
  }
}

const num = (a: { appendDouble(v: number): void; appendNull(): void }, v: number) => (Number.isNaN(v) ? a.appendNull() : a.appendDouble(v));

export async function appendRollups(conn: DuckDBConnection, resolution: number, sessionId: number, r: RollupRows): Promise<void> {
  const n = r.time.length;
  if (!n) return;
  const a = await conn.createAppender('rollups');
  try {
    for (let i = 0; i < n; i++) {
      a.appendInteger(resolution);
      a.appendInteger(sessionId);
      a.appendDouble(r.time[i]);
      a.appendSmallInt(r.hop[i]);
      a.appendInteger(r.count[i]);
      a.appendInteger(r.lost[i]);
      a.appendDouble(r.sum[i]);
      num(a, r.min[i]);
      num(a, r.max[i]);
      num(a, r.first[i]);
      num(a, r.lastValid[i]);
      a.appendDouble(r.jitterSum[i]);
      a.appendInteger(r.jitterPairs[i]);
      num(a, r.last[i]);
      a.appendInteger(r.flags[i]);
      a.endRow();
    }
    a.flushSync();
  } finally {
    a.closeSync();
  }
}
