// Turns domain events into the hub's pushed events, each only to the connections that may
// see it: the account's connections, or those registered for the target, summary or
// comments (registration checks the account).
import type { Hub } from '../hub/index.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus, DomainEvents } from '../events.js';
import type { Store } from '../store/db.js';
import { listParam, safeIds } from '../store/id-list.js';
import { BatchedLookup } from '../store/batched-lookup.js';
import type { MainHubEvents } from './methods.js';
import { accountGroup, agentSummaryGroup, commentsGroup, samplesGroup, summaryGroup, userGroup, wisdomGroup } from './groups.js';

const iso = (ms: number) => new Date(ms).toISOString();

interface Membership {
  ids: number[];
  agentId: number | null;
}

/**
 * Summaries a session shows in (named ones and its account's all-targets summary) and its
 * agent, kept until a summary or session event says they may have changed (and for about a minute
 * at most). Looked up for many sessions in one pair of statements: every HostUpdated of every
 * live trace asks, and two statements per session and expiry were most of the server's
 * statements with 1,000 remote traces (bench:agents).
 */
export class SummaryMembership {
  /** Kept 45 to 75 s at most: spread, so that 1,000 sessions looked up at once do not expire at once. */
  private static readonly MaxAgeMs = 45_000;
  private static readonly AgeSpreadMs = 30_000;
  /**
   * A lookup also reads again the sessions kept that would expire within this: without it every
   * session's expiry was a lookup of its own (two statements each, the spread expiries rarely
   * meeting in one turn), 700 statements a minute for 300 live traces (bench:soak, issue 45
   * item 7); with it about one lookup per this many ms whatever the number of traces.
   */
  static readonly RefreshAheadMs = 15_000;
  /** Per session: its membership and until when it is kept (ms). */
  private cache = new Map<number, Membership & { until: number }>();
  /** Bumped by invalidate(): a lookup that started before it does not fill the cache. */
  private generation = 0;
  private readonly lookup: BatchedLookup<Membership>;

  constructor(private readonly store: Store) {
    this.lookup = new BatchedLookup((ids) => this.read(ids), () => ({ ids: [], agentId: null }));
  }

  invalidate(): void {
    this.cache.clear();
    this.generation++;
  }

  async of(sessionId: number): Promise<Membership> {
    const now = Date.now();
    const hit = this.cache.get(sessionId);
    if (hit && now < hit.until) return hit;
    for (const [id, kept] of this.cache) {
      if (id !== sessionId && kept.until - now < SummaryMembership.RefreshAheadMs && !this.refreshing.has(id)) {
        this.refreshing.add(id);
        void this.load(id)
          .catch(() => undefined) // the store is closing; the next HostUpdated asks again
          .finally(() => this.refreshing.delete(id));
      }
    }
    return this.load(sessionId);
  }

  /** Sessions read again ahead of their expiry (see RefreshAheadMs), not asked twice. */
  private readonly refreshing = new Set<number>();

  private async load(sessionId: number): Promise<Membership> {
    // A summary or session change while the read was on its way may have made its answer
    // stale (a target just taken out of a shared summary): read again, a few times at most,
    // so a visitor of that summary is not sent the removed target's SummaryHostUpdated.
    for (let attempt = 1; ; attempt++) {
      const generation = this.generation;
      const m = await this.lookup.get(sessionId);
      if (generation === this.generation) {
        this.cache.set(sessionId, { ...m, until: Date.now() + SummaryMembership.MaxAgeMs + Math.random() * SummaryMembership.AgeSpreadMs });
        return m;
      }
      if (attempt === 3) return m;
    }
  }

  private async read(sessionIds: number[]): Promise<Map<number, Membership>> {
    const ids = listParam(safeIds(sessionIds));
    const [members, agents] = await this.store.read(async (q) => [
      await q.all<{ sessionId: number; id: number }>(
        `SELECT session_id AS "sessionId", summary_id AS id FROM summary_members WHERE session_id IN (SELECT unnest($1::INTEGER[]))
         UNION SELECT x.id, s.id FROM summaries s JOIN sessions x ON x.account_id = s.account_id
         WHERE s.is_all_targets AND x.id IN (SELECT unnest($1::INTEGER[]))`,
        [ids],
      ),
      await q.all<{ sessionId: number; agentId: number | null }>('SELECT id AS "sessionId", sentinel_id AS "agentId" FROM sessions WHERE id IN (SELECT unnest($1::INTEGER[]))', [ids]),
    ] as const);
    const found = new Map<number, Membership>(sessionIds.map((id) => [id, { ids: [], agentId: null }]));
    for (const m of members) found.get(Number(m.sessionId))?.ids.push(Number(m.id));
    // The agent too: LiveShare visitors of an agent link watch its targets as one pseudo-summary.
    for (const a of agents) {
      const entry = found.get(Number(a.sessionId));
      if (entry) entry.agentId = a.agentId === null ? null : Number(a.agentId);
    }
    return found;
  }
}

export function bridgeEvents(events: DomainEventBus, hub: Hub<Principal, MainHubEvents>, store: Store): () => void {
  const members = new SummaryMembership(store);
  const handlers: [keyof DomainEvents, (...args: never[]) => void][] = [];
  const on = <K extends keyof DomainEvents>(name: K, fn: (...args: DomainEvents[K]) => void) => {
    events.on(name, fn as never);
    handlers.push([name, fn as never]);
  };

  // The memberships change with summaries and sessions, whichever replica changed them.
  const invalidate = () => members.invalidate();
  const membershipEvents = ['SummaryListChanged', 'SummaryChanged', 'SessionsChanged'] as const;
  for (const name of membershipEvents) events.onEverywhere(name, invalidate);
  on('SummaryListChanged', (accountId) => {
    hub.clients.group(accountGroup(accountId)).send('SummaryListChanged');
  });
  on('SummaryChanged', (_accountId, summaryId) => {
    hub.clients.group(summaryGroup(summaryId)).send('SummaryChanged', String(summaryId));
  });
  on('SessionsChanged', (accountId) => {
    hub.clients.group(accountGroup(accountId)).send('SessionsChanged');
  });
  // Agents created, renamed, deleted, online or offline: the spec's CloudConnectAccountUpdated.
  on('AgentsChanged', (accountId) => hub.clients.group(accountGroup(accountId)).send('CloudConnectAccountUpdated'));
  on('SettingsChanged', (accountId) => hub.clients.group(accountGroup(accountId)).send('SettingsChanged'));
  on('UserUpdated', (_accountId, userId) => hub.clients.group(userGroup(userId)).send('UserUpdated'));
  on('WisdomTestProgress', (_accountId, sessionId, title) => hub.clients.group(wisdomGroup(sessionId)).send('WisdomTestProgressUpdated', { TestTitle: title }));
  on('RouteChanged', (_accountId, sessionId, rowId) => hub.clients.group(samplesGroup(sessionId)).send('RouteChanged', rowId));
  on('CommentChanged', (_accountId, sessionId, time, commentId) =>
    hub.clients.group(commentsGroup(sessionId)).send('CommentChanged', String(sessionId), iso(time), commentId),
  );
  on('HostUpdated', (accountId, sessionId, rowId, time) => {
    hub.clients.group(samplesGroup(sessionId)).send('HostUpdated', rowId, iso(time));
    void members
      .of(sessionId)
      .then(({ ids, agentId }) => {
        for (const id of ids) {
          if (hub.groups.mayHaveMembers(summaryGroup(id))) hub.clients.group(summaryGroup(id)).send('SummaryHostUpdated', String(id), rowId, iso(time));
        }
        // The session's own account: another account's visitors of "its" Local Machine hear nothing.
        const agentGroup = agentId === null ? undefined : agentSummaryGroup(accountId, agentId);
        if (agentGroup !== undefined && hub.groups.mayHaveMembers(agentGroup)) {
          hub.clients.group(agentGroup).send('SummaryHostUpdated', '0', rowId, iso(time));
        }
      })
      .catch(() => undefined); // the store is closing
  });

  return () => {
    for (const [name, fn] of handlers) events.off(name, fn as never);
    for (const name of membershipEvents) events.offEverywhere(name, invalidate);
  };
}
