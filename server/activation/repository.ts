// Rows of activation_links (migration 13) and the queries on them. Tokens never reach this
// file: only their SHA-256 (tokenHash) does.
import type { Queryable } from '../store/db.js';

/** Why a link stopped working before it expired. */
export type EndReason = 'used' | 'replaced';

export interface ActivationLinkRecord {
  tokenHash: string;
  userId: number;
  accountId: number;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
  endReason: EndReason | null;
}

/** Ended and expired rows are kept this long, so an old link still says why it fails. */
export const KeepEndedLinksMs = 30 * 24 * 3600_000;

export async function insertLink(q: Queryable, l: { tokenHash: string; userId: number; accountId: number; sentBy: number; createdAt: number; expiresAt: number }): Promise<void> {
  await q.run(
    `INSERT INTO activation_links (token_hash, user_id, account_id, sent_by_user_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [l.tokenHash, l.userId, l.accountId, l.sentBy, l.createdAt, l.expiresAt],
  );
}

export async function findLink(q: Queryable, tokenHash: string): Promise<ActivationLinkRecord | undefined> {
  const row = await q.one<Record<string, unknown>>(
    `SELECT token_hash AS "tokenHash", user_id AS "userId", account_id AS "accountId", created_at AS "createdAt",
            expires_at AS "expiresAt", ended_at AS "endedAt", end_reason AS "endReason"
     FROM activation_links WHERE token_hash = $1`,
    [tokenHash],
  );
  if (!row) return undefined;
  return {
    ...(row as unknown as ActivationLinkRecord),
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    endedAt: row.endedAt === null ? null : Number(row.endedAt),
  };
}

/** Ends every link of the user still open (a newer link replaces them; a use ends them all). */
export async function endOpenLinksOfUser(q: Queryable, userId: number, reason: EndReason, now: number): Promise<void> {
  await q.run(`UPDATE activation_links SET ended_at = $2, end_reason = $3 WHERE user_id = $1 AND ended_at IS NULL`, [userId, now, reason]);
}

/** Forgets links that ended or expired long ago. */
export async function deleteOldLinks(q: Queryable, now: number): Promise<void> {
  await q.run(`DELETE FROM activation_links WHERE coalesce(ended_at, expires_at) < $1`, [now - KeepEndedLinksMs]);
}

export async function deleteLinksOfUser(q: Queryable, userId: number): Promise<void> {
  await q.run('DELETE FROM activation_links WHERE user_id = $1', [userId]);
}
