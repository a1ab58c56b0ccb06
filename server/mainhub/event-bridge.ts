// Turns domain events into the hub's pushed events, each only to the connections that may
// see it: the account's connections, or those registered for the target, summary or
// comments (registration checks the account).
import type { Hub } from '../hub/index.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus, DomainEvents } from '../events.js';
import type { Store } from '../store/db.js';
import type { MainHubEvents } from './methods.js';
import { accountGroup, commentsGroup, samplesGroup, summaryGroup, userGroup, wisdomGroup } from './groups.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Summaries a session shows in (named ones and its account's all-targets summary), cached briefly. */
class SummaryMembership {
  private cache = new Map<number, { at: number; ids: number[] }>();
  constructor(private readonly store: Store) {}

  invalidate(): void {
    this.cache.clear();
  }

  async of(sessionId: number): Promise<number[]> {
    const hit = this.cache.get(sessionId);
    if (hit && Date.now() - hit.at < 5000) return hit.ids;
    const rows = await this.store.all<{ id: number }>(
      `SELECT summary_id AS id FROM summary_members WHERE session_id = $1
       UNION SELECT s.id FROM summaries s JOIN sessions x ON x.account_id = s.account_id
       WHERE s.is_all_targets AND x.id = $1`,
      [sessionId],
    );
    const ids = rows.map((r) => r.id);
    this.cache.set(sessionId, { at: Date.now(), ids });
    return ids;
  }
}

export function bridgeEvents(events: DomainEventBus, hub: Hub<Principal, MainHubEvents>, store: Store): () => void {
  const members = new SummaryMembership(store);
  const handlers: [keyof DomainEvents, (...args: never[]) => void][] = [];
  const on = <K extends keyof DomainEvents>(name: K, fn: (...args: DomainEvents[K]) => void) => {
    events.on(name, fn as never);
    handlers.push([name, fn as never]);
  };

  on('SummaryListChanged', (accountId) => {
    members.invalidate();
    hub.clients.group(accountGroup(accountId)).send('SummaryListChanged');
  });
  on('SummaryChanged', (_accountId, summaryId) => {
    members.invalidate();
    hub.clients.group(summaryGroup(summaryId)).send('SummaryChanged', String(summaryId));
  });
  on('SessionsChanged', (accountId) => {
    members.invalidate();
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
  on('HostUpdated', (_accountId, sessionId, rowId, time) => {
    hub.clients.group(samplesGroup(sessionId)).send('HostUpdated', rowId, iso(time));
    void members
      .of(sessionId)
      .then((ids) => {
        for (const id of ids) {
          if (hub.groups.size(summaryGroup(id))) hub.clients.group(summaryGroup(id)).send('SummaryHostUpdated', String(id), rowId, iso(time));
        }
      })
      .catch(() => undefined); // the store is closing
  });

  return () => {
    for (const [name, fn] of handlers) events.off(name, fn as never);
  };
}
