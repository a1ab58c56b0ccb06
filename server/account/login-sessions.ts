// Login sessions: an opaque random token in an httpOnly cookie; only its SHA-256 is stored,
// so a copy of the database does not hand out live sessions.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../store/db.js';

export const SessionCookie = 'hopwatch_session';
/** RememberMe keeps the cookie (and the session) for 30 days. */
export const PersistentSessionSeconds = 30 * 24 * 3600;
/** A browser-session cookie still has a server-side limit, renewed on use. */
export const BrowserSessionSeconds = 12 * 3600;

/** What the store keeps of a token, and what names a login session elsewhere (never the token). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createLoginSession(q: Queryable, userId: number, persistent: boolean): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const seconds = persistent ? PersistentSessionSeconds : BrowserSessionSeconds;
  await q.run(
    `INSERT INTO login_sessions (token_hash, user_id, persistent, expires_at)
     VALUES ($1, $2, $3, now() + to_seconds($4::BIGINT))`,
    [hashToken(token), userId, persistent, seconds],
  );
  return token;
}

/**
 * The user of a live session, or undefined; `renew`: a browser session past half its life,
 * to slide forward with renewLoginSession (a write, so it is left to the caller).
 */
export async function findLoginSession(q: Queryable, token: string): Promise<LiveLoginSession | undefined> {
  return findLoginSessionByHash(q, hashToken(token));
}

export interface LiveLoginSession {
  userId: number;
  renew: boolean;
  /** RememberMe: never slid forward. */
  persistent: boolean;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** As findLoginSession, by the token's hash (what hub connections hold). */
export async function findLoginSessionByHash(q: Queryable, tokenHash: string): Promise<LiveLoginSession | undefined> {
  const row = await q.one<{ userId: number; persistent: boolean; renew: boolean; expiresAt: number }>(
    `SELECT user_id AS "userId", persistent,
            expires_at < now() + to_seconds($2::BIGINT / 2) AS renew,
            epoch_ms(expires_at) AS "expiresAt"
     FROM login_sessions WHERE token_hash = $1 AND expires_at > now()`,
    [tokenHash, BrowserSessionSeconds],
  );
  return row && { userId: row.userId, renew: !row.persistent && row.renew, persistent: row.persistent, expiresAt: Number(row.expiresAt) };
}

export async function renewLoginSession(q: Queryable, token: string): Promise<void> {
  await q.run(`UPDATE login_sessions SET expires_at = now() + to_seconds($2::BIGINT) WHERE token_hash = $1`, [hashToken(token), BrowserSessionSeconds]);
}

export async function deleteLoginSession(q: Queryable, token: string): Promise<void> {
  await q.run('DELETE FROM login_sessions WHERE token_hash = $1', [hashToken(token)]);
}

/** Ends every login session of the user but `keepHash`'s (all of them when undefined). */
export async function deleteOtherLoginSessions(q: Queryable, userId: number, keepHash: string | undefined): Promise<void> {
  await q.run('DELETE FROM login_sessions WHERE user_id = $1 AND token_hash <> $2', [userId, keepHash ?? '']);
}

export async function purgeExpiredLoginSessions(q: Queryable): Promise<void> {
  await q.run('DELETE FROM login_sessions WHERE expires_at <= now()');
}
