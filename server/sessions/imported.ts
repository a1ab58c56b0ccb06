// Sessions made by an import (issue 41 item 5): marked, so the sessions page tells them from
// the live session they were exported from, and ended where their data ends.
import type { Queryable } from '../store/db.js';

export async function markImported(q: Queryable, sessionId: number, at: number): Promise<void> {
  await q.run('INSERT INTO imported_sessions (session_id, imported_at) VALUES ($1, $2)', [sessionId, at]);
}
