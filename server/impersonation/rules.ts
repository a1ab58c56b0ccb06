// Who may impersonate whom (issue 26): impersonation never climbs. The actor needs the
// ImpersonateUser claim; the user impersonated is of the same account (any account for Staff), is not root, is not
// the actor, and holds no claim the actor lacks. Checked at start and again on every
// request of the session (resolve.ts), so a later change of either user's rights ends it.
import { AssignableClaims, Claim } from '../contract/account.js';
import { principalOf } from '../account/principal.js';
import type { UserRecord } from '../users/repository.js';

/** Claims `target` holds that `actor` does not. */
export function claimsBeyond(actor: UserRecord, target: UserRecord): string[] {
  const held = principalOf(actor).claims;
  return principalOf(target).claims.filter((c) => (AssignableClaims as string[]).includes(c) && !held.includes(c));
}

/** Why `actor` may not impersonate `target`, or undefined when they may. */
export function impersonationProblem(actor: UserRecord, target: UserRecord): string | undefined {
  if (!principalOf(actor).claims.includes(Claim.ImpersonateUser)) return `This needs the ${Claim.ImpersonateUser} permission.`;
  // Staff (provider personnel) may impersonate a user of any account (issue 23).
  if (target.accountId !== actor.accountId && !principalOf(actor).claims.includes(Claim.Staff)) return `User ${target.id} not found.`;
  if (target.isRoot) return 'The root user cannot be impersonated.';
  if (target.id === actor.id) return 'You cannot impersonate yourself.';
  const beyond = claimsBeyond(actor, target);
  if (beyond.length) return `${target.email} holds permissions you do not have (${beyond.join(', ')}), so you cannot impersonate them.`;
  return undefined;
}
