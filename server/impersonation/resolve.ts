// Who a login session is: its user, or while it impersonates (and the rules still allow it)
// the impersonated user with the IsImpersonating claim. Shared by REST authentication and
// the hub's per-invocation check, so both doors see the same principal.
import { impersonating, principalOf, type Principal } from '../account/principal.js';
import type { Queryable } from '../store/db.js';
import { findUserById, userColumns, type UserRecord } from '../users/repository.js';
import { BrowserSessionSeconds, type LiveLoginSession } from '../account/login-sessions.js';
import { speaksForProvider } from '../account/provider.js';
import { findImpersonation, type ImpersonationRow } from './repository.js';
import { impersonationProblem } from './rules.js';

export async function principalOfSession(q: Queryable, userId: number, tokenHash: string): Promise<Principal | undefined> {
  const user = await findUserById(q, userId);
  if (!user) return undefined;
  return principalOfUser(q, user, await findImpersonation(q, tokenHash), tokenHash);
}

/** The principal of a session's user and its impersonation row (if any); `provider`: the user's own account's flag, when already read. */
async function principalOfUser(q: Queryable, user: UserRecord, row: ImpersonationRow | undefined, tokenHash: string, provider?: boolean): Promise<Principal> {
  const target = row && row.actorUserId === user.id ? await findUserById(q, row.asUserId) : undefined;
  // A target deleted, made root or given more rights, or an actor who lost ImpersonateUser:
  // the session is its own user again (the row stays until cleared or the session ends).
  const principal = target && !impersonationProblem(user, target) ? impersonating(user, target) : principalOf(user);
  // Whose appliance-wide calls it may make (server/http/access.ts): the principal's own account, so an impersonator's never carries over.
  const own = principal.accountId === user.accountId && principal.isRoot === user.isRoot && provider !== undefined;
  return { ...principal, loginSession: tokenHash, provider: own ? provider : await speaksForProvider(q, principal) };
}

/**
 * A live login session and who it is now (findLoginSessionByHash, then principalOfSession), in
 * one statement unless it impersonates: every signed-in request and hub sign-in starts here,
 * and the session, its user, its impersonation row and the account's provider flag were three
 * or four statements (issue 45 item 7: the soak's 50 consoles made 150 a second of them).
 */
export async function signedInSession(q: Queryable, tokenHash: string): Promise<{ session: LiveLoginSession; principal: Principal } | undefined> {
  const row = await q.one<{
    persistent: boolean;
    renew: boolean;
    expiresAt: number;
    actorUserId: number | null;
    asUserId: number | null;
    provider: boolean | null;
  } & Omit<UserRecord, 'roles'> & { roles: string[] | null }>(
    `SELECT ${userColumns('u.')},
            ls.persistent, ls.expires_at < now() + to_seconds($2::BIGINT / 2) AS renew, epoch_ms(ls.expires_at) AS "expiresAt",
            i.actor_user_id AS "actorUserId", i.as_user_id AS "asUserId", ap.provider
     FROM login_sessions ls
     JOIN users u ON u.id = ls.user_id
     LEFT JOIN impersonations i ON i.token_hash = ls.token_hash
     LEFT JOIN account_plans ap ON ap.account_id = u.account_id
     WHERE ls.token_hash = $1 AND ls.expires_at > now()`,
    [tokenHash, BrowserSessionSeconds],
  );
  if (!row) return undefined;
  // Only the user's fields (the row also holds the session's and the impersonation's).
  const user: UserRecord = {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    email: row.email,
    passwordHash: row.passwordHash,
    roles: [...(row.roles ?? [])],
    isRoot: row.isRoot,
    tempPassword: row.tempPassword,
  };
  const session: LiveLoginSession = { userId: user.id, renew: !row.persistent && row.renew, persistent: row.persistent, expiresAt: Number(row.expiresAt) };
  const impersonation = row.actorUserId === null || row.asUserId === null ? undefined : { actorUserId: row.actorUserId, asUserId: row.asUserId };
  return { session, principal: await principalOfUser(q, user, impersonation, tokenHash, user.isRoot || row.provider === true) };
}
