// The limits' counts in Redis (server/cluster/counters.ts) seen by two replicas' connections:
// attempts counted on either count toward one limit; while Redis is away each counts alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterRedis } from '../../server/cluster/redis.js';
import { redisWindowCounters } from '../../server/cluster/counters.js';
import { LoginThrottle } from '../../server/account/login-throttle.js';
import { SlidingWindowLimit } from '../../server/insights/rate-limit.js';
import { redisReplicas, until, type RedisReplicas } from '../support/redis-replicas.js';

describe('limits counted in Redis', () => {
  let r: RedisReplicas;
  let a: ClusterRedis;
  let b: ClusterRedis;

  beforeAll(async () => {
    r = await redisReplicas();
    ({ a, b } = r);
  });
  afterAll(async () => {
    await r?.close();
  });

  it('throttles sign-ins by the failures of both replicas, and frees them after the window', async () => {
    let now = 1_000_000;
    const limits = { perUserAndAddress: 4, perAddress: 100, windowMs: 60_000 };
    const onA = new LoginThrottle(limits, () => now, redisWindowCounters(a)('sign-in'));
    const onB = new LoginThrottle(limits, () => now, redisWindowCounters(b)('sign-in'));
    await onA.recordFailure('bob', '10.0.0.1');
    await onB.recordFailure('Bob', '10.0.0.1');
    await onA.recordFailure('bob', '10.0.0.1');
    expect(await onB.retryAfter('bob', '10.0.0.1')).toBe(0);
    now += 1000;
    await onB.recordFailure('bob', '10.0.0.1');
    // Four in the window, two on each: both refuse, until the oldest leaves it.
    expect(await onA.retryAfter('bob', '10.0.0.1')).toBe(59);
    expect(await onB.retryAfter('BOB', '10.0.0.1')).toBe(59);
    expect(await onB.retryAfter('alice', '10.0.0.1')).toBe(0);
    now += 59_001;
    expect(await onA.retryAfter('bob', '10.0.0.1')).toBe(0);
    // A success on B forgets the user and address for both.
    await onA.recordFailure('carol', '10.0.0.2');
    await onB.recordSuccess('carol', '10.0.0.2');
    expect(await onA.retryAfter('carol', '10.0.0.2')).toBe(0);
  });

  it('takes sliding-window slots for both replicas in one count', async () => {
    const onA = new SlidingWindowLimit(3, 60_000, redisWindowCounters(a)('feedback'));
    const onB = new SlidingWindowLimit(3, 60_000, redisWindowCounters(b)('feedback'));
    expect([await onA.take('u1', 5000), await onB.take('u1', 5000), await onA.take('u1', 5001)]).toEqual([0, 0, 0]);
    // The fourth, on B: full; the oldest (5000) leaves the window at 65000.
    expect(await onB.take('u1', 5002)).toBe(59_998);
    expect(await onA.take('u1', 5003)).toBe(59_997);
    expect(await onA.take('u2', 5002)).toBe(0);
  });

  it('counts on its own while Redis is away', async () => {
    const onA = new SlidingWindowLimit(1, 60_000, redisWindowCounters(a)('outage'));
    await r.redis.pause();
    try {
      await until(() => !a.available, 'A to see the outage');
      expect(await onA.take('k', 10_000)).toBe(0);
      expect(await onA.take('k', 10_001)).toBe(59_999);
    } finally {
      await r.redis.resume();
    }
    await until(() => a.available && b.available, 'Redis back');
  });
});
