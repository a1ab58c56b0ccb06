// The agent links' peers over Redis (server/agents/link-peers.ts; docs/scale.md "Redis"):
//  - commands: one channel every replica listens to (`hopwatch:agents`), so all keep the same
//    assignments and the one holding the agent's link sends it;
//  - requests: each replica's own channel (`hopwatch:replica:<id>`) takes re-resolve requests
//    for the links it holds and their answers;
//  - presence: a key per linked agent (`hopwatch:agent:<id>` = the replica and the agent's
//    interfaces) with a TTL its replica renews every third of it: when a replica dies its
//    agents' keys expire, so they show offline everywhere within the TTL and one renewal.
//    Every replica reads the keys as often, and at once when a link comes up or goes.
import type { FastifyBaseLogger } from 'fastify';
import type { LinkCommand, LinkedAgent, LinkPeers } from '../agents/link-peers.js';
import { type ClusterRedis, KeyPrefix } from './redis.js';

const CommandsChannel = `${KeyPrefix}agents`;
const PresenceChannel = `${KeyPrefix}agent-presence`;
const presenceKey = (agentId: number) => `${KeyPrefix}agent:${agentId}`;
const replicaChannel = (replicaId: string) => `${KeyPrefix}replica:${replicaId}`;
/** A re-resolve waits for the agent up to 10 s (server/agents/link.ts): a little more here. */
const ReplyWaitMs = 11_000;

type Request = { t: 'reresolve'; id: number; from: string; traceId: number } | { t: 'answer'; id: number; address: string | null };

interface Held {
  r: string;
  i?: LinkedAgent['interfaces'];
}

/** Deletes a presence key only while it still names this replica (the agent may have moved on). */
const DeleteIfOurs = `local v = redis.call('GET', KEYS[1]) if v and string.find(v, ARGV[1], 1, true) then return redis.call('DEL', KEYS[1]) end return 0`;

export class RedisLinkPeers implements LinkPeers {
  private mirror = new Map<number, LinkedAgent>();
  private mirrorReadAt = Date.now();
  private listLinked: () => LinkedAgent[] = () => [];
  private readonly unsubscribe: (() => void)[] = [];
  private readonly pending = new Map<number, (address: string | undefined) => void>();
  private nextId = 1;
  private readonly timer: NodeJS.Timeout;
  private handlers: Parameters<LinkPeers['serve']>[0] | undefined;

  constructor(
    private readonly redis: ClusterRedis,
    private readonly ttlMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => void this.renew(), Math.max(200, Math.floor(ttlMs / 3)));
    this.timer.unref();
    this.unsubscribe.push(
      redis.subscribe(CommandsChannel, (m) => {
        const { r, c } = JSON.parse(m) as { r: string; c: LinkCommand };
        if (r !== redis.replicaId) this.handlers?.command(c);
      }),
      redis.subscribe(replicaChannel(redis.replicaId), (m) => this.onRequest(JSON.parse(m) as Request)),
      redis.subscribe(PresenceChannel, () => void this.readMirror()),
      // Back from an outage: our keys may have expired meanwhile.
      redis.onAvailable(() => void this.renew()),
    );
  }

  broadcast(command: LinkCommand): void {
    void this.redis.publish(CommandsChannel, JSON.stringify({ r: this.redis.replicaId, c: command }));
  }

  serve(handlers: Parameters<LinkPeers['serve']>[0]): void {
    this.handlers = handlers;
  }

  linkedHere(agents: () => LinkedAgent[]): void {
    this.listLinked = agents;
    void this.renew();
  }

  changed(agentId: number): void {
    void (async () => {
      const here = this.listLinked().find((a) => a.agentId === agentId);
      try {
        if (here) await this.redis.commands.set(presenceKey(agentId), this.value(here), 'PX', this.ttlMs);
        else await this.redis.commands.eval(DeleteIfOurs, 1, presenceKey(agentId), `"r":"${this.redis.replicaId}"`);
        await this.redis.publish(PresenceChannel, String(agentId));
      } catch {
        // Redis away: the renewal after it returns writes what is true then.
      }
    })();
  }

  elsewhere(): ReadonlyMap<number, LinkedAgent> {
    // Not read for longer than the TTL (Redis away): what it said may no longer be true.
    if (Date.now() - this.mirrorReadAt > this.ttlMs && this.mirror.size) this.mirror = new Map();
    return this.mirror;
  }

  async reResolve(agentId: number, traceId: number): Promise<string | undefined> {
    let holder: string | undefined;
    try {
      const v = await this.redis.commands.get(presenceKey(agentId));
      holder = v ? (JSON.parse(v) as Held).r : undefined;
    } catch {
      return undefined;
    }
    if (!holder || holder === this.redis.replicaId) return undefined;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), ReplyWaitMs);
      const done = (address: string | undefined) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(address);
      };
      this.pending.set(id, done);
      const request: Request = { t: 'reresolve', id, from: this.redis.replicaId, traceId };
      void this.redis.publish(replicaChannel(holder), JSON.stringify(request)).then((sent) => sent || done(undefined));
    });
  }

  private onRequest(m: Request): void {
    if (m.t === 'answer') {
      this.pending.get(m.id)?.(m.address ?? undefined);
      return;
    }
    const handlers = this.handlers;
    if (!handlers) return;
    void handlers.reResolve(m.traceId).then((address) => {
      const answer: Request = { t: 'answer', id: m.id, address: address ?? null };
      return this.redis.publish(replicaChannel(m.from), JSON.stringify(answer));
    });
  }

  private value(a: LinkedAgent): string {
    const held: Held = { r: this.redis.replicaId, ...(a.interfaces ? { i: a.interfaces } : {}) };
    return JSON.stringify(held);
  }

  /** Renews this replica's keys (one round trip for all), then reads everyone's. */
  private async renew(): Promise<void> {
    if (!this.redis.available) return;
    const linked = this.listLinked();
    try {
      if (linked.length) {
        const batch = this.redis.commands.multi();
        for (const a of linked) batch.set(presenceKey(a.agentId), this.value(a), 'PX', this.ttlMs);
        await batch.exec();
      }
    } catch (err) {
      this.log.warn({ err }, 'renewing the agents’ presence in Redis failed; tried again shortly');
    }
    await this.readMirror();
  }

  private reading: Promise<void> | undefined;

  private readMirror(): Promise<void> {
    this.reading ??= this.readKeys().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readKeys(): Promise<void> {
    if (!this.redis.available) return;
    try {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await this.redis.commands.scan(cursor, 'MATCH', `${KeyPrefix}agent:*`, 'COUNT', 1000);
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
      const values = keys.length ? await this.redis.commands.mget(...keys) : [];
      const mirror = new Map<number, LinkedAgent>();
      keys.forEach((key, i) => {
        const v = values[i];
        if (!v) return;
        const held = JSON.parse(v) as Held;
        if (held.r === this.redis.replicaId) return;
        const agentId = Number(key.slice(`${KeyPrefix}agent:`.length));
        mirror.set(agentId, { agentId, ...(held.i ? { interfaces: held.i } : {}) });
      });
      this.mirror = mirror;
      this.mirrorReadAt = Date.now();
    } catch {
      // Redis away: elsewhere() forgets the mirror once it is older than the TTL.
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const u of this.unsubscribe) u();
    for (const done of [...this.pending.values()]) done(undefined);
    // Our agents go offline for the others now, not when their keys expire.
    const linked = this.listLinked();
    if (this.redis.available && linked.length) {
      await Promise.all(linked.map((a) => this.redis.commands.eval(DeleteIfOurs, 1, presenceKey(a.agentId), `"r":"${this.redis.replicaId}"`).catch(() => undefined)));
      await this.redis.publish(PresenceChannel, 'closed');
    }
  }
}
