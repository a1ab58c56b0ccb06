// The limits' counts in Redis (server/account/window-counter.ts): one sorted set per key
// (`hopwatch:count:<limit>:<key>`, event times as scores), trimmed to the window and expiring
// with it, so every replica counts into and reads the same window. A sorted set rather than
// INCR with an expiry: the limits are sliding windows that say when the oldest attempt leaves
// (the Retry-After a caller is told), which a fixed-window counter cannot. While Redis is away
// each replica counts in its own memory (the outage is logged and shown in /readyz).
import { randomBytes } from 'node:crypto';
import { MemoryWindowCounter, type WindowCounter, type WindowCounters } from '../account/window-counter.js';
import { type ClusterRedis, KeyPrefix } from './redis.js';

/** Trims the window, then counts one event if fewer than the limit are in it; else the ms until the oldest leaves. */
const TakeScript = `
local now = tonumber(ARGV[1]) local win = tonumber(ARGV[2]) local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - win)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + win - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], win)
return 0`;

class RedisWindowCounter implements WindowCounter {
  private readonly local = new MemoryWindowCounter();

  constructor(
    private readonly redis: ClusterRedis,
    private readonly prefix: string,
  ) {}

  /** The Redis answer, or this replica's own count when Redis is away. */
  private async either<T>(shared: () => Promise<T>, own: () => Promise<T>): Promise<T> {
    if (!this.redis.available) return own();
    try {
      return await shared();
    } catch {
      return own();
    }
  }

  /** Unique per event: two attempts in the same millisecond count twice. */
  private member(t: number): string {
    return `${t}:${randomBytes(6).toString('base64url')}`;
  }

  add(key: string, t: number, windowMs: number): Promise<void> {
    const k = this.prefix + key;
    return this.either(
      async () => {
        await this.redis.commands
          .multi()
          .zadd(k, t, this.member(t))
          .zremrangebyscore(k, '-inf', t - windowMs)
          .pexpire(k, windowMs)
          .exec();
        await this.local.add(key, t, windowMs);
      },
      () => this.local.add(key, t, windowMs),
    );
  }

  since(key: string, cutoff: number): Promise<number[]> {
    return this.either(
      async () => {
        const flat = await this.redis.commands.zrangebyscore(this.prefix + key, `(${cutoff}`, '+inf', 'WITHSCORES');
        const times: number[] = [];
        for (let i = 1; i < flat.length; i += 2) times.push(Number(flat[i]));
        return times;
      },
      () => this.local.since(key, cutoff),
    );
  }

  clear(key: string): Promise<void> {
    return this.either(
      async () => {
        await this.redis.commands.del(this.prefix + key);
        await this.local.clear(key);
      },
      () => this.local.clear(key),
    );
  }

  take(key: string, now: number, limit: number, windowMs: number): Promise<number> {
    return this.either(
      async () => {
        const wait = Number(await this.redis.commands.eval(TakeScript, 1, this.prefix + key, now, windowMs, limit, this.member(now)));
        if (wait === 0) await this.local.add(key, now, windowMs);
        return wait;
      },
      () => this.local.take(key, now, limit, windowMs),
    );
  }
}

/** Counters in Redis, one key space per limit. */
export function redisWindowCounters(redis: ClusterRedis): WindowCounters {
  return (limitName) => new RedisWindowCounter(redis, `${KeyPrefix}count:${limitName}:`);
}
