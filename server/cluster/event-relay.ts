// Cache invalidation across replicas (docs/scale.md "Redis"): the domain events that say some
// replica's cached state may be stale (who a session is and what it may do, what a LiveShare
// link shares, which summaries a target is in, what was read of closed rollups) are published
// on one channel and raised on every other replica's `events.fromPeers`, where only the caches
// and the replica's own connections listen (server/events.ts). Pushed events travel by the hub
// backplane instead, so no console hears one twice.
import type { DomainEventBus, DomainEvents } from '../events.js';
import type { ClosedReads, ClosedReadsChange } from '../store/closed-reads.js';
import { type ClusterRedis, KeyPrefix } from './redis.js';

const EventsChannel = `${KeyPrefix}events`;
const ClosedReadsChannel = `${KeyPrefix}closed-reads`;

/** Events whose listeners keep per-replica state. */
export const RelayedEvents = [
  'SignedOut',
  'LoginSessionsEnded',
  'UserUpdated',
  'ImpersonationChanged',
  'LiveShareChanged',
  'SummaryListChanged',
  'SummaryChanged',
  'SessionsChanged',
  'AgentsChanged',
] as const satisfies readonly (keyof DomainEvents)[];

type Relayed = (typeof RelayedEvents)[number];

export function relayEvents(redis: ClusterRedis, events: DomainEventBus): () => void {
  const off: (() => void)[] = [];
  for (const name of RelayedEvents) {
    const publish = (...args: unknown[]) => void redis.publish(EventsChannel, JSON.stringify({ r: redis.replicaId, n: name, a: args }));
    events.on(name, publish as never);
    off.push(() => events.off(name, publish as never));
  }
  off.push(
    redis.subscribe(EventsChannel, (message) => {
      const m = JSON.parse(message) as { r: string; n: Relayed; a: unknown[] };
      if (m.r === redis.replicaId || !(RelayedEvents as readonly string[]).includes(m.n)) return;
      events.fromPeers.emit(m.n, ...(m.a as never as DomainEvents[Relayed]));
    }),
  );
  return () => off.forEach((f) => f());
}

/** What one replica forgets of its closed-rollup reads, the others forget too. */
export function relayClosedReads(redis: ClusterRedis, reads: ClosedReads): () => void {
  const unwatch = reads.watch((change) => void redis.publish(ClosedReadsChannel, JSON.stringify({ r: redis.replicaId, c: change })));
  const unsubscribe = redis.subscribe(ClosedReadsChannel, (message) => {
    const m = JSON.parse(message) as { r: string; c: ClosedReadsChange };
    if (m.r !== redis.replicaId) reads.applyPeer(m.c);
  });
  return () => {
    unwatch();
    unsubscribe();
  };
}
