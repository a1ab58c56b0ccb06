// Who a login session is now, for callers that hold a session for a long time (hub
// connections): every hub invocation asks, so the answer is cached, and the cache entry goes
// the moment something changes it (sign-out, password change or reset, roles, deletion: the
// services' domain events). Entries also expire with their session and after a minute, so
// nothing outside those events (a session expiring, a trial ending) is believed for long.
// The hub signs its connections in through it too (negotiate and upgrade, ofToken): thousands
// of consoles connecting at once, or coming back after a restart, are a few sessions, each
// read once however many ask at the same moment (docs/hub.md, "5,000 consoles").
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import type { Store } from '../store/db.js';
import { signedInSession } from '../impersonation/resolve.js';
import { trialExpired } from './authenticate.js';
import { BrowserSessionSeconds, hashToken, renewLoginSession } from './login-sessions.js';
import type { Principal } from './principal.js';

const MaxAgeMs = 60_000;

interface Entry {
  principal: Principal | null;
  /** Until when the entry may answer: the session's expiry or the max age, whichever is first. */
  until: number;
  /** From when a connection's sign-in slides the browser session forward (Infinity: persistent, or renewed). */
  renewAt: number;
}

export class CurrentPrincipals {
  private readonly entries = new Map<string, Entry>();
  /** Reads under way, by session: callers asking meanwhile (same generation) share the answer. */
  private readonly reading = new Map<string, { generation: number; answer: Promise<Principal | null> }>();
  /** Moves on every forget: a read that began before a change must not cache what it saw. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    events: DomainEventBus,
    private readonly now: () => number = Date.now,
  ) {
    const forgetSession = (loginSession: string) => {
      this.generation++;
      this.entries.delete(loginSession);
    };
    const forgetUser = (_accountId: number, userId: number) => this.forgetUser(userId);
    const forgetUserSessions = (userId: number) => this.forgetUser(userId);
    events.onEverywhere('SignedOut', forgetSession);
    events.onEverywhere('ImpersonationChanged', forgetSession);
    events.onEverywhere('UserUpdated', forgetUser);
    events.onEverywhere('LoginSessionsEnded', forgetUserSessions);
    this.unsubscribe = () => {
      events.offEverywhere('SignedOut', forgetSession);
      events.offEverywhere('ImpersonationChanged', forgetSession);
      events.offEverywhere('UserUpdated', forgetUser);
      events.offEverywhere('LoginSessionsEnded', forgetUserSessions);
    };
  }

  close(): void {
    this.unsubscribe();
    this.entries.clear();
  }

  private forgetUser(userId: number): void {
    this.generation++;
    // The impersonating user's change matters too: it may end the impersonation.
    for (const [key, entry] of this.entries) {
      if (entry.principal?.userId === userId || entry.principal?.impersonator?.userId === userId) this.entries.delete(key);
    }
  }

  /** The principal of the login session now, or null when it ended or may no longer call. */
  async of(loginSession: string | undefined): Promise<Principal | null> {
    if (!loginSession || trialExpired(this.config)) return null;
    const now = this.now();
    const hit = this.entries.get(loginSession);
    if (hit && hit.until > now) return hit.principal;
    return this.read(loginSession, now);
  }

  /**
   * Signs a connection in by its session token (the cookie's, or the bearer token): the
   * principal of the live session, or undefined. As principalFromToken for a request, a
   * browser session past half its life is slid forward (once, not by every connection).
   */
  async ofToken(token: string | undefined): Promise<Principal | undefined> {
    if (!token) return undefined;
    const loginSession = hashToken(token);
    const principal = await this.of(loginSession);
    if (!principal) return undefined;
    const entry = this.entries.get(loginSession);
    if (entry && entry.renewAt <= this.now()) {
      entry.renewAt = Infinity;
      await this.store.exclusive((q) => renewLoginSession(q, token));
    }
    return principal;
  }

  private read(loginSession: string, now: number): Promise<Principal | null> {
    const generation = this.generation;
    const underWay = this.reading.get(loginSession);
    if (underWay && underWay.generation === generation) return underWay.answer;
    const answer = (async () => {
      const found = await this.store.read((q) => signedInSession(q, loginSession), { priority: 'sign-in' });
      const principal = found ? found.principal : null;
      const until = Math.min(now + MaxAgeMs, found?.session.expiresAt ?? Infinity);
      const renewAt = found && !found.session.persistent ? (found.session.renew ? now : found.session.expiresAt - (BrowserSessionSeconds * 1000) / 2) : Infinity;
      // Only live sessions are kept: an unknown session costs a read each time, but cannot fill memory.
      if (principal && generation === this.generation) this.entries.set(loginSession, { principal, until, renewAt });
      else this.entries.delete(loginSession);
      return principal;
    })();
    const done = () => {
      if (this.reading.get(loginSession)?.answer === answer) this.reading.delete(loginSession);
    };
    answer.then(done, done);
    this.reading.set(loginSession, { generation, answer });
    return answer;
  }
}
