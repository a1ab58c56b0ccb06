// The tables of hop samples and rollup rows on PostgreSQL (docs/store.md "Samples on
// PostgreSQL"): recent data plain until packed, closed data packed in blocks per session, hop
// and period (block-codec.ts), every table that retention empties range-partitioned by UTC
// day, so that expiring a day drops a partition instead of deleting rows.
//
// - sample_rounds: one row per round (session, time, the round's hops as one byte each, their
//   latencies as little-endian int32 microseconds or codes -1..-5, as DuckDB keeps them).
// - sample_blocks: one row per session, hop and hour: the samples' times and latencies.
// - rollup_rows_{1m,10m,1h}: one row per rollup row, the columns of DuckDB's rollups table.
// - rollup_blocks_{1m,10m,1h}: one row per session, hop and period (an hour of 1-minute rows,
//   a day of 10-minute and 1-hour rows): every column of the rows.
// The 1-minute tables are partitioned by day (their rows expire); the 10-minute and 1-hour
// ones are not (kept for ever). Partitions are made on demand, as rows for a day arrive.
import type { Pool, PoolClient } from 'pg';

export const DayMs = 86_400_000;
export const HourMs = 3_600_000;

/** A table whose rows are partitioned by UTC day on `key`. */
export interface DayTable {
  name: string;
  key: string;
  /** The columns of packed bits (block tables): kept in the row, not compressed. */
  packed?: string[];
}

/**
 * A rollup block's two byte columns: `data` the lean columns (columns.ts `lean`: what a timeline
 * graph reads of every hop), `detail` the others; a lean read transfers half the bytes.
 */
export const RollupBlockBytes = ['data', 'detail'];

export const SampleRounds: DayTable = { name: 'sample_rounds', key: 'time' };
export const SampleBlocks: DayTable = { name: 'sample_blocks', key: 'period', packed: ['data'] };
export const MinuteRollupRows: DayTable = { name: 'rollup_rows_1m', key: 'time' };
export const MinuteRollupBlocks: DayTable = { name: 'rollup_blocks_1m', key: 'period', packed: RollupBlockBytes };

/** Per rollup level (resolution ms): its tables, and the period one block of a hop holds. */
export interface RollupLevelTables {
  resolution: number;
  rows: string;
  blocks: string;
  blockPeriod: number;
  /** Partitioned by day (its rows expire: retention's minuteDays). */
  daily: boolean;
}

export const RollupLevels: readonly RollupLevelTables[] = [
  { resolution: 60_000, rows: 'rollup_rows_1m', blocks: 'rollup_blocks_1m', blockPeriod: HourMs, daily: true },
  { resolution: 600_000, rows: 'rollup_rows_10m', blocks: 'rollup_blocks_10m', blockPeriod: DayMs, daily: false },
  { resolution: 3_600_000, rows: 'rollup_rows_1h', blocks: 'rollup_blocks_1h', blockPeriod: DayMs, daily: false },
];

export function rollupLevel(resolution: number): RollupLevelTables {
  const l = RollupLevels.find((x) => x.resolution === resolution);
  if (!l) throw new Error(`no rollup level of ${resolution} ms`);
  return l;
}

/** A samples block holds one hop of one session for this long. */
export const SampleBlockPeriod = HourMs;

// The columns of a rollup row as stored (DuckDB's rollups table, server/rollups/columns.ts),
// after resolution and session_id.
const rollupColumns = `time bigint NOT NULL, hop smallint NOT NULL, count integer NOT NULL, lost integer NOT NULL,
  sum bigint NOT NULL, min integer, max integer, first integer, last_valid integer, jitter_sum bigint NOT NULL,
  jitter_pairs integer NOT NULL, last integer, flags integer NOT NULL`;

const blockColumns = `hop smallint NOT NULL, period bigint NOT NULL, first_time bigint NOT NULL, last_time bigint NOT NULL,
  n integer NOT NULL, data bytea NOT NULL`;
const rollupBlockColumns = `${blockColumns}, detail bytea NOT NULL`;

/** The statements that create the tables (idempotent). */
export const SamplesSchemaSql: string[] = [
  `CREATE TABLE IF NOT EXISTS sample_rounds (session_id integer NOT NULL, time bigint NOT NULL, hops bytea NOT NULL, latencies bytea NOT NULL) PARTITION BY RANGE (time)`,
  `CREATE INDEX IF NOT EXISTS sample_rounds_session ON sample_rounds (session_id, time)`,
  `CREATE TABLE IF NOT EXISTS sample_blocks (session_id integer NOT NULL, ${blockColumns}) PARTITION BY RANGE (period)`,
  `CREATE INDEX IF NOT EXISTS sample_blocks_session ON sample_blocks (session_id, period)`,
  ...RollupLevels.flatMap((l) => [
    `CREATE TABLE IF NOT EXISTS ${l.rows} (resolution integer NOT NULL, session_id integer NOT NULL, ${rollupColumns})${l.daily ? ' PARTITION BY RANGE (time)' : ''}`,
    `CREATE INDEX IF NOT EXISTS ${l.rows}_session ON ${l.rows} (session_id, time)`,
    `CREATE TABLE IF NOT EXISTS ${l.blocks} (resolution integer NOT NULL, session_id integer NOT NULL, ${rollupBlockColumns})${l.daily ? ' PARTITION BY RANGE (period)' : ''}`,
    `CREATE INDEX IF NOT EXISTS ${l.blocks}_session ON ${l.blocks} (session_id, period)`,
    ...(l.daily ? [] : blockStorage(l.blocks, RollupBlockBytes)),
  ]),
];

/**
 * A packed block is a few KB of bits that do not compress further: kept in the row (up to
 * 8 KB, no TOAST pointer and chunk rows) and not run through pglz.
 */
function blockStorage(table: string, columns: string[]): string[] {
  return [`ALTER TABLE ${table} SET (toast_tuple_target = 8160)`, ...columns.map((c) => `ALTER TABLE ${table} ALTER COLUMN ${c} SET STORAGE EXTERNAL`)];
}

export async function createSamplesSchema(pool: Pool | PoolClient): Promise<void> {
  for (const sql of SamplesSchemaSql) await pool.query(sql);
}

/** The day partition's name: the parent's and the day number since 1970 (UTC). */
export const partitionName = (t: DayTable, day: number): string => `${t.name}_d${day}`;

/** The day (number since 1970, UTC) a time falls in. */
export const dayOf = (ms: number): number => Math.floor(ms / DayMs);

// Partitions known to exist, per pool: a COPY checks its days here, not in the catalog. Another
// process (a replica's retention) may drop one of them meanwhile: withDayPartitions then makes
// it again (docs/store.md "Samples on PostgreSQL", "Several processes").
const known = new WeakMap<object, Set<string>>();
const knownOf = (pool: object) => {
  let s = known.get(pool);
  if (!s) known.set(pool, (s = new Set()));
  return s;
};

/** Forgets what is known of a pool's partitions (retention dropped some). */
export function forgetPartitions(pool: object, names: Iterable<string>): void {
  const s = knownOf(pool);
  for (const n of names) s.delete(n);
}

/** Forgets every partition known of a pool: the next ensureDays asks the catalog again. */
export function forgetAllPartitions(pool: object): void {
  known.delete(pool);
}

/**
 * Whether a write failed because no partition holds one of its rows: the day's partition is
 * not there although this process made it (another process dropped it since).
 */
export function isMissingPartition(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23514' && /no partition of relation/.test(err.message ?? '');
}

/**
 * `prepare` (ensureDays of what `work` writes, on the pool), then `work` (a transaction that
 * writes them). When `work` fails for a missing partition, what this process knew of the
 * pool's partitions is forgotten and both run once more: the rolled-back transaction is
 * written again into the partitions made anew. Another failure is the caller's.
 */
export async function withDayPartitions<T>(pool: object, prepare: () => Promise<void>, work: () => Promise<T>): Promise<T> {
  await prepare();
  try {
    return await work();
  } catch (e) {
    if (!isMissingPartition(e)) throw e;
    forgetAllPartitions(pool);
    await prepare();
    return work();
  }
}

/**
 * Makes the day partitions of `t` for `days` where they are missing. Run outside the writing
 * transaction (on the pool): two writers making the same partition at once get a duplicate
 * error from the catalog, which means it exists now.
 */
export async function ensureDays(pool: Pool, t: DayTable, days: Iterable<number>): Promise<void> {
  const seen = knownOf(pool);
  for (const day of days) {
    const name = partitionName(t, day);
    if (seen.has(name)) continue;
    try {
      await pool.query(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${t.name} FOR VALUES FROM (${day * DayMs}) TO (${(day + 1) * DayMs})`);
      if (t.packed) for (const sql of blockStorage(name, t.packed)) await pool.query(sql);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== '42P07' && code !== '23505') throw e; // made by another writer meanwhile
    }
    seen.add(name);
  }
}

/** The days (numbers since 1970) of the times in [0, n) of `time`. */
export function daysOf(time: ArrayLike<number>, n = time.length): Set<number> {
  const out = new Set<number>();
  let last = NaN;
  for (let i = 0; i < n; i++) {
    const d = dayOf(time[i]);
    if (d !== last) out.add((last = d));
  }
  return out;
}

/** The day partitions of `t` that exist, by day number. */
export async function listDays(pool: Pool | PoolClient, t: DayTable): Promise<number[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1`,
    [t.name],
  );
  const prefix = `${t.name}_d`;
  return rows
    .map((r) => r.name)
    .filter((n) => n.startsWith(prefix))
    .map((n) => Number(n.slice(prefix.length)))
    .filter((d) => Number.isInteger(d))
    .sort((a, b) => a - b);
}
