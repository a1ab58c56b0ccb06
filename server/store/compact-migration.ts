// Migration 5's conversion of the samples and rollups tables to compact columns (latencies as
// integer microseconds, docs/store.md "Compact samples"), in place and in batches: a database
// of a year of samples does not fit one transaction's undo, and a start that is killed
// half-way must not begin again from nothing. Each batch copies the rows of one time window
// into the new table and records, in the same transaction, how far the copy went; a start
// after a kill goes on from there. The old tables are not written meanwhile (migrations run
// before ingest starts), so the windows, cut at equal spans of time, are the same on every
// start. The migration's own statements then swap the tables in one transaction.
import type { Queryable } from './db.js';
import { latencyMicrosSql } from './latency-micros.js';

/** Progress lines for the log ("migration 5: samples 2,000,000 of 21,772,800 rows"). */
export type MigrationLog = (line: string) => void;

export interface ConvertOptions {
  /** About this many rows per transaction. */
  batchRows: number;
  log: MigrationLog;
}

interface CompactCopy {
  from: string;
  to: string;
  /** The new table as migration 5 makes it (its own words: later migrations change it). */
  create: string;
  /** The select list that converts a row of the old table. */
  select: string;
}

const micros = latencyMicrosSql;
const sumMicros = (c: string) => `round(${c} * 1000)::BIGINT`;

export const CompactCopies: CompactCopy[] = [
  {
    from: 'samples',
    to: 'samples_compact',
    create: `CREATE TABLE IF NOT EXISTS samples_compact (
       session_id INTEGER NOT NULL,
       time DOUBLE NOT NULL,
       hop SMALLINT NOT NULL,
       latency INTEGER NOT NULL)`,
    select: `session_id, time, hop, ${micros('latency')}`,
  },
  {
    from: 'rollups',
    to: 'rollups_compact',
    create: `CREATE TABLE IF NOT EXISTS rollups_compact (
       resolution INTEGER NOT NULL,
       session_id INTEGER NOT NULL,
       time DOUBLE NOT NULL,
       hop SMALLINT NOT NULL,
       count INTEGER NOT NULL,
       lost INTEGER NOT NULL,
       sum BIGINT NOT NULL,
       min INTEGER,
       max INTEGER,
       first INTEGER,
       last_valid INTEGER,
       jitter_sum BIGINT NOT NULL,
       jitter_pairs INTEGER NOT NULL,
       last INTEGER,
       flags INTEGER NOT NULL)`,
    select: [
      'resolution, session_id, time, hop, count, lost',
      sumMicros('sum'),
      ...['min', 'max', 'first', 'last_valid'].map(micros),
      sumMicros('jitter_sum'),
      'jitter_pairs',
      micros('last'),
      'flags',
    ].join(', '),
  },
];

/** The statements that replace the old tables by the copies (Migration.up of migration 5). */
export const CompactSwap: string[] = [
  ...CompactCopies.flatMap((c) => [`DROP TABLE ${c.from}`, `ALTER TABLE ${c.to} RENAME TO ${c.from}`]),
  'DROP TABLE compact_progress',
];

/** Copies every old table into its compact table, batch by batch, going on from a killed start. */
export async function convertToCompact(q: Queryable, opts: ConvertOptions): Promise<void> {
  await q.run(`CREATE TABLE IF NOT EXISTS compact_progress (
    table_name VARCHAR PRIMARY KEY, copied_until DOUBLE, rows BIGINT NOT NULL, done BOOLEAN NOT NULL)`);
  for (const c of CompactCopies) await copyTable(q, c, opts);
}

async function copyTable(q: Queryable, c: CompactCopy, { batchRows, log }: ConvertOptions): Promise<void> {
  await q.run(c.create);
  const progress = await q.one<{ copiedUntil: number; rows: number; done: boolean }>(
    'SELECT copied_until AS "copiedUntil", rows, done FROM compact_progress WHERE table_name = $1',
    [c.from],
  );
  if (progress?.done) return;
  const span = (await q.one<{ n: number; lo: number | null; hi: number | null }>(`SELECT count(*) AS n, min(time) AS lo, max(time) AS hi FROM ${c.from}`))!;
  const n = span.n;
  let from = progress?.copiedUntil ?? -Infinity;
  let copied = progress?.rows ?? 0;
  // Nothing to convert (a fresh install): say nothing (issue 41 item 12).
  if (n > 0 && !progress) log(`migration 5: converting ${c.from} (${n.toLocaleString('en')} rows) to compact columns, in batches of about ${batchRows.toLocaleString('en')}`);
  else if (n > 0) log(`migration 5: going on with ${c.from} after ${copied.toLocaleString('en')} of ${n.toLocaleString('en')} rows`);
  // Windows of time: equal spans, one per batch's worth of rows on average, and a window that
  // holds more than a batch is halved until it does not (rows are not spread evenly over
  // time). A quantile of time would cut them evenly but costs a sort of the whole table (11 s
  // for 10 M rows here). The same table gives the same windows on every start.
  const windows: [number, number][] = [];
  if (span.lo !== null && span.hi !== null) {
    const count = Math.max(1, Math.ceil(n / batchRows));
    const end = span.hi + 1;
    for (let i = 0; i < count; i++) windows.push([span.lo + Math.floor((i * (end - span.lo)) / count), i === count - 1 ? end : span.lo + Math.floor(((i + 1) * (end - span.lo)) / count)]);
  }
  while (windows.length) {
    const [start, stop] = windows.shift()!;
    if (stop <= from) continue; // copied before a kill
    const lo = Math.max(start, from);
    const params = [lo, stop];
    const { k } = (await q.one<{ k: number }>(`SELECT count(*) AS k FROM ${c.from} WHERE time >= $1 AND time < $2`, params))!;
    if (k > batchRows && stop - start > 1) {
      const mid = start + Math.floor((stop - start) / 2);
      windows.unshift([start, mid], [mid, stop]);
      continue;
    }
    await q.run('BEGIN TRANSACTION');
    try {
      // ORDER BY rowid: the copy keeps the rows' order within the window (rollup reads rely on
      // insertion order being time order per session and level, sources.ts).
      await q.run(`INSERT INTO ${c.to} SELECT ${c.select} FROM ${c.from} WHERE time >= $1 AND time < $2 ORDER BY rowid`, params);
      copied += k;
      await q.run('INSERT OR REPLACE INTO compact_progress VALUES ($1, $2, $3, false)', [c.from, stop, copied]);
      await q.run('COMMIT');
    } catch (err) {
      await q.run('ROLLBACK');
      throw err;
    }
    from = stop;
    log(`migration 5: ${c.from} ${copied.toLocaleString('en')} of ${n.toLocaleString('en')} rows (${n ? Math.round((copied / n) * 100) : 100}%)`);
  }
  if (copied !== n) throw new Error(`migration 5: copied ${copied} of the ${n} rows of ${c.from}; the old table is kept, nothing was dropped`);
  await q.run('INSERT OR REPLACE INTO compact_progress VALUES ($1, $2, $3, true)', [c.from, from, copied]);
}
