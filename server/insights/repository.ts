// SQL of the Insights area: the feedback table (migration 10).
import type { Queryable } from '../store/db.js';
import type { WisdomFeedback } from '../contract/insights.js';

export async function insertFeedback(q: Queryable, accountId: number, userId: number, f: WisdomFeedback, now: number): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO insight_feedback (account_id, user_id, session_id, rating, comments, help_requested, context_json, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [accountId, userId, f.SessionId, f.Rating, f.Comments, f.HelpRequested, f.ContextJson, now],
  );
  return row!.id;
}

export interface StoredFeedback {
  id: number;
  userId: number;
  sessionId: string;
  rating: number;
  comments: string;
  helpRequested: boolean;
  contextJson: string;
}

export async function feedbackOf(q: Queryable, accountId: number): Promise<StoredFeedback[]> {
  return q.all<StoredFeedback>(
    `SELECT id, user_id AS "userId", session_id AS "sessionId", rating, comments, help_requested AS "helpRequested", context_json AS "contextJson"
     FROM insight_feedback WHERE account_id = $1 ORDER BY id`,
    [accountId],
  );
}
