// Who is asking: resolved once per request (or hub connection) from the session cookie.
import { AssignableClaims, Claim, Flag, type CurrentUser, type LicenseMode } from '../contract/account.js';
import type { UserRecord } from '../users/repository.js';

export interface Principal {
  userId: number;
  accountId: number;
  username: string;
  isRoot: boolean;
  claims: string[];
  /**
   * The login session this principal signed in with (its token's SHA-256, never the token):
   * hub connections are re-checked and closed by it.
   */
  loginSession?: string;
  /** Set for a LiveShare visitor (IsLiveshare): what its link shares; no claims, no user. */
  liveShare?: LiveShareScope;
  /**
   * Set while the session impersonates (issue 26): the user who signed in. The principal's
   * own fields are then the impersonated user's, with the IsImpersonating claim.
   */
  impersonator?: { userId: number; username: string };
  /** The caller's address as the hub saw it at connection (REST has request.ip). */
  address?: string;
  /**
   * Speaks for the appliance's provider: the root user (the operator, docs/accounts.md) or a
   * user of the provider account (account_plans.provider: the staff users). In the hosted
   * flavour only such a principal makes appliance-wide calls (server/http/access.ts). Set where
   * a login session becomes a principal (server/impersonation/resolve.ts); absent means no.
   * While impersonating it is the impersonated user's: a customer's rights, not the provider's.
   */
  provider?: boolean;
}

/** What a LiveShare visitor may see: the targets of one link (server/liveshare/visitors.ts). */
export interface LiveShareScope {
  linkId: number;
  shareId: string;
  /** SUM-{id} or AGT-{agentUniqueId}. */
  summaryRef: string;
  /** The shared summary, or 0: the pseudo-summary of an agent's targets. */
  summaryId: number;
  /** The shared summary's or agent's name. */
  title: string;
  /** The agent of an AGT- link (its pseudo-summary's targets), else undefined. */
  agentId?: number;
  /** The link's expiry (ms), or null. */
  expiresAt: number | null;
  /** Session (target) ids the link shows now. */
  sessionIds: ReadonlySet<number>;
  /**
   * The link shares the account's Sidekick summary (the links GetShareUrlsForSidekickTargets
   * makes): on a Sidekick-licence server only these let a visitor in (licenceCovers).
   */
  sidekick: boolean;
}

/**
 * A web user whose password someone else set, signed in as themselves: only the calls the
 * change-password screen needs are allowed (server/http/access.ts). Root's generated
 * password only warns (docs/decisions.md); an impersonator never carries the flag.
 */
export const mustReplacePassword = (p: Principal): boolean => !p.isRoot && !p.impersonator && p.claims.includes(Claim.TempPassword);

/** The principal of `actor` acting as `target`: the target's rights, never the temporary-password flag. */
export function impersonating(actor: UserRecord, target: UserRecord): Principal {
  const as = principalOf({ ...target, tempPassword: false });
  return { ...as, claims: [...as.claims, Claim.IsImpersonating], impersonator: { userId: actor.id, username: actor.name } };
}

/**
 * Root holds every claim a web user can be given; a temporary password adds its flag. Staff
 * is held only by staff users (server/accounts/staff-user.ts), never assignable, never root's.
 */
export function principalOf(user: UserRecord): Principal {
  const claims = user.isRoot ? [...AssignableClaims] : user.roles.filter((r) => (AssignableClaims as string[]).includes(r) || r === Claim.Staff);
  if (user.tempPassword) claims.push(Claim.TempPassword);
  return { userId: user.id, accountId: user.accountId, username: user.name, isRoot: user.isRoot, claims };
}

export function currentUserOf(p: Principal, licenseMode: LicenseMode): CurrentUser {
  if (p.liveShare) {
    return { Username: p.username, Message: '', IsLiveshare: true, IsUser: false, IsRoot: false, LicenseMode: licenseMode, Claims: [], Flags: [] };
  }
  return {
    Username: p.username,
    // Says who is really signed in while impersonating (the orange header shows it).
    Message: p.impersonator ? `Signed in as ${p.impersonator.username}, impersonating ${p.username}.` : '',
    IsLiveshare: false,
    IsUser: true,
    IsRoot: p.isRoot,
    LicenseMode: licenseMode,
    Claims: [...p.claims],
    // Data files (DownloadPP2File, ImportPP2File) and detailed Insights runs are built: every user has the flags.
    Flags: [Flag.Pp2Import, Flag.InsightDetail],
  };
}
