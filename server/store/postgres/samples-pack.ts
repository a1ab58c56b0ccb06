// The packer on PostgreSQL: turns plain rows into blocks per session, hop and period
// (docs/store.md "Samples on PostgreSQL"). Each transaction takes one session's plain rows of
// one day with `DELETE ... RETURNING`, encodes them and COPYs the blocks in: what it packs is
// exactly what it deleted, so rows that ingest commits meanwhile (a late round) stay plain and
// are packed by a later run into a block of their own; a transaction cut short changes
// nothing. Reads merge blocks and plain rows, so a range never depends on how far packing got.
import type { Pool, PoolClient } from 'pg';
import { RollupRowColumns } from '../../rollups/columns.js';
import { RollupBlockColumns, encodeRollupBlock, encodeSampleBlock, roundSamples } from './blocks.js';
import { CopyRows, copyInto } from './copy-binary.js';
import { DayMs, RollupLevels, SampleBlockPeriod, SampleBlocks, SampleRounds, MinuteRollupBlocks, MinuteRollupRows, dayOf, ensureDays, partitionName, withDayPartitions, type RollupLevelTables } from './samples-schema.js';

/**
 * Samples are packed once their hour ended this long before the session's newest round: a
 * round that comes later than that for an hour already packed is kept plain, then packed into
 * a block of its own (reads merge them).
 */
export const SamplePackGraceMs = 15 * 60_000;

export interface PackReport {
  transactions: number;
  /** The plain tables (day partitions) emptied rows of, vacuumed after. */
  vacuumed: string[];
  /** Hop samples, or rollup rows, packed. */
  rows: number;
  blocks: number;
  longestMs: number;
}

const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

async function inTransaction<T>(pool: Pool, fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

/** Per session: the oldest plain time and where packing stops (an exclusive bound). */
async function spans(pool: Pool, table: string, cutoff: (latest: number) => number): Promise<{ sessionId: number; first: number; until: number }[]> {
  const { rows } = await pool.query<{ session_id: number; first: number; latest: number }>(
    `SELECT session_id, min(time)::float8 AS first, max(time)::float8 AS latest FROM ${table} GROUP BY session_id ORDER BY session_id`,
  );
  return rows.map((r) => ({ sessionId: r.session_id, first: r.first, until: cutoff(r.latest) })).filter((s) => s.first < s.until);
}

/** Runs `step` for each session day of [first, until), one transaction each. */
async function daySteps(
  pool: Pool,
  list: { sessionId: number; first: number; until: number }[],
  step: (c: PoolClient, sessionId: number, from: number, to: number) => Promise<{ rows: number; blocks: number }>,
  before?: (day: number) => Promise<void>,
  plainOf?: (day: number) => string,
): Promise<PackReport> {
  const report: PackReport = { transactions: 0, vacuumed: [], rows: 0, blocks: 0, longestMs: 0 };
  for (const s of list) {
    for (let day = dayOf(s.first); day * DayMs < s.until; day++) {
      const from = Math.max(s.first, day * DayMs);
      const to = Math.min(s.until, (day + 1) * DayMs);
      let t0 = 0;
      const r = await withDayPartitions(
        pool,
        async () => {
          await before?.(day);
        },
        () => {
          t0 = performance.now();
          return inTransaction(pool, (c) => step(c, s.sessionId, from, to));
        },
      );
      report.longestMs = Math.max(report.longestMs, performance.now() - t0);
      report.transactions++;
      report.rows += r.rows;
      report.blocks += r.blocks;
      if (plainOf && !report.vacuumed.includes(plainOf(day))) report.vacuumed.push(plainOf(day));
    }
  }
  await vacuum(pool, report.vacuumed);
  return report;
}

/**
 * Gives back the space of the plain rows the packer deleted. A day partition left empty (its
 * day is packed whole) is truncated: heap and indexes back to nothing at once (VACUUM would
 * leave the index pages); taken with NOWAIT, so a writer that holds the partition makes it a
 * VACUUM instead, and the next run truncates it. A partition that still holds rows (today's) is
 * vacuumed: its dead rows' space is reused by the rows that come next.
 */
async function vacuum(pool: Pool, tables: string[]): Promise<void> {
  for (const t of tables) {
    const c = await pool.connect();
    let truncated = false;
    try {
      await c.query('BEGIN');
      await c.query(`LOCK TABLE ${t} IN ACCESS EXCLUSIVE MODE NOWAIT`);
      const { rows } = await c.query(`SELECT EXISTS (SELECT 1 FROM ${t}) AS any`);
      if (!rows[0].any) {
        await c.query(`TRUNCATE ${t}`);
        truncated = true;
      }
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      const code = (e as { code?: string }).code;
      if (code === '42P01') continue; // undefined_table: another process's retention dropped the day meanwhile
      if (code !== '55P03') throw e; // lock_not_available: vacuumed instead
    } finally {
      c.release();
    }
    if (!truncated) await pool.query(`VACUUM ${t}`).catch((e: { code?: string }) => {
      if (e.code !== '42P01') throw e; // dropped meanwhile: nothing left to vacuum
    });
  }
}

/** Packs every session's plain samples of hours that ended SamplePackGraceMs before its newest round. */
export async function packSamples(pool: Pool, opts: { graceMs?: number } = {}): Promise<PackReport> {
  const grace = opts.graceMs ?? SamplePackGraceMs;
  const list = await spans(pool, SampleRounds.name, (latest) => floorTo(latest - grace, SampleBlockPeriod));
  return daySteps(
    pool,
    list,
    async (c, sessionId, from, to) => {
      const { rows } = await c.query({
        text: `DELETE FROM ${SampleRounds.name} WHERE session_id = $1 AND time >= $2 AND time < $3 RETURNING time::float8, hops, latencies`,
        values: [sessionId, from, to],
        rowMode: 'array',
      });
      // Per hop and hour: times and latencies, then each run sorted by time.
      const runs = new Map<number, { time: number[]; latency: number[] }>();
      let samples = 0;
      for (const [time, hops, latencies] of rows as [number, Buffer, Buffer][]) {
        const { hop, latency } = roundSamples(hops, latencies);
        const period = floorTo(time, SampleBlockPeriod);
        for (let i = 0; i < hop.length; i++) {
          const key = period * 256 + hop[i];
          let run = runs.get(key);
          if (!run) runs.set(key, (run = { time: [], latency: [] }));
          run.time.push(time);
          run.latency.push(latency[i]);
        }
        samples += hop.length;
      }
      const out = new CopyRows();
      for (const key of [...runs.keys()].sort((a, b) => a - b)) {
        const run = sortedRun(runs.get(key)!);
        const hop = key % 256;
        const period = (key - hop) / 256;
        const n = run.time.length;
        out
          .row(7)
          .int4(sessionId)
          .int2(hop)
          .int8(period)
          .int8(run.time[0])
          .int8(run.time[n - 1])
          .int4(n)
          .bytea(encodeSampleBlock(run.time, run.latency, n));
      }
      await copyInto(c, SampleBlocks.name, 'session_id, hop, period, first_time, last_time, n, data', out);
      return { rows: samples, blocks: out.rows };
    },
    (day) => ensureDays(pool, SampleBlocks, [day]),
    (day) => partitionName(SampleRounds, day),
  );
}

/** A run's samples in time order (stable: equal times keep their order). */
function sortedRun(run: { time: number[]; latency: number[] }): { time: number[]; latency: number[] } {
  const t = run.time;
  let sorted = true;
  for (let i = 1; i < t.length && sorted; i++) sorted = t[i] >= t[i - 1];
  if (sorted) return run;
  const idx = t.map((_, i) => i).sort((a, b) => t[a] - t[b] || a - b);
  return { time: idx.map((i) => t[i]), latency: idx.map((i) => run.latency[i]) };
}

// The stored columns as numbers: bigints cast to float8 (whole numbers below 2^53).
const returned = RollupRowColumns.map((c) => ('micros' in c && c.micros === 'sum') || c.key === 'time' ? `${c.sql}::float8` : c.sql).join(', ');
const blockColumnIndex = RollupBlockColumns.map((c) => RollupRowColumns.findIndex((x) => x.key === c.key));
const hopIndex = RollupRowColumns.findIndex((c) => c.key === 'hop');

/**
 * Packs the rollup rows of every level whose block period is closed: a period before the one
 * that holds the session's newest row of that level (rows are appended only once closed, in
 * time order, so no row can come later for an earlier period).
 */
export async function packRollups(pool: Pool): Promise<PackReport> {
  const total: PackReport = { transactions: 0, vacuumed: [], rows: 0, blocks: 0, longestMs: 0 };
  for (const level of RollupLevels) {
    const r = await packRollupLevel(pool, level);
    total.transactions += r.transactions;
    total.vacuumed.push(...r.vacuumed);
    total.rows += r.rows;
    total.blocks += r.blocks;
    total.longestMs = Math.max(total.longestMs, r.longestMs);
  }
  return total;
}

async function packRollupLevel(pool: Pool, level: RollupLevelTables): Promise<PackReport> {
  const list = await spans(pool, level.rows, (latest) => floorTo(latest, level.blockPeriod));
  return daySteps(
    pool,
    list,
    async (c, sessionId, from, to) => {
      const { rows } = await c.query({
        text: `DELETE FROM ${level.rows} WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4 RETURNING ${returned}`,
        values: [level.resolution, sessionId, from, to],
        rowMode: 'array',
      });
      const all = rows as (number | null)[][];
      // By hop and period, each in time order.
      const key = (r: (number | null)[]) => floorTo(r[0] as number, level.blockPeriod) * 256 + (r[hopIndex] as number);
      all.sort((a, b) => key(a) - key(b) || (a[0] as number) - (b[0] as number));
      const out = new CopyRows();
      for (let i = 0; i < all.length; ) {
        let j = i + 1;
        while (j < all.length && key(all[j]) === key(all[i])) j++;
        const n = j - i;
        const columns = blockColumnIndex.map((k) => {
          const col = new Float64Array(n);
          for (let x = 0; x < n; x++) col[x] = all[i + x][k] ?? NaN;
          return col;
        });
        const packed = encodeRollupBlock(columns, n);
        out
          .row(9)
          .int4(level.resolution)
          .int4(sessionId)
          .int2(all[i][hopIndex] as number)
          .int8(floorTo(all[i][0] as number, level.blockPeriod))
          .int8(all[i][0] as number)
          .int8(all[j - 1][0] as number)
          .int4(n)
          .bytea(packed.data)
          .bytea(packed.detail);
        i = j;
      }
      await copyInto(c, level.blocks, 'resolution, session_id, hop, period, first_time, last_time, n, data, detail', out);
      return { rows: all.length, blocks: out.rows };
    },
    level.daily ? (day) => ensureDays(pool, MinuteRollupBlocks, [day]) : undefined,
    level.daily ? (day) => partitionName(MinuteRollupRows, day) : () => level.rows,
  );
}

/** Packs samples, then rollup rows. */
export async function packClosed(pool: Pool, opts: { graceMs?: number } = {}): Promise<{ samples: PackReport; rollups: PackReport }> {
  return { samples: await packSamples(pool, opts), rollups: await packRollups(pool) };
}
