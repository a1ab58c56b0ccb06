// Deleting sessions for good, and finding the ones retention removes.
import type { Queryable } from '../store/db.js';
import { forgetSessions } from '../summaries/forget-sessions.js';
import { SessionState } from '../contract/sessions.js';

/**
 * Every row of the sessions: samples, rollups and their marks, tallies not folded yet,
 * hosts, hop hosts (server/hop-details), route changes, comments, summary memberships, then the sessions rows. Call
 * inside one transaction, so a failure deletes nothing.
 */
export async function deleteSessionRows(q: Queryable, sessionIds: number[]): Promise<void> {
  const ids = sessionIds.filter((id) => Number.isSafeInteger(id));
  if (!ids.length) return;
  const list = `[${ids.join(',')}]`;
  for (const table of ['samples', 'rollups', 'rollup_marks', 'sample_tallies', 'hosts', 'hop_hosts', 'route_changes']) {
    await q.run(`DELETE FROM ${table} WHERE list_contains($1::INTEGER[], session_id)`, [list]);
  }
  await forgetSessions(q, ids);
  await q.run('DELETE FROM sessions WHERE list_contains($1::INTEGER[], id)', [list]);
}

/** Closed sessions that ended (or, without an end, last sampled or started) before `cutoff`, by account. */
export function closedBefore(q: Queryable, cutoff: number): Promise<{ id: number; accountId: number }[]> {
  return q.all(
    `SELECT id, account_id AS "accountId" FROM sessions_counted
     WHERE state = $1 AND coalesce(end_time, latest_sample, start_time) < $2 ORDER BY id`,
    [SessionState.Archived, cutoff],
  );
}

/** Sessions left half-imported by a stop during an import (state Will Delete). */
export function leftoverImports(q: Queryable): Promise<{ id: number; accountId: number }[]> {
  return q.all(`SELECT id, account_id AS "accountId" FROM sessions WHERE state = $1 ORDER BY id`, [SessionState.WillDelete]);
}
