// Where hop samples and rollup rows live, per backend (issue 42 item 3, docs/store.md "Samples
// on PostgreSQL"): DuckDB's `samples` and `rollups` tables, or PostgreSQL's own layout (round
// rows and packed blocks, day partitions: server/store/postgres/samples-*.ts). Every writer and
// reader of samples and rollup rows outside server/store/ goes through here, so the ingest, the
// data calls, retention and the sessions' delete have one code path and one dialect seam.
import type { Pool } from 'pg';
import type { Connection, Queryable, Store } from './db.js';
import { isPgConnection } from './db.js';
import { dialectOf } from './dialect.js';
import { SampleSelectColumns, latencyFromMicros } from './latency-micros.js';
import { insertFromFile, type CopyColumn } from './file-copies.js';
import { appendSamples } from '../ingest/appenders.js';
import { appendRollups, type RollupSet } from '../rollups/append.js';
import { RollupTable } from '../rollups/columns.js';
import { RollupSelectColumns } from '../rollups/sql.js';
import { rowsFromColumns, type RollupRows } from '../rollups/rows.js';
import type { SampleBatch } from '../ingest/sample-columns.js';
import { copyRollups, copySamples, prepareRollupDays, prepareSampleDays } from './postgres/samples-write.js';
import { readSamples as pgReadSamples, readStoredRollups, type PgReader } from './postgres/samples-read.js';
import { MinuteRollupRows, RollupLevels, SampleBlocks, SampleRounds, ensureDays, withDayPartitions } from './postgres/samples-schema.js';
import { rollupRowCount, sampleCounts } from './postgres/samples-retention.js';

/** The PostgreSQL pool of a store (undefined on DuckDB). */
export function pgPoolOf(store: Pick<Store, 'dialect'>): Pool | undefined {
  return store.dialect === 'postgres' ? (store as unknown as { pgPool: Pool }).pgPool : undefined;
}

/** The PostgreSQL connection a Queryable runs on (undefined on DuckDB). */
export function pgReaderOf(q: Queryable): PgReader | undefined {
  return dialectOf(q) === 'postgres' ? q.pg : undefined;
}

/**
 * `prepare` (one of the prepare*Write below), then `work` (the transaction that writes). On
 * PostgreSQL, when another process (a replica's retention) dropped a day partition this one
 * made and still believed in, `work` fails; then the partitions are made anew and `work` runs
 * once more (postgres/samples-schema.ts withDayPartitions). Every writer of samples and rollup
 * rows goes through here, so no row is lost to a partition another process dropped.
 */
export function inDayPartitions<T>(store: Pick<Store, 'dialect'>, prepare: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  const pool = pgPoolOf(store);
  return pool ? withDayPartitions(pool, prepare, work) : prepare().then(work);
}

/** Before the writing transaction: PostgreSQL makes the day partitions a flush's samples need (nothing on DuckDB). */
export async function prepareSampleWrite(store: Pick<Store, 'dialect'>, batch: SampleBatch): Promise<void> {
  const pool = pgPoolOf(store);
  if (pool && batch.length) await prepareSampleDays(pool, batch);
}

/** A flush's samples, in the caller's transaction: DuckDB's appender, or PostgreSQL's binary COPY of round rows. */
export async function writeSamples(conn: Connection, batch: SampleBatch): Promise<void> {
  if (!isPgConnection(conn)) return appendSamples(conn, batch);
  if (batch.length) await copySamples(conn.client, batch);
}

/** Before the writing transaction: PostgreSQL makes the day partitions the 1-minute rows need. */
export async function prepareRollupWrite(store: Pick<Store, 'dialect'>, sets: RollupSet[]): Promise<void> {
  const pool = pgPoolOf(store);
  if (pool && sets.length) await prepareRollupDays(pool, sets);
}

/** Rollup rows, in the caller's transaction: DuckDB's appender, or one COPY per level. */
export async function writeRollupRows(conn: Connection, sets: RollupSet[]): Promise<void> {
  if (!isPgConnection(conn)) return appendRollups(conn, sets);
  await copyRollups(conn.client, sets);
}

/** Raw samples of [from, to) in time, then hop order (latency in ms or its code); `to` may be Infinity. */
export async function readRawSamples(q: Queryable, sessionId: number, from: number, to: number): Promise<{ length: number; time: Float64Array; hop: Int32Array; latency: Float64Array }> {
  const pg = pgReaderOf(q);
  if (pg) return pgReadSamples(pg, sessionId, from, to);
  const [time, hop, latency] = Number.isFinite(to)
    ? await q.numbers(`SELECT ${SampleSelectColumns} FROM samples WHERE session_id = $1 AND time >= $2 AND time < $3 ORDER BY time, hop`, [sessionId, from, to])
    : await q.numbers(`SELECT ${SampleSelectColumns} FROM samples WHERE session_id = $1 AND time >= $2 ORDER BY time, hop`, [sessionId, from]);
  return { length: time.length, time, hop: Int32Array.from(hop), latency };
}

/** Rollup rows of one level in [from, to), in time, then hop order, as stored (every column). */
export async function readRollupRows(q: Queryable, resolution: number, sessionId: number, from: number, to: number): Promise<RollupRows> {
  const pg = pgReaderOf(q);
  if (pg) return readStoredRollups(pg, resolution, sessionId, from, to);
  const c = await q.numbers(
    `SELECT ${RollupSelectColumns} FROM ${RollupTable}
     WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4 ORDER BY time, hop`,
    [resolution, sessionId, from, to],
  );
  return rowsFromColumns(c);
}

/** PostgreSQL's rollup reads for the data calls (sources.ts storePieces): as stored, or reduced onto a grid. */
export { readReducedRollups as pgReducedRollups, readStoredRollups as pgStoredRollups } from './postgres/samples-read.js';

/** The tables holding a session's samples and rollup rows (a session's delete empties them in the caller's transaction). */
export function sampleTablesOf(q: Queryable): string[] {
  return dialectOf(q) === 'postgres' ? [SampleRounds.name, SampleBlocks.name, ...RollupLevels.flatMap((l) => [l.rows, l.blocks])] : ['samples', RollupTable];
}

/**
 * Hop samples as rows of (session_id, time, n): n samples of a session at a time. DuckDB's
 * samples table is a row per sample; PostgreSQL's recent samples are round rows (a byte a hop).
 * For counts of recent samples only: PostgreSQL's packed blocks are not in it.
 */
export function recentSampleRowsSql(q: Queryable): string {
  return dialectOf(q) === 'postgres'
    ? `(SELECT session_id, time, octet_length(hops) AS n FROM ${SampleRounds.name})`
    : `(SELECT session_id, time, 1 AS n FROM samples)`;
}

/** Hop samples stored, of them those at or after `since`, and rollup rows stored (disk use). */
export async function storedCounts(store: Store, since: number): Promise<{ samples: number; rollups: number; recent: number }> {
  const pool = pgPoolOf(store);
  if (pool) {
    const [samples, rollups] = await Promise.all([sampleCounts(pool, since), rollupRowCount(pool)]);
    return { ...samples, rollups };
  }
  return store.read(async (q) =>
    (await q.one<{ samples: number; rollups: number; recent: number }>(
      `SELECT (SELECT count(*) FROM samples)::DOUBLE AS samples, (SELECT count(*) FROM rollups)::DOUBLE AS rollups,
              (SELECT count(*) FROM samples WHERE time >= $1)::DOUBLE AS recent`,
      [since],
    ))!,
  );
}

/**
 * Whether a statement can read hop samples by SQL text (DuckDB's samples table: a data file's
 * COPY, a report's LIMIT). PostgreSQL's packed blocks are decoded in JS: there readRawSamples.
 */
export const samplesInSql = (q: Queryable): boolean => dialectOf(q) !== 'postgres';

/**
 * Before an import's transaction: PostgreSQL makes the day partitions of these days (numbers
 * since 1970, UTC) for the samples and 1-minute rows (inside the transaction CREATE ...
 * PARTITION OF would wait for the parent that the transaction's own COPY holds). `daysOf`: the days the
 * file's samples fall on, not its range: samples years apart make two days, not a thousand.
 */
export async function prepareDaysWrite(store: Pick<Store, 'dialect'>, daysOf: () => Promise<readonly number[]>): Promise<void> {
  const pool = pgPoolOf(store);
  if (!pool) return; // DuckDB: nothing to make (the days are not even read)
  const days = await daysOf();
  if (!days.length) return;
  await ensureDays(pool, SampleRounds, days);
  await ensureDays(pool, MinuteRollupRows, days);
}

/**
 * Appends the samples a file select reads (run by DuckDB on `files`: session_id, time ms,
 * hop, latency as stored integer microseconds) in the caller's transaction: `INSERT ... SELECT`
 * into DuckDB's samples table, or PostgreSQL's round rows by COPY (prepareRangeWrite before).
 */
export async function insertSamplesFromFile(q: Queryable, conn: Connection, files: Queryable, columns: CopyColumn[], fileSelect: string): Promise<void> {
  if (!isPgConnection(conn)) return insertFromFile(q, conn, files, 'samples', columns, fileSelect);
  const [session, time, hop, micros] = await files.numbersWithIntegers(fileSelect);
  const n = time?.length ?? 0;
  if (!n) return;
  const latency = new Float64Array(n);
  for (let i = 0; i < n; i++) latency[i] = latencyFromMicros(micros[i]);
  await copySamples(conn.client, { length: n, session: Int32Array.from(session), time: Float64Array.from(time), hop: Int32Array.from(hop), latency } as SampleBatch);
}
