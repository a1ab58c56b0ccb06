// Samples in day and hop order (migration 18, docs/store.md "Sample order"). Ingest appends
// samples in time order: the 30 hops of a round side by side, so DuckDB's bit-packing sees the
// hop number cycle (about 6 bits a sample) and every hop's latencies mixed in one frame. Rows of
// one session and one UTC day sorted by hop, then time, compress to about two thirds: the hop
// is one run per hop, the time (integer ms) a near-constant step, and a frame of latencies
// holds one hop's. Closed days are rewritten in that order (`packSamples`); migration 18
// converts an existing table the same way (`convertSampleOrder`), in batches, resumable.
//
// Reads do not care: every read of samples orders by time and hop (sources.ts,
// state-loader.ts) or aggregates. Only the days before the pack mark are in hop order: today's
// samples stay in arrival order until the day is closed.
import type { Queryable, Store } from './db.js';
import type { ConvertOptions } from './compact-migration.js';

export const DayMs = 86_400_000;
/** A day is packed once it ended this long before the session's latest sample (late rounds). */
export const PackGraceMs = 2 * 3_600_000;

/** The samples table as migration 18 makes it: time as integer ms. */
const CreateOrdered = `CREATE TABLE IF NOT EXISTS samples_ordered (
  session_id INTEGER NOT NULL,
  time BIGINT NOT NULL,
  hop SMALLINT NOT NULL,
  latency INTEGER NOT NULL)`;

/**
 * Migration 18's conversion: copies `samples` into `samples_ordered` one UTC day at a time
 * (a day of many sessions is cut into runs of whole sessions of about batchRows rows), each
 * batch in session, hop and time order and in a transaction of its own that records how far
 * the copy went (`sample_order_progress`). The old table is not written meanwhile (migrations
 * run before ingest), so the batches are the same on every start and a killed start goes on
 * after the last committed one.
 */
export async function convertSampleOrder(q: Queryable, { batchRows, log }: ConvertOptions): Promise<void> {
  await q.run(CreateOrdered);
  await q.run(`CREATE TABLE IF NOT EXISTS sample_order_progress (day DOUBLE NOT NULL, session_id INTEGER NOT NULL, rows BIGINT NOT NULL)`);
  const progress = await q.one<{ day: number; sid: number; rows: number }>('SELECT day, session_id AS sid, rows FROM sample_order_progress');
  const parts = await q.all<{ day: number; sid: number; n: number }>(
    `SELECT floor(time / ${DayMs}) * ${DayMs} AS day, session_id AS sid, count(*)::DOUBLE AS n FROM samples GROUP BY ALL ORDER BY day, sid`,
  );
  const total = parts.reduce((s, p) => s + p.n, 0);
  let copied = progress?.rows ?? 0;
  // Nothing to order (a fresh install): say nothing (issue 41 item 12).
  if (total > 0 && !progress) log(`migration 18: ordering samples (${total.toLocaleString('en')} rows) by day, session and hop, in batches of about ${batchRows.toLocaleString('en')}`);
  else if (total > 0) log(`migration 18: going on with samples after ${copied.toLocaleString('en')} of ${total.toLocaleString('en')} rows`);
  const done = (p: { day: number; sid: number }) => !!progress && (p.day < progress.day || (p.day === progress.day && p.sid <= progress.sid));
  let i = 0;
  while (i < parts.length) {
    // One batch: consecutive sessions of one day, about batchRows rows (at least one session).
    const day = parts[i].day;
    let j = i;
    let rows = 0;
    do rows += parts[j++].n;
    while (j < parts.length && parts[j].day === day && rows + parts[j].n <= batchRows);
    const batch = parts.slice(i, j).filter((p) => !done(p));
    i = j;
    if (!batch.length) continue;
    const n = batch.reduce((s, p) => s + p.n, 0);
    const last = batch.at(-1)!;
    await q.run('BEGIN TRANSACTION');
    try {
      await q.run(
        `INSERT INTO samples_ordered SELECT session_id, round(time)::BIGINT, hop, latency FROM samples
         WHERE time >= $1 AND time < $2 AND session_id BETWEEN $3 AND $4 ORDER BY session_id, hop, time`,
        [day, day + DayMs, batch[0].sid, last.sid],
      );
      copied += n;
      await q.run('DELETE FROM sample_order_progress');
      await q.run('INSERT INTO sample_order_progress VALUES ($1, $2, $3)', [day, last.sid, copied]);
      await q.run('COMMIT');
    } catch (err) {
      await q.run('ROLLBACK');
      throw err;
    }
    log(`migration 18: samples ${copied.toLocaleString('en')} of ${total.toLocaleString('en')} rows (${total ? Math.round((copied / total) * 100) : 100}%)`);
  }
  const { n } = (await q.one<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM samples_ordered'))!;
  if (n !== total) throw new Error(`migration 18: copied ${n} of the ${total} samples; the old table is kept, nothing was dropped`);
}

/**
 * Migration 18's statements after the copy: the ordered table replaces `samples`, and every
 * session's days that ended before the grace are marked packed (the copy ordered them).
 */
export const SampleOrderSwap: string[] = [
  'DROP TABLE samples',
  'ALTER TABLE samples_ordered RENAME TO samples',
  'DROP TABLE sample_order_progress',
  // Per session: samples before packed_until (a UTC midnight) are in hop order.
  `CREATE TABLE sample_packing (session_id INTEGER NOT NULL, packed_until DOUBLE NOT NULL)`,
  `INSERT INTO sample_packing
     SELECT session_id, floor((max(time) - ${PackGraceMs}) / ${DayMs}) * ${DayMs} FROM samples GROUP BY session_id`,
];

export interface PackReport {
  /** Session days rewritten in hop order. */
  days: number;
  rows: number;
  transactions: number;
  /** The longest single transaction (ms): how long a flush could have waited behind packing. */
  longestMs: number;
  medianMs: number;
}

/**
 * Rewrites in hop order every closed day of every session (a day that ended PackGraceMs before
 * the session's latest sample and is not packed yet). One session day per transaction, whole:
 * its rows selected in hop and time order into a temporary table, deleted, appended again, the
 * mark moved, all on the store's side connection (Store.side), so the ingest flushes go on
 * beside it instead of waiting. Whole days, because packing a day in several transactions kept
 * most of the bytes it should save (one target over 5 days packed daily, plain DuckDB: 3.24
 * bytes per sample in transactions of 4 hops, 2.68 in one per day, 3.29 never packed).
 * A failed transaction (a session deleted meanwhile) changes nothing and is tried again at the
 * next run; so is a day a stop or kill interrupted.
 */
export async function packSamples(store: Store, opts: { until?: number; stopped?: () => boolean } = {}): Promise<PackReport> {
  const report: PackReport = { days: 0, rows: 0, transactions: 0, longestMs: 0, medianMs: 0 };
  const took: number[] = [];
  const todo = await store.read((q) =>
    q.all<{ sid: number; from: number; latest: number }>(
      // The sessions' sample times as counted (no scan of the samples; sessions_counted adds
      // the tallies not folded yet).
      `SELECT s.id AS sid, coalesce(p.packed_until, floor(s.first_sample / ${DayMs}) * ${DayMs}) AS "from", s.latest_sample AS latest
       FROM sessions_counted s LEFT JOIN sample_packing p ON p.session_id = s.id
       WHERE s.first_sample IS NOT NULL AND s.latest_sample IS NOT NULL ORDER BY 1`,
    ),
  );
  for (const { sid, from, latest } of todo) {
    const until = Math.min(Math.floor((latest - PackGraceMs) / DayMs) * DayMs, opts.until ?? Infinity);
    for (let day = from; day + DayMs <= until; day += DayMs) {
      if (opts.stopped?.()) return finish(report, took);
      const t0 = performance.now();
      const rows = await store.side(async (q) => {
        await q.run('BEGIN TRANSACTION');
        try {
          const params = [sid, day, day + DayMs];
          const where = 'session_id = $1 AND time >= $2 AND time < $3';
          await q.run(`CREATE TEMP TABLE pack AS SELECT * FROM samples WHERE ${where} ORDER BY hop, time`, params);
          const { n } = (await q.one<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM pack'))!;
          await q.run(`DELETE FROM samples WHERE ${where}`, params);
          await q.run('INSERT INTO samples SELECT * FROM pack');
          await q.run('DROP TABLE pack');
          // Delete and insert (no key: DuckDB's keys dislike a row replaced in one transaction).
          await q.run('DELETE FROM sample_packing WHERE session_id = $1', [sid]);
          await q.run('INSERT INTO sample_packing VALUES ($1, $2)', [sid, day + DayMs]);
          await q.run('COMMIT');
          return n;
        } catch (err) {
          await q.run('ROLLBACK').catch(() => undefined);
          await q.run('DROP TABLE IF EXISTS pack').catch(() => undefined);
          throw err;
        }
      });
      took.push(performance.now() - t0);
      // Let the ingest flushes and requests queued meanwhile go first.
      await new Promise((resolve) => setImmediate(resolve));
      report.rows += rows;
      report.days++;
    }
  }
  return finish(report, took);
}

function finish(report: PackReport, took: number[]): PackReport {
  took.sort((a, b) => a - b);
  report.transactions = took.length;
  report.longestMs = took.at(-1) ?? 0;
  report.medianMs = took[Math.floor(took.length / 2)] ?? 0;
  return report;
}
