// Retention tiers (docs/store.md "Retention"): raw samples are kept rawDays, 1-minute rollup
// rows minuteDays, 10-minute and 1-hour rows for ever. Expiry deletes what is older, in small
// transactions (one session and one slice of time each) queued with the ingest flushes on
// the writer, so a flush waits for at most one of them; DuckDB frees the blocks of row groups
// whose rows are all deleted at the next checkpoint and reuses them for new rows, so under
// steady load the file stops growing once the oldest data expires at the rate new data comes.
import type { Queryable, Store } from './db.js';
import { closedReads } from './closed-reads.js';
import { pgPoolOf } from './sample-tables.js';
import { expireMinuteRollupDays, expireSampleDays, rowsBeforeDay } from './postgres/samples-retention.js';

const Day = 86_400_000;
const Hour = 3_600_000;
const MinuteResolution = 60_000;

export interface RetentionDays {
  rawDays: number;
  minuteDays: number;
}

export const DefaultRetention: RetentionDays = { rawDays: 30, minuteDays: 400 };

/**
 * Where each tier starts: raw samples and 1-minute rows before these times are gone (or
 * going). Whole hours, so that every rollup level's rows end on them.
 */
export interface Horizons {
  raw: number;
  minute: number;
}

export function horizonsAt(now: number, days: RetentionDays): Horizons {
  const at = (d: number) => Math.floor((now - d * Day) / Hour) * Hour;
  return { raw: at(days.rawDays), minute: at(Math.max(days.minuteDays, days.rawDays)) };
}

// What each store has expired so far, for the read path (buckets.ts reads older ranges from
// the tier that still holds them). Per store: tests open several in one process.
const expired = new WeakMap<object, Horizons>();

/** Raw samples and 1-minute rows before these times were expired from this store (-Infinity: none). */
export function expiredHorizons(store: object): Horizons {
  return expired.get(store) ?? { raw: -Infinity, minute: -Infinity };
}

export interface ExpiryReport {
  samples: number;
  minuteRows: number;
  transactions: number;
  /** The longest single transaction (ms): how long a flush could have waited behind expiry. */
  longestMs: number;
  /** The median transaction (ms). */
  medianMs: number;
}

/** Time per delete transaction for raw samples and for 1-minute rows (one session each). */
const SampleSliceMs = 10 * 60_000;
const MinuteSliceMs = Day;

/** Deletes raw samples and 1-minute rows older than their tiers, one small transaction at a time. */
export async function expireOnce(store: Store, now: number, days: RetentionDays): Promise<ExpiryReport> {
  const h = horizonsAt(now, days);
  const pool = pgPoolOf(store);
  if (pool) return expireDaysPg(store, pool, h);
  const prev = expiredHorizons(store);
  const report: ExpiryReport = { samples: 0, minuteRows: 0, transactions: 0, longestMs: 0, medianMs: 0 };
  const took: number[] = [];
  // `which`: the rows of the tier (a WHERE clause on the owner columns, or TRUE).
  const expire = async (table: string, which: string, horizon: number, slice: number): Promise<number> => {
    const old = await store.read((q: Queryable) =>
      q.all<{ sid: number; t: number; n: number }>(
        `SELECT session_id AS sid, min(time) AS t, count(*)::DOUBLE AS n FROM ${table} WHERE ${which} AND time < $1 GROUP BY 1 ORDER BY 1`,
        [horizon],
      ),
    );
    // The read path switches to the coarser tier before the rows go; only once a tier really
    // lost rows, so data written later with old times (an import) reads as written until then.
    if (old.length) expired.set(store, table === 'samples' ? { ...expiredHorizons(store), raw: Math.max(prev.raw, horizon) } : { ...expiredHorizons(store), minute: Math.max(prev.minute, horizon) });
    for (const { sid, t } of old) {
      for (let a = Math.floor(t / slice) * slice; a < horizon; a += slice) {
        const t0 = performance.now();
        await store.transaction((q) => q.run(`DELETE FROM ${table} WHERE ${which} AND session_id = $1 AND time >= $2 AND time < $3`, [sid, a, Math.min(a + slice, horizon)]), {
          background: true,
        });
        took.push(performance.now() - t0);
        // Let the ingest flushes and requests queued meanwhile go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return old.reduce((sum, o) => sum + o.n, 0);
  };
  report.samples = await expire('samples', 'TRUE', h.raw, SampleSliceMs);
  report.minuteRows = await expire('rollups', `resolution = ${MinuteResolution}`, h.minute, MinuteSliceMs);
  // Reads cached before those rows went must not answer again (closed-reads.ts). Reads of
  // ranges before the new horizon already use the coarser rows (buckets.ts); this also
  // covers a read that was under way while the rows went.
  if (report.minuteRows > 0) closedReads(store).clear();
  took.sort((a, b) => a - b);
  report.transactions = took.length;
  report.longestMs = took.at(-1) ?? 0;
  report.medianMs = took[Math.floor(took.length / 2)] ?? 0;
  return report;
}

/**
 * PostgreSQL: a tier's days wholly before its horizon go by dropping their partitions
 * (postgres/samples-retention.ts), one transaction a day: whole UTC days, so raw samples stay
 * up to a day longer than rawDays (docs/store.md "Samples on PostgreSQL"). The read path
 * switches to the coarser tier (the start of the first day kept) before the days go.
 */
async function expireDaysPg(store: Store, pool: import('pg').Pool, h: Horizons): Promise<ExpiryReport> {
  const report: ExpiryReport = { samples: 0, minuteRows: 0, transactions: 0, longestMs: 0, medianMs: 0 };
  const took: number[] = [];
  const dayStart = (t: number) => Math.floor(t / Day) * Day;
  const tier = async (kind: 'raw' | 'minute', horizon: number, drop: typeof expireSampleDays): Promise<number> => {
    const n = await rowsBeforeDay(pool, kind, horizon);
    if (n > 0) expired.set(store, { ...expiredHorizons(store), [kind]: Math.max(expiredHorizons(store)[kind], dayStart(horizon)) });
    const dropped = await drop(pool, horizon);
    for (const _ of dropped.days) took.push(dropped.longestMs);
    return n;
  };
  report.samples = await tier('raw', h.raw, expireSampleDays);
  report.minuteRows = await tier('minute', h.minute, expireMinuteRollupDays);
  if (report.minuteRows > 0) closedReads(store).clear();
  took.sort((a, b) => a - b);
  report.transactions = took.length;
  report.longestMs = took.at(-1) ?? 0;
  report.medianMs = took[Math.floor(took.length / 2)] ?? 0;
  return report;
}
