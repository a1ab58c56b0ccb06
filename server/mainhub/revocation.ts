// Hub connections follow their user's session and rights as they change, not as they were
// when the connection opened: a sign-out, a password change or reset, or a deleted user
// closes the connections of the sessions that ended; a role change that takes away a
// claim closes that user's connections so the console connects again with what it has now;
// starting or ending an impersonation does too (the session is someone else now).
// Every invocation is also checked on its own (CurrentPrincipals, in the hub definition).
import { AssignableClaims } from '../contract/account.js';
import type { Hub } from '../hub/index.js';
import type { CurrentPrincipals } from '../account/current-principals.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus } from '../events.js';
import type { MainHubEvents } from './methods.js';

export const SignedOutClose = 'You were signed out.';
export const RightsChangedClose = 'Your permissions changed.';
export const IdentityChangedClose = 'You started or ended impersonating a user.';

/** A right (an assignable claim) the user held and no longer holds; the temporary-password flag is none. */
const lostRight = (before: Principal, now: Principal) =>
  before.claims.some((c) => (AssignableClaims as string[]).includes(c) && !now.claims.includes(c));

export function closeRevokedConnections(
  events: DomainEventBus,
  hub: Hub<Principal, MainHubEvents>,
  principals: CurrentPrincipals,
): () => void {
  const signedOut = (loginSession: string) => hub.closeWhere((p) => p.loginSession === loginSession, SignedOutClose);
  // A session belongs to the user who signed in: while impersonating, that is the impersonator.
  const sessionsEnded = (userId: number, kept: string | undefined) =>
    hub.closeWhere((p) => (p.impersonator?.userId ?? p.userId) === userId && p.loginSession !== kept, SignedOutClose);
  const userUpdated = (_accountId: number, userId: number) => {
    const sessions = new Map<string, Principal>();
    for (const { principal } of hub.principals()) {
      const concerned = principal.userId === userId || principal.impersonator?.userId === userId;
      if (concerned && principal.loginSession) sessions.set(principal.loginSession, principal);
    }
    for (const [loginSession, before] of sessions) {
      void principals
        .of(loginSession)
        .then((now) => {
          if (now === null) hub.closeWhere((p) => p.loginSession === loginSession, SignedOutClose);
          else if (lostRight(before, now) || before.userId !== now.userId) {
            hub.closeWhere((p) => p.loginSession === loginSession, RightsChangedClose, true);
          }
        })
        .catch(() => undefined); // the store is closing
    }
  };
  // The session acts as someone else now (impersonation started or ended): its connections
  // connect again as who it is now, with that user's groups.
  const identityChanged = (loginSession: string) => hub.closeWhere((p) => p.loginSession === loginSession, IdentityChangedClose, true);
  events.onEverywhere('SignedOut', signedOut);
  events.onEverywhere('LoginSessionsEnded', sessionsEnded);
  events.onEverywhere('UserUpdated', userUpdated);
  events.onEverywhere('ImpersonationChanged', identityChanged);
  return () => {
    events.offEverywhere('ImpersonationChanged', identityChanged);
    events.offEverywhere('SignedOut', signedOut);
    events.offEverywhere('LoginSessionsEnded', sessionsEnded);
    events.offEverywhere('UserUpdated', userUpdated);
  };
}

export const LiveShareEndedClose = 'This LiveShare link was switched off or has expired.';
/** How often visitors' connections are checked against their links' expiry. */
const ExpirySweepMs = 10_000;

/**
 * A LiveShare link switched off, deleted or changed ends its visitors' connections at once
 * (a changed link lets them connect again with what it shares now); an expired link's
 * connections end at the next sweep. Their next call then answers 401.
 */
export function closeEndedVisits(
  events: DomainEventBus,
  hub: Hub<Principal, MainHubEvents>,
  now: () => number = Date.now,
): () => void {
  const changed = (_accountId: number, linkId: number, open: boolean) => {
    hub.closeWhere((p) => p.liveShare?.linkId === linkId, open ? RightsChangedClose : LiveShareEndedClose, open);
  };
  const sweep = setInterval(() => {
    const t = now();
    hub.closeWhere((p) => p.liveShare !== undefined && p.liveShare.expiresAt !== null && p.liveShare.expiresAt <= t, LiveShareEndedClose);
  }, ExpirySweepMs);
  sweep.unref();
  events.onEverywhere('LiveShareChanged', changed);
  return () => {
    clearInterval(sweep);
    events.offEverywhere('LiveShareChanged', changed);
  };
}
