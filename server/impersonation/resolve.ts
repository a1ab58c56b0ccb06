// Who a login session is: its user, or while it impersonates (and the rules still allow it)
// the impersonated user with the IsImpersonating claim. Shared by REST authentication and
// the hub's per-invocation check, so both doors see the same principal.
import { impersonating, principalOf, type Principal } from '../account/principal.js';
import type { Queryable } from '../store/db.js';
import { findUserById } from '../users/repository.js';
import { speaksForProvider } from '../account/provider.js';
import { findImpersonation } from './repository.js';
import { impersonationProblem } from './rules.js';

export async function principalOfSession(q: Queryable, userId: number, tokenHash: string): Promise<Principal | undefined> {
  const user = await findUserById(q, userId);
  if (!user) return undefined;
  const row = await findImpersonation(q, tokenHash);
  const target = row && row.actorUserId === user.id ? await findUserById(q, row.asUserId) : undefined;
  // A target deleted, made root or given more rights, or an actor who lost ImpersonateUser:
  // the session is its own user again (the row stays until cleared or the session ends).
  const principal = target && !impersonationProblem(user, target) ? impersonating(user, target) : principalOf(user);
  // Whose appliance-wide calls it may make (server/http/access.ts): the principal's own account, so an impersonator's never carries over.
  return { ...principal, loginSession: tokenHash, provider: await speaksForProvider(q, principal) };
}
