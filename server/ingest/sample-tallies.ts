// Per-session sample counters without an UPDATE per flush: each flush appends one tally row
// per sampled session (count, first and latest sample time) in its own transaction, and the
// tallies are folded into the sessions row with each group of rollup rows and at start.
// Readers see both through the sessions_counted view (migration 4). An UPDATE of the wide,
// indexed sessions row in every flush cost about 8% of the ingest (bench:store, 2026-11-22).
import { DOUBLE, INTEGER } from '@duckdb/node-api';
import type { Connection, Queryable } from '../store/db.js';
import { appendColumns } from '../store/append-columns.js';
import { holdAppends } from '../store/dialect.js';

export interface SessionTally {
  sessionId: number;
  count: number;
  first: number;
  last: number;
}

export function appendTallies(conn: Connection, tallies: SessionTally[]): Promise<void> {
  return appendColumns(conn, 'sample_tallies', tallies.length, [
    { type: INTEGER, values: Int32Array.from(tallies, (t) => t.sessionId) },
    { type: INTEGER, values: Int32Array.from(tallies, (t) => t.count) },
    { type: DOUBLE, values: Float64Array.from(tallies, (t) => Math.round(t.first)) },
    { type: DOUBLE, values: Float64Array.from(tallies, (t) => Math.round(t.last)) },
  ]);
}

/**
 * Folds every tally into its sessions row (inside the caller's transaction). The counters come
 * from sessions_counted, so the rule that combines a session's tallies is written once, there.
 */
export async function foldTallies(q: Queryable): Promise<void> {
  // The tallies folded are the tallies deleted: no append may land between the two statements.
  await holdAppends(q, 'sample_tallies');
  await q.run(
    `UPDATE sessions SET sample_count = c.sample_count, first_sample = c.first_sample, latest_sample = c.latest_sample
     FROM sessions_counted c
     WHERE sessions.id = c.id AND c.id IN (SELECT session_id FROM sample_tallies)`,
  );
  await q.run('DELETE FROM sample_tallies');
}
