// Retention on PostgreSQL: a day of raw samples (or of 1-minute rollup rows) expires by
// dropping its partitions, not by deleting rows: no dead tuples, no VACUUM, the disk space
// back at once, and a few ms however many rows the day held. Whole UTC days: a day goes once
// all of it is older than the horizon (retention.ts horizonsAt), so raw samples are kept up to
// a day longer than rawDays (docs/store.md "Samples on PostgreSQL").
import type { Pool } from 'pg';
import { DayMs, MinuteRollupBlocks, MinuteRollupRows, RollupLevels, SampleBlocks, SampleRounds, forgetPartitions, listDays, partitionName, type DayTable } from './samples-schema.js';

export interface DayDrop {
  /** The days dropped (numbers since 1970, UTC). */
  days: number[];
  /** Where the tier starts now: the end of the newest day dropped (-Infinity: none dropped). */
  horizon: number;
  /** The longest single drop transaction (ms). */
  longestMs: number;
}

/** Drops the day partitions of `tables` whose whole day lies before `horizon`, one transaction per day. */
export async function dropDaysBefore(pool: Pool, tables: DayTable[], horizon: number): Promise<DayDrop> {
  const days = new Set<number>();
  for (const t of tables) for (const d of await listDays(pool, t)) if ((d + 1) * DayMs <= horizon) days.add(d);
  const out: DayDrop = { days: [...days].sort((a, b) => a - b), horizon: -Infinity, longestMs: 0 };
  for (const day of out.days) {
    const t0 = performance.now();
    await dropDay(pool, tables, day);
    out.longestMs = Math.max(out.longestMs, performance.now() - t0);
    out.horizon = (day + 1) * DayMs;
  }
  return out;
}

/** Drops one day's partitions of `tables` in one transaction (every table or none). */
export async function dropDay(pool: Pool, tables: DayTable[], day: number): Promise<void> {
  const names = tables.map((t) => partitionName(t, day));
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    // Waits at most this long for the parent's lock (a running COPY holds it): then fails, and
    // the next run drops the day.
    await c.query(`SET LOCAL lock_timeout = '5s'`);
    for (const n of names) await c.query(`DROP TABLE IF EXISTS ${n}`);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
  forgetPartitions(pool, names);
}

/** Raw samples of the days before `horizon` (rounds and blocks). */
export const expireSampleDays = (pool: Pool, horizon: number) => dropDaysBefore(pool, [SampleRounds, SampleBlocks], horizon);

/** 1-minute rollup rows of the days before `horizon` (rows and blocks). */
export const expireMinuteRollupDays = (pool: Pool, horizon: number) => dropDaysBefore(pool, [MinuteRollupRows, MinuteRollupBlocks], horizon);

/** Every sample and rollup row of the sessions (a deleted target), in the caller's order of tables. */
export async function deleteSessionSamples(pool: Pool, sessionIds: number[]): Promise<void> {
  if (!sessionIds.length) return;
  const tables = [SampleRounds.name, SampleBlocks.name, ...RollupLevels.flatMap((l) => [l.rows, l.blocks])];
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    for (const t of tables) await c.query(`DELETE FROM ${t} WHERE session_id = ANY($1::int[])`, [sessionIds]);
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

/** Hop samples stored (plain and packed), and of them those at or after `since`. */
export async function sampleCounts(pool: Pool, since: number): Promise<{ samples: number; recent: number }> {
  const { rows } = await pool.query<{ samples: number; recent: number }>(
    `SELECT (SELECT coalesce(sum(octet_length(hops)), 0) FROM ${SampleRounds.name})::float8
          + (SELECT coalesce(sum(n), 0) FROM ${SampleBlocks.name})::float8 AS samples,
            (SELECT coalesce(sum(octet_length(hops)), 0) FROM ${SampleRounds.name} WHERE time >= $1)::float8
          + (SELECT coalesce(sum(n), 0) FROM ${SampleBlocks.name} WHERE period >= $1)::float8 AS recent`,
    [since],
  );
  return rows[0];
}

/** Every table of samples and rollup rows (parents), for sizes: pg_total_relation_size of each partition. */
export async function sampleTableBytes(pool: Pool): Promise<{ table: string; bytes: number }[]> {
  const parents = [SampleRounds.name, SampleBlocks.name, ...RollupLevels.flatMap((l) => [l.rows, l.blocks])];
  const { rows } = await pool.query<{ table: string; bytes: number }>(
    // pg_partition_tree of a table that is not partitioned has no rows: its own size then.
    `SELECT p AS table, coalesce((SELECT sum(pg_total_relation_size(r.relid)) FROM pg_partition_tree(p::regclass) r), pg_total_relation_size(p::regclass))::float8 AS bytes
     FROM unnest($1::text[]) AS p`,
    [parents],
  );
  return rows;
}

/**
 * How many hop samples ('raw') or 1-minute rollup rows ('minute') lie in the days wholly before
 * `horizon`: what dropping them removes (the expiry's report).
 */
export async function rowsBeforeDay(pool: Pool, kind: 'raw' | 'minute', horizon: number): Promise<number> {
  const end = Math.floor(horizon / DayMs) * DayMs;
  const sql =
    kind === 'raw'
      ? `SELECT (SELECT coalesce(sum(octet_length(hops)), 0) FROM ${SampleRounds.name} WHERE time < $1)::float8
              + (SELECT coalesce(sum(n), 0) FROM ${SampleBlocks.name} WHERE period < $1)::float8 AS n`
      : `SELECT (SELECT count(*) FROM ${MinuteRollupRows.name} WHERE time < $1)::float8
              + (SELECT coalesce(sum(n), 0) FROM ${MinuteRollupBlocks.name} WHERE period < $1)::float8 AS n`;
  const { rows } = await pool.query<{ n: number }>(sql, [end]);
  return Number(rows[0].n);
}

/** Rollup rows stored, of every level, plain and packed. */
export async function rollupRowCount(pool: Pool): Promise<number> {
  const parts = RollupLevels.flatMap((l) => [`(SELECT count(*) FROM ${l.rows})`, `(SELECT coalesce(sum(n), 0) FROM ${l.blocks})`]);
  const { rows } = await pool.query<{ n: number }>(`SELECT (${parts.join(' + ')})::float8 AS n`);
  return Number(rows[0].n);
}
