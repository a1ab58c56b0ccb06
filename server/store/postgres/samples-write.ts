// Ingest's writes on PostgreSQL: a flush's hop samples as round rows (sample_rounds) and the
// rollup rows of a group (rollup_rows_*), both by binary COPY inside the caller's transaction.
// The day partitions the rows need are made first, on the pool and before the caller takes its
// client (CREATE ... PARTITION OF locks the parent until its transaction ends: inside a flush's
// transaction it would hold every other writer for the flush's length; and a pool whose every
// client waits for one more would wait for ever): prepareSampleDays, then copySamples.
import type { Pool, PoolClient } from 'pg';
import { latencyMicros, sumMicros } from '../latency-micros.js';
import type { SampleBatch } from '../../ingest/sample-columns.js';
import type { RollupSet } from '../../rollups/append.js';
import { RollupRowColumns, type RollupColumn } from '../../rollups/columns.js';
import { CopyRows, copyInto } from './copy-binary.js';
import { MinuteRollupRows, SampleRounds, daysOf, ensureDays, rollupLevel } from './samples-schema.js';

/** Most hops in one round row: hops are 0..255, one byte each. */
const MaxRoundHops = 256;

/**
 * The flush's samples as round rows: a run of samples of one session with one time (a round,
 * as the engine delivers it) is one row. Times are rounded to the integer ms they are stored
 * as, latencies to integer microseconds (latency-micros.ts), as DuckDB's appender does.
 */
export function roundRows(b: SampleBatch): CopyRows {
  const n = b.length;
  const out = new CopyRows(64 + n * 6 + Math.ceil(n / 8) * 30);
  let i = 0;
  while (i < n) {
    const session = b.session[i];
    const time = Math.round(b.time[i]);
    let j = i + 1;
    while (j < n && j - i < MaxRoundHops && b.session[j] === session && Math.round(b.time[j]) === time) j++;
    const k = j - i;
    const from = i;
    out
      .row(4)
      .int4(session)
      .int8(time)
      .byteaWith(k, (buf, at) => {
        for (let x = 0; x < k; x++) buf[at + x] = b.hop[from + x];
      })
      .byteaWith(4 * k, (buf, at) => {
        for (let x = 0; x < k; x++) buf.writeInt32LE(latencyMicros(b.latency[from + x]), at + 4 * x);
      });
    i = j;
  }
  return out;
}

/** Makes the day partitions a batch of samples needs (on the pool, before the transaction). */
export function prepareSampleDays(pool: Pool, b: SampleBatch): Promise<void> {
  return ensureDays(pool, SampleRounds, daysOf(b.time, b.length));
}

/** Writes the samples on `client` (in its transaction); prepareSampleDays before the transaction. */
export function copySamples(client: PoolClient, b: SampleBatch): Promise<void> {
  return copyInto(client, SampleRounds.name, 'session_id, time, hops, latencies', roundRows(b));
}


const RollupCopyColumns = ['resolution', 'session_id', ...RollupRowColumns.map((c) => c.sql)].join(', ');

/** One rollup column's value as stored (columns.ts micros: integer microseconds). */
function put(out: CopyRows, c: RollupColumn, v: number): void {
  if (c.nullable && Number.isNaN(v)) out.nullField();
  else if (c.key === 'time') out.int8(v);
  else if (c.key === 'hop') out.int2(v);
  else if (c.micros === 'sum') out.int8(sumMicros(v));
  else if (c.micros) out.int4(latencyMicros(v));
  else out.int4(v);
}

/** Makes the day partitions the 1-minute rows of these sets need (on the pool). */
export function prepareRollupDays(pool: Pool, sets: RollupSet[]): Promise<void> {
  const days = new Set<number>();
  for (const s of sets) if (rollupLevel(s.resolution).daily) for (const d of daysOf(s.rows.time)) days.add(d);
  return ensureDays(pool, MinuteRollupRows, days);
}

/** Writes the rollup rows of every set on `client` (one COPY per level); prepareRollupDays before the transaction. */
export async function copyRollups(client: PoolClient, sets: RollupSet[]): Promise<void> {
  const byTable = new Map<string, RollupSet[]>();
  for (const s of sets) {
    if (!s.rows.time.length) continue;
    const t = rollupLevel(s.resolution).rows;
    byTable.set(t, [...(byTable.get(t) ?? []), s]);
  }
  for (const [table, group] of byTable) {
    const out = new CopyRows();
    for (const s of group) {
      const cols = RollupRowColumns.map((c) => (s.rows as unknown as Record<string, ArrayLike<number>>)[c.key]);
      for (let i = 0; i < s.rows.time.length; i++) {
        out.row(2 + RollupRowColumns.length).int4(s.resolution).int4(s.sessionId);
        RollupRowColumns.forEach((c: RollupColumn, k) => put(out, c, cols[k][i]));
      }
    }
    await copyInto(client, table, RollupCopyColumns, out);
  }
}
