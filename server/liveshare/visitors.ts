// LiveShare visitors (IsLiveshare): a browser that opened /LiveShare/{shareId}/{password}
// keeps "{shareId}/{password}" in the liveshareid cookie (spec 1 section 2), and every
// request and hub connection without a user's session is signed in from it. A link counts
// while it is active, not expired, and its visitor's licence check passes (licenceCovers: a
// Professional server, or a Sidekick server for the Sidekick's own export links); what it
// shows (its targets) is read again at most every few seconds and at once after any link, summary or
// session change. Wrong credentials are counted per address and refused for a while after
// too many (the password of a link is never logged: the cookie is redacted from logs).
import { LicenseMode } from '../contract/account.js';
import { licenceCovers } from '../account/authenticate.js';
import { LinkHistoryAction } from '../contract/liveshare.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import type { LiveShareScope, Principal } from '../account/principal.js';
import type { Store } from '../store/db.js';
import { tooManyRequests, type HttpError } from '../http/errors.js';
import { LoginThrottle } from '../account/login-throttle.js';
import type { WindowCounter } from '../account/window-counter.js';
import { decodeLeniently } from '../http/log-redaction.js';
import { passwordMatches } from './secrets.js';
import * as repo from './repository.js';
import { sharedTargets } from './shared.js';
import { findSidekick } from '../sidekick/repository.js';

export const LiveShareCookie = 'liveshareid';
/** The visitor's name (CurrentUser.Username). */
export const VisitorName = 'LiveShare visitor';
/** How long a link's targets are believed without a change event. */
const ScopeMaxAgeMs = 5_000;
/** A visit is written to the history once per address and link in this time. */
const VisitEveryMs = 30 * 60_000;
/** Wrong link credentials per address in 15 minutes before further tries are refused. */
export const WrongLinkLimit = 20;

interface CachedLink {
  link: repo.LinkRecord;
  /** False when what the link shares is gone (its summary or agent deleted). */
  shares: boolean;
  scope: LiveShareScope;
  until: number;
}

export type VisitorAnswer = { principal: Principal } | { refusal: HttpError } | undefined;

/** "{shareId}/{password}" from the cookie header, if present and well-formed. */
export function linkCredentialsFrom(cookieHeader: string | undefined): { shareId: string; password: string } | undefined {
  if (!cookieHeader) return undefined;
  const pair = cookieHeader.split(';').map((c) => c.trim()).find((c) => c.startsWith(`${LiveShareCookie}=`));
  const raw = pair === undefined ? undefined : decodeLeniently(pair.slice(LiveShareCookie.length + 1));
  if (!raw || raw.length > 200) return undefined;
  const [shareId, password, ...rest] = raw.split('/');
  if (!shareId || !password || rest.length) return undefined;
  return { shareId, password };
}

export class LiveShareVisitors {
  private readonly links = new Map<string, CachedLink>();
  private readonly visits = new Map<string, number>();
  private readonly throttle: LoginThrottle;
  private generation = 0;
  private readonly unsubscribe: () => void;
  private readonly scopeListeners = new Set<(accountId: number) => void>();

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    events: DomainEventBus,
    private readonly now: () => number = Date.now,
    counts?: WindowCounter,
  ) {
    this.throttle = new LoginThrottle({ perUserAndAddress: WrongLinkLimit, perAddress: WrongLinkLimit, windowMs: 15 * 60_000 }, now, counts);
    // Every event that may change what some link of the account shares: forget, then tell
    // whoever keeps something per visitor (the hub's groups) while the event is still being emitted.
    const forget = (accountId: number, ..._rest: unknown[]) => {
      this.forgetAll();
      for (const listener of this.scopeListeners) listener(accountId);
    };
    const names = ['LiveShareChanged', 'SummaryChanged', 'SummaryListChanged', 'SessionsChanged', 'AgentsChanged'] as const;
    for (const n of names) events.onEverywhere(n, forget);
    this.unsubscribe = () => {
      for (const n of names) events.offEverywhere(n, forget);
    };
  }

  close(): void {
    this.unsubscribe();
    this.scopeListeners.clear();
    this.links.clear();
  }

  /**
   * Calls `listener` with the account whenever what its links share may have changed (a
   * summary's targets, sessions opened or closed, agents, the links themselves), right after
   * the cached scopes were forgotten, so current() then reads what is shared now. Returns
   * a function that stops the calls.
   */
  onScopeChange(listener: (accountId: number) => void): () => void {
    this.scopeListeners.add(listener);
    return () => this.scopeListeners.delete(listener);
  }

  forgetAll(): void {
    this.generation++;
    this.links.clear();
  }

  /** The visitor signed in by a request's cookies, a refusal (429), or undefined (no valid link). */
  async fromCookie(cookieHeader: string | undefined, address: string): Promise<VisitorAnswer> {
    const creds = linkCredentialsFrom(cookieHeader);
    if (!creds) return undefined;
    const wait = await this.throttle.retryAfter('', address);
    if (wait > 0) return { refusal: tooManyRequests(`Too many wrong LiveShare links from this address; try again in ${wait} seconds.`, wait) };
    const found = await this.lookUp(creds.shareId);
    if (!found || !passwordMatches(creds.password, found.link.pwDigest)) {
      await this.throttle.recordFailure('', address);
      if (found) void this.record(found.link, address, LinkHistoryAction.WrongPassword, 'A visit with a wrong password was refused.');
      return undefined;
    }
    if (!this.usable(found)) return undefined;
    const principal = this.principalOf(found);
    if (!this.licensed(principal)) return undefined;
    this.noteVisit(found.link, address);
    return { principal };
  }

  /** The visitor as its link is now (hub invocations), or null when the link no longer lets it in. */
  async current(p: Principal): Promise<Principal | null> {
    if (!p.liveShare) return null;
    const found = await this.lookUp(p.liveShare.shareId);
    if (!found || found.link.id !== p.liveShare.linkId || !this.usable(found)) return null;
    const principal = this.principalOf(found);
    return this.licensed(principal) ? principal : null;
  }

  /**
   * The LiveShare viewer is the Professional licence's; on a Sidekick server only the
   * Sidekick's export links count (licenceCovers). Any other link there is no sign-in.
   */
  private licensed(visitor: Principal): boolean {
    return licenceCovers(this.config, LicenseMode.Professional, visitor);
  }

  /** Active, not expired, and what it shares still exists. */
  private usable({ link, shares }: CachedLink): boolean {
    return shares && link.active && (link.expiresAt === null || link.expiresAt > this.now());
  }

  private principalOf(found: CachedLink): Principal {
    return { userId: 0, accountId: found.link.accountId, username: VisitorName, isRoot: false, claims: [], liveShare: found.scope };
  }

  private async lookUp(shareId: string): Promise<CachedLink | undefined> {
    const t = this.now();
    const hit = this.links.get(shareId);
    if (hit && hit.until > t) return hit;
    const generation = this.generation;
    const found = await this.store.read(async (q) => {
      const link = await repo.findLink(q, shareId);
      if (!link) return undefined;
      const shared = await sharedTargets(q, link.accountId, link.summaryRef);
      const sidekick = shared?.kind === 'Summary' && (await findSidekick(q, link.accountId))?.summaryId === shared.summaryId;
      return { link, shared, sidekick };
    });
    if (!found) {
      this.links.delete(shareId);
      return undefined;
    }
    const { link, shared, sidekick } = found;
    const scope: LiveShareScope = {
      linkId: link.id,
      shareId: link.shareId,
      summaryRef: link.summaryRef,
      summaryId: shared?.summaryId ?? -1,
      title: shared?.title ?? '',
      agentId: shared?.agentId,
      expiresAt: link.expiresAt,
      sessionIds: new Set(shared?.sessionIds ?? []),
      sidekick,
    };
    const entry = { link, shares: shared !== undefined, scope, until: t + ScopeMaxAgeMs };
    if (generation === this.generation) {
      if (this.links.size > 10_000) this.links.clear();
      this.links.set(shareId, entry);
    }
    return entry;
  }

  private noteVisit(link: repo.LinkRecord, address: string): void {
    const key = `${link.id}|${address}`;
    const t = this.now();
    const last = this.visits.get(key);
    if (last !== undefined && t - last < VisitEveryMs) return;
    if (this.visits.size > 100_000) this.visits.clear();
    this.visits.set(key, t);
    void this.record(link, address, LinkHistoryAction.Visit, 'Visited the shared view.');
  }

  private async record(link: repo.LinkRecord, address: string, action: string, logText: string): Promise<void> {
    try {
      await this.store.exclusive((q) => repo.addHistory(q, { linkId: link.id, shareId: link.shareId, accountId: link.accountId, at: this.now(), address, action, logText }));
    } catch {
      // The store is closing: a visit not written then is no reason to refuse the visitor.
    }
  }
}
