// The replicas' connection to Redis (HOPWATCH_REDIS_URL; docs/scale.md "Redis"), through
// ioredis: one connection for commands and publishing, one for subscriptions (a subscribed
// connection can do nothing else). ioredis reconnects by itself and subscribes again after a
// reconnect, so a Redis outage needs no restart. While Redis is away nothing queues up:
// commands fail at once (enableOfflineQueue off) and each user falls back to what this replica
// can do alone (its own connections, its own counts), so a long outage cannot grow memory.
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/** The URL without its password, for logs and messages. */
export function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return 'redis (an unreadable URL)';
  }
}

/** Key and channel names all start with this, so one Redis can serve other programs too. */
export const KeyPrefix = 'hopwatch:';

type Listener = (message: string) => void;

export class ClusterRedis {
  /** This process among the replicas: names its presence keys and its request channel. */
  readonly replicaId = randomUUID();
  readonly commands: Redis;
  private readonly subscriber: Redis;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly upListeners = new Set<() => void>();
  private downSince: number | undefined = Date.now();
  private lastError = 'not connected yet';
  private everUp = false;
  private closed = false;

  constructor(
    readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {
    const options: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // Reconnect every 0.1 to 1 s while Redis is away: back within a second of its return.
      retryStrategy: (times) => Math.min(100 * times, 1000),
      connectTimeout: 5000,
      lazyConnect: false,
    };
    this.commands = new Redis(url, { ...options, connectionName: `hopwatch-${this.replicaId}` });
    this.subscriber = new Redis(url, { ...options, connectionName: `hopwatch-sub-${this.replicaId}` });
    this.subscriber.on('message', (channel: string, message: string) => {
      for (const l of this.listeners.get(channel) ?? []) {
        try {
          l(message);
        } catch (err) {
          this.log.error({ err, channel }, 'a Redis message could not be handled');
        }
      }
    });
    // Every channel again on each connect: one subscribed while Redis was away failed at once
    // (no offline queue), and ioredis renews only those that succeeded.
    this.subscriber.on('ready', () => {
      const channels = [...this.listeners.keys()];
      if (channels.length) this.subscriber.subscribe(...channels).catch(() => undefined);
    });
    for (const c of [this.commands, this.subscriber]) {
      c.on('ready', () => this.judge());
      c.on('close', () => this.judge());
      c.on('end', () => this.judge());
      c.on('error', (err: Error) => {
        this.lastError = err.message;
        this.judge();
      });
    }
  }

  /** Both connections ready: the backplane, routing and shared counters work. */
  get available(): boolean {
    return this.downSince === undefined;
  }

  /** Why Redis is not available and since when (for /readyz), or undefined when it is. */
  problem(): string | undefined {
    if (this.downSince === undefined) return undefined;
    return `Redis at ${describeRedisUrl(this.url)} does not answer since ${new Date(this.downSince).toISOString()} (${this.lastError}): this replica serves only its own connections, its counts are its own, and events of other replicas do not reach it until Redis is back.`;
  }

  /** Calls `fn` each time Redis becomes available again (after a start or an outage). */
  onAvailable(fn: () => void): () => void {
    this.upListeners.add(fn);
    return () => this.upListeners.delete(fn);
  }

  private judge(): void {
    if (this.closed) return;
    const up = this.commands.status === 'ready' && this.subscriber.status === 'ready';
    if (up && this.downSince !== undefined) {
      const wasStart = !this.everUp;
      this.everUp = true;
      this.downSince = undefined;
      // What the next outage says unless an error names its cause.
      this.lastError = 'the connection was lost';
      if (wasStart) this.log.info({ redis: describeRedisUrl(this.url), replica: this.replicaId }, 'Redis connected: running as one replica of several');
      else this.log.warn({ redis: describeRedisUrl(this.url) }, 'Redis is back: events, routing and counts are shared with the other replicas again');
      for (const fn of this.upListeners) fn();
    } else if (!up && this.downSince === undefined) {
      this.downSince = Date.now();
      // Logged once per outage, not per reconnect attempt.
      this.log.error({ redis: describeRedisUrl(this.url), reason: this.lastError }, this.problem()!);
    }
  }

  /** Publishes, or returns false at once when Redis is away (nothing is queued). */
  async publish(channel: string, message: string): Promise<boolean> {
    if (!this.available) return false;
    try {
      await this.commands.publish(channel, message);
      return true;
    } catch {
      return false;
    }
  }

  /** Listens to a channel; the subscription survives reconnects. */
  subscribe(channel: string, listener: Listener): () => void {
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      // While Redis is away ioredis keeps the subscription and makes it on connecting.
      this.subscriber.subscribe(channel).catch(() => undefined);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(channel) === set) {
        this.listeners.delete(channel);
        this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.commands.disconnect();
    this.subscriber.disconnect();
  }
}
