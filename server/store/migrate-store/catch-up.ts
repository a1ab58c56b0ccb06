// migrate-store's catch-up pass (docs/deploy.md "Moving an appliance onto PostgreSQL"): the
// target holds a copy of a running appliance's snapshot; the same appliance (the same
// fingerprint, checked by target.ts) is run again, stopped now or snapshotted anew, and its data
// changed since. What changed is copied again, the rest kept:
// - every plain table, whole (they are small): emptied, and their chunk records dropped, so the
//   copy writes them again;
// - per session, its samples and rollup rows of every UTC day from the snapshot's time on
//   (less a margin: rows are written with times before their commit, below), and of any earlier
//   day whose rows the source counts differently from the copy (late uploads, retention): their
//   records are dropped, and each such chunk empties its session's day in PostgreSQL before it
//   writes it, in the chunk's transaction (copy.ts), so a kill and a rerun stay correct;
// - a session's day that the source no longer holds (retention, a deleted session) is removed.
// All in one transaction with the new source state: a kill before it leaves the earlier copy
// as it was, after it the rerun resumes the catch-up like any copy.
import type { Store } from '../db.js';
import { DayMs, HourMs, dayOf } from '../postgres/samples-schema.js';
import { deleteSessionDay } from './copy.js';
import type { Chunk } from './plan.js';

/**
 * Rows committed after a snapshot may carry times before it: the 1-hour rollup row of the hour
 * under way (written when it closes, timed at its start) and samples in the ingest's buffer.
 * Days from the snapshot's time less this are copied again.
 */
export const CatchUpMarginMs = 2 * HourMs;

export interface CatchUp {
  /** The first UTC day (number since 1970) copied again whole. */
  fromDay: number;
  /** Session days copied again, and removed. */
  again: number;
  gone: number;
}

/** Prepares the target for the catch-up (one transaction); the copy that follows writes what it dropped. */
export async function prepareCatchUp(
  target: Store,
  chunks: Chunk[],
  o: { since: number; state: string; sourcePath: string; nextSnapshotAt: number | null; tables: string[] },
): Promise<CatchUp> {
  const fromDay = dayOf(o.since - CatchUpMarginMs);
  const planned = new Map(chunks.filter((c) => c.kind === 'samples').map((c) => [c.key, c]));
  let again = 0;
  let gone = 0;
  await target.transaction(async (q) => {
    // Emptied together (users refer to accounts: a table's first chunk alone could not empty accounts).
    if (o.tables.length) await q.run(`TRUNCATE ${o.tables.map((t) => `"${t.replaceAll('"', '""')}"`).join(', ')}`);
    await q.run(`DELETE FROM migrate_store_chunks WHERE chunk LIKE 'table %'`);
    const recorded = await q.all<{ chunk: string; rows: number }>(`SELECT chunk, rows FROM migrate_store_chunks WHERE chunk LIKE 'samples %'`);
    for (const r of recorded) {
      const [, sid, day] = r.chunk.split(' ').map(Number);
      const now = planned.get(r.chunk);
      if (!now) {
        await deleteSessionDay(q, sid, day * DayMs, (day + 1) * DayMs);
        gone++;
      } else if (day >= fromDay || Number(r.rows) !== now.rows) again++;
      else continue;
      await q.run(`DELETE FROM migrate_store_chunks WHERE chunk = $1`, [r.chunk]);
    }
    await q.run(`UPDATE migrate_store_source SET state = $1, source_path = $2, next_snapshot_at = $3, finished_at = NULL`, [o.state, o.sourcePath, o.nextSnapshotAt]);
  });
  return { fromDay, again, gone };
}
