// When sessions are deleted for good (Sessions page, Delete), their summary memberships and
// comments go with them. Call inside the transaction that deletes the session rows.
import type { Queryable } from '../store/db.js';

export async function forgetSessions(q: Queryable, sessionIds: number[]): Promise<void> {
  // Whole numbers only, so the list can be written into the statement as literals.
  const ids = sessionIds.filter((id) => Number.isSafeInteger(id));
  if (!ids.length) return;
  const list = ids.join(', ');
  await q.run(`DELETE FROM summary_members WHERE session_id IN (${list})`);
  await q.run(`DELETE FROM comments WHERE session_id IN (${list})`);
}
