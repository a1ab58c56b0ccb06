// SQL of comments. A comment belongs to a target (session); callers check the account.
import type { Queryable } from '../store/db.js';

export interface CommentRecord {
  id: number;
  sessionId: number;
  whenMs: number;
  text: string;
  type: number;
  extraAttributesJson: string;
}

const columns = `c.id, c.session_id AS "sessionId", c.when_ms AS "whenMs", c.text, c.type,
  c.extra_attributes_json AS "extraAttributesJson"`;

export async function insertComment(q: Queryable, c: Omit<CommentRecord, 'id'>, createdBy: number): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO comments (session_id, when_ms, text, type, extra_attributes_json, created_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [c.sessionId, c.whenMs, c.text, c.type, c.extraAttributesJson, createdBy, Date.now()],
  );
  return row!.id;
}

export async function updateComment(q: Queryable, c: CommentRecord): Promise<void> {
  await q.run(
    'UPDATE comments SET when_ms = $2, text = $3, type = $4, extra_attributes_json = $5, updated_at = $6 WHERE id = $1',
    [c.id, c.whenMs, c.text, c.type, c.extraAttributesJson, Date.now()],
  );
}

export async function deleteComment(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM comments WHERE id = $1', [id]);
}

/** A comment whose target belongs to the account. */
export function findComment(q: Queryable, accountId: number, id: number): Promise<CommentRecord | undefined> {
  return q.one<CommentRecord>(
    `SELECT ${columns} FROM comments c JOIN sessions x ON x.id = c.session_id WHERE c.id = $1 AND x.account_id = $2`,
    [id, accountId],
  );
}

/** Comments of a target from start to end inclusive, in time order. */
export function commentsBetween(q: Queryable, sessionId: number, startMs: number, endMs: number): Promise<CommentRecord[]> {
  return q.all<CommentRecord>(
    `SELECT ${columns} FROM comments c WHERE c.session_id = $1 AND c.when_ms BETWEEN $2 AND $3 ORDER BY c.when_ms, c.id`,
    [sessionId, startMs, endMs],
  );
}
