// Rows of sign_in_sessions (migration 16): one per sign-in, keyed to login_sessions by the
// token's hash (never the token). Written by the sign-in itself (server/account/service.ts).
import type { Queryable } from '../../store/db.js';
import type { SignInSession } from '../../contract/staff.js';
import { isoOf } from '../time.js';

/** Longest user agent kept: enough to tell browsers apart, not a place to store a payload. */
export const UserAgentMaxLength = 512;

export interface SignInRecord {
  tokenHash: string;
  userId: number;
  accountId: number;
  address: string;
  userAgent: string;
  persistent: boolean;
}

export async function insertSignIn(q: Queryable, r: SignInRecord): Promise<void> {
  await q.run(
    `INSERT INTO sign_in_sessions (token_hash, user_id, account_id, address, user_agent, persistent)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [r.tokenHash, r.userId, r.accountId, r.address, r.userAgent.slice(0, UserAgentMaxLength), r.persistent],
  );
}

export interface SignInFilter {
  id?: number;
  accountId?: number;
  userId?: number;
  activeOnly?: boolean;
  limit: number;
}

export async function listSignIns(q: Queryable, f: SignInFilter): Promise<SignInSession[]> {
  const rows = await q.all<Omit<SignInSession, 'SignedInAt' | 'RevokedAt'> & { SignedInAt: number; RevokedAt: number | null }>(
    `SELECT s.id AS "Id", s.user_id AS "UserId", coalesce(u.name, '') AS "UserName", s.account_id AS "AccountId",
            coalesce(a.name, '') AS "AccountName", epoch_ms(s.signed_in_at) AS "SignedInAt",
            s.address AS "Address", s.user_agent AS "UserAgent", s.persistent AS "Persistent",
            (l.token_hash IS NOT NULL AND l.expires_at > now()) AS "Active",
            epoch_ms(s.revoked_at) AS "RevokedAt",
            s.revoked_by AS "RevokedBy"
     FROM sign_in_sessions s
     LEFT JOIN users u ON u.id = s.user_id
     LEFT JOIN accounts a ON a.id = s.account_id
     LEFT JOIN login_sessions l ON l.token_hash = s.token_hash
     WHERE ($1::INTEGER IS NULL OR s.account_id = $1) AND ($2::INTEGER IS NULL OR s.user_id = $2)
       AND (NOT $3 OR (l.token_hash IS NOT NULL AND l.expires_at > now())) AND ($5::INTEGER IS NULL OR s.id = $5)
     ORDER BY s.signed_in_at DESC, s.id DESC LIMIT $4`,
    [f.accountId ?? null, f.userId ?? null, f.activeOnly ?? false, f.limit, f.id ?? null],
  );
  return rows.map((r) => ({
    ...r,
    Id: Number(r.Id),
    Active: Boolean(r.Active),
    SignedInAt: isoOf(r.SignedInAt)!,
    RevokedAt: isoOf(r.RevokedAt),
  }));
}

export async function findSignIn(q: Queryable, id: number): Promise<{ tokenHash: string; userId: number; revoked: boolean } | undefined> {
  return q.one(`SELECT token_hash AS "tokenHash", user_id AS "userId", revoked_at IS NOT NULL AS revoked FROM sign_in_sessions WHERE id = $1`, [id]);
}

/** Ends the login session (and an impersonation it held) and marks the record revoked. */
export async function revokeSignIn(q: Queryable, id: number, tokenHash: string, by: string): Promise<void> {
  await q.run('DELETE FROM login_sessions WHERE token_hash = $1', [tokenHash]);
  await q.run('DELETE FROM impersonations WHERE token_hash = $1', [tokenHash]);
  await q.run('UPDATE sign_in_sessions SET revoked_at = now(), revoked_by = $2 WHERE id = $1', [id, by]);
}

/** Records older than the longest login session (30 days) and ended: nothing to revoke, kept 90 days. */
export async function purgeOldSignIns(q: Queryable): Promise<void> {
  await q.run(`DELETE FROM sign_in_sessions WHERE signed_in_at < now() - INTERVAL '90 days'`);
}
