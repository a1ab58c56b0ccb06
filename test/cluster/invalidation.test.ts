// Cache invalidation across replicas over a real Redis (server/cluster/event-relay.ts): a
// relayed domain event reaches the other replica's fromPeers listeners (caches, its own
// connections) and not its own-work listeners; closed-rollup reads forgotten on one replica
// are forgotten on the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterRedis } from '../../server/cluster/redis.js';
import { relayClosedReads, relayEvents } from '../../server/cluster/event-relay.js';
import { DomainEventBus } from '../../server/events.js';
import { ClosedReads } from '../../server/store/closed-reads.js';
import { redisReplicas, until, type RedisReplicas } from '../support/redis-replicas.js';

describe('invalidation across replicas', () => {
  let r: RedisReplicas;
  let a: ClusterRedis;
  let b: ClusterRedis;
  const off: (() => void)[] = [];

  beforeAll(async () => {
    r = await redisReplicas();
    ({ a, b } = r);
  });
  afterAll(async () => {
    off.forEach((f) => f());
    await r?.close();
  });

  it("raises A's cache events on B's fromPeers only, once, with their arguments", async () => {
    const busA = new DomainEventBus();
    const busB = new DomainEventBus();
    off.push(relayEvents(a, busA), relayEvents(b, busB));
    const everywhereOnB: unknown[][] = [];
    const ownOnB: unknown[][] = [];
    const everywhereOnA: unknown[][] = [];
    busB.onEverywhere('UserUpdated', (...args) => everywhereOnB.push(args));
    busB.on('UserUpdated', (...args) => ownOnB.push(args));
    busA.onEverywhere('UserUpdated', (...args) => everywhereOnA.push(args));
    // Subscriptions are made asynchronously: publish until B hears one.
    await until(() => {
      if (everywhereOnB.length === 0) busA.emit('UserUpdated', 3, 17);
      return everywhereOnB.length > 0;
    }, 'the event on B');
    // Now that both listen: one more emit is heard once on B, and not echoed back to A.
    await new Promise((r) => setTimeout(r, 200));
    const [onB, onA] = [everywhereOnB.length, everywhereOnA.length];
    busA.emit('UserUpdated', 4, 18);
    await until(() => everywhereOnB.length > onB, 'the second event on B');
    await new Promise((r) => setTimeout(r, 200));
    expect(everywhereOnB.slice(onB)).toEqual([[4, 18]]);
    expect(everywhereOnA.length).toBe(onA + 1); // its own emit, not an echo
    expect(ownOnB).toEqual([]); // B's own-work listeners do not run for A's events
  });

  it('forgets on B the closed-rollup reads A forgot', async () => {
    const readsA = new ClosedReads();
    const readsB = new ClosedReads();
    off.push(relayClosedReads(a, readsA), relayClosedReads(b, readsB));
    const fill = () => {
      readsB.set(5, 'day', ['rows of 5'], 10, readsB.generation);
      readsB.set(6, 'day', ['rows of 6'], 10, readsB.generation);
    };
    fill();
    await until(() => {
      readsA.forget([5]);
      return readsB.get(5, 'day') === undefined;
    }, 'session 5 forgotten on B');
    expect(readsB.get(6, 'day')).toEqual(['rows of 6']);
    readsA.clear();
    await until(() => readsB.size === 0, 'everything forgotten on B');
    // B's own forget reaches A.
    readsA.set(7, 'day', ['rows of 7'], 10, readsA.generation);
    readsB.forget([7]);
    await until(() => readsA.get(7, 'day') === undefined, 'session 7 forgotten on A');
  });
});
