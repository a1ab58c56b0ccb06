// Leadership (issue 43 item 2, docs/scale.md "Once-only work"): the work that must run once in a
// cluster of replicas (retention and expiry, the packer, the alert queue's retries, the
// agent-offline decisions, the Local Machine's traces) runs on the one replica that holds the
// leader lease. One lease for all of it, not one per job: one connection and one handover to
// reason about, and the jobs are light next to ingest, which is spread by agent links anyway.
//
// On PostgreSQL the lease is a session advisory lock held on a dedicated connection (not the
// pool's: a pooled client is given back and reused). PostgreSQL releases it when that
// connection ends, so a replica that dies (SIGKILL, a crashed pod) hands over as soon as the
// server sees its connection go: at once when the kernel closes the socket, within the TCP
// keepalive settings below (about 9 s) when the holder's machine vanished without a word.
// Candidates try for the lock every CheckMs, so a handover takes at most about 11 s (the issue
// asks for 15). The holder asks the database every CheckMs that its connection still holds
// the lock, and again before each once-only run (stillLeader): a holder that cannot reach the
// database stops leading before the server lets another take over.
//
// DuckDB (one process, one file): always the leader.
import pg from 'pg';

/** The advisory lock key of the leader lease ('Hopl'); the migrations use another (postgres/store.ts). */
export const LeaderLockKey = 0x486f706c;
/** How often a candidate tries for the lock and the holder checks it still holds it (ms). */
export const CheckMs = 2000;
/** Server-side keepalive on the lease's connection: a silent holder's connection ends after idle + interval * count s. */
const Keepalive = { idle: 3, interval: 2, count: 3 };

export interface LeadershipState {
  /** This replica runs the once-only work. */
  leader: boolean;
  /** 'embedded': DuckDB, always the leader; 'postgres': the advisory lock. */
  kind: 'embedded' | 'postgres';
  /** When this replica became the leader (ms), or lost the database last. */
  since: number;
  /** Why it is not the leader, when it is not. */
  reason?: string;
}

export interface Leadership {
  readonly kind: LeadershipState['kind'];
  isLeader(): boolean;
  /** Asks the database (PostgreSQL) that this replica still holds the lease: call before each once-only run. */
  stillLeader(): Promise<boolean>;
  /** Hears every change (true: this replica leads from now; false: it stopped). Answers an unsubscribe. */
  onChange(listener: (leader: boolean) => void): () => void;
  /** Hears NOTIFY on a channel (PostgreSQL: on the lease's connection; nothing on DuckDB, where nothing notifies). */
  listen(channel: string, listener: (payload: string) => void): void;
  state(): LeadershipState;
  close(): Promise<void>;
}

export interface LeadershipLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The embedded appliance: one process, always the leader. */
export class EmbeddedLeadership implements Leadership {
  readonly kind = 'embedded' as const;
  private readonly since = Date.now();
  isLeader(): boolean {
    return true;
  }
  async stillLeader(): Promise<boolean> {
    return true;
  }
  onChange(): () => void {
    return () => undefined;
  }
  listen(): void {}
  state(): LeadershipState {
    return { leader: true, kind: 'embedded', since: this.since };
  }
  async close(): Promise<void> {}
}

/** The leader lease on PostgreSQL (advisory lock on a dedicated connection). */
export class PgLeadership implements Leadership {
  readonly kind = 'postgres' as const;
  private client: pg.Client | undefined;
  private leader = false;
  private since = Date.now();
  private reason = 'not yet connected to the database';
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly listeners = new Set<(leader: boolean) => void>();
  private readonly channels = new Map<string, (payload: string) => void>();
  /** Shared advisory locks this replica holds on the lease's connection (taken again after a reconnect). */
  private readonly sharedLocks = new Set<string>();
  /** Exclusive advisory locks this replica holds on the lease's connection, and those it is trying for. */
  private readonly exclusiveLocks = new Set<string>();
  private readonly acquiring = new Map<string, Promise<boolean>>();
  /** The lease connection's queries, one after another: pg queues overlapping ones only with a deprecation warning (gone in pg@9). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly log: LeadershipLog,
    private readonly opts: { key?: number; checkMs?: number } = {},
  ) {}

  /** Sends a query on the lease's connection once the ones before it have answered. */
  private send<R extends pg.QueryResultRow>(client: pg.Client, text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    const next = this.queue.then(() => client.query<R>(text, values));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Sends a query whose answer nobody waits for; a failure counts as the connection lost. */
  private sendAndForget(text: string, values?: unknown[]): void {
    const client = this.client;
    if (client) void this.send(client, text, values).catch((err: Error) => this.lost(err));
  }

  private get key(): number {
    return this.opts.key ?? LeaderLockKey;
  }

  private get checkMs(): number {
    return this.opts.checkMs ?? CheckMs;
  }

  /** Tries for the lease now, then every checkMs. */
  async start(): Promise<void> {
    await this.tick();
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.ticking = this.tick().finally(() => this.schedule());
    }, this.checkMs);
    this.timer.unref();
  }

  isLeader(): boolean {
    return this.leader;
  }

  onChange(listener: (leader: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  listen(channel: string, listener: (payload: string) => void): void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.channels.set(channel, listener);
    this.sendAndForget(`LISTEN ${channel}`);
  }

  /**
   * Holds a shared advisory lock (space, id) on the lease's connection while this replica is
   * connected: PostgreSQL drops it with the connection, so a lock held by a replica that died
   * goes with it (cluster presence, server/cluster/presence.ts).
   */
  holdShared(space: number, id: number): void {
    const key = `${space}:${id}`;
    if (this.sharedLocks.has(key)) return;
    this.sharedLocks.add(key);
    this.sendAndForget('SELECT pg_try_advisory_lock_shared($1::integer, $2::integer)', [space, id]);
  }

  /**
   * Takes an exclusive advisory lock (space, id) on the lease's connection, trying every 250 ms
   * for up to waitMs; answers whether it holds it. Held once per replica (a second call while
   * held answers true at once). Another replica's is released by it, or by PostgreSQL with its
   * connection (server/agents/takeover.ts: the ingest of an agent's sessions).
   */
  holdExclusive(space: number, id: number, waitMs: number): Promise<boolean> {
    const key = `${space}:${id}`;
    if (this.exclusiveLocks.has(key)) return Promise.resolve(true);
    // One try at a time per lock: two that both got it would count it twice in PostgreSQL, and one unlock would leave it held.
    let pending = this.acquiring.get(key);
    if (!pending) {
      pending = this.acquire(space, id, key, waitMs).finally(() => this.acquiring.delete(key));
      this.acquiring.set(key, pending);
    }
    return pending;
  }

  private async acquire(space: number, id: number, key: string, waitMs: number): Promise<boolean> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const client = this.client;
      if (client) {
        try {
          const r = await this.send<{ got: boolean }>(client, 'SELECT pg_try_advisory_lock($1::integer, $2::integer) AS got', [space, id]);
          if (r.rows[0]?.got) {
            this.exclusiveLocks.add(key);
            return true;
          }
        } catch (err) {
          this.lost(err as Error);
        }
      }
      if (Date.now() >= deadline || this.closed) return false;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  releaseExclusive(space: number, id: number): void {
    const key = `${space}:${id}`;
    if (!this.exclusiveLocks.delete(key)) return;
    this.sendAndForget('SELECT pg_advisory_unlock($1::integer, $2::integer)', [space, id]);
  }

  releaseShared(space: number, id: number): void {
    const key = `${space}:${id}`;
    if (!this.sharedLocks.delete(key)) return;
    this.sendAndForget('SELECT pg_advisory_unlock_shared($1::integer, $2::integer)', [space, id]);
  }

  state(): LeadershipState {
    return { leader: this.leader, kind: 'postgres', since: this.since, ...(this.leader ? {} : { reason: this.reason }) };
  }

  async stillLeader(): Promise<boolean> {
    if (!this.leader || !this.client) return false;
    try {
      if (await this.holds(this.client)) return true;
      this.become(false, 'the database says this replica no longer holds the lease');
    } catch (err) {
      this.lost(err as Error);
    }
    return false;
  }

  private async holds(client: pg.Client): Promise<boolean> {
    // A bigint advisory key shows in pg_locks as classid (high half), objid (low half), objsubid 1.
    const r = await this.send<{ held: boolean }>(
      client,
      `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
         AND classid::bigint = ($1::bigint >> 32) AND objid::bigint = ($1::bigint & 4294967295) AND objsubid = 1) AS held`,
      [this.key],
    );
    return r.rows[0]?.held === true;
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    try {
      const client = this.client ?? (await this.connect());
      if (this.leader) {
        if (!(await this.holds(client))) this.become(false, 'the database says this replica no longer holds the lease');
        return;
      }
      const r = await this.send<{ got: boolean }>(client, 'SELECT pg_try_advisory_lock($1::bigint) AS got', [this.key]);
      if (r.rows[0]?.got) this.become(true);
      else this.reason = 'another replica holds the lease';
    } catch (err) {
      this.lost(err as Error);
    }
  }

  /** A connection of its own, with keepalives tight enough that PostgreSQL ends it (and the lock) soon after its holder vanished. */
  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      keepAliveInitialDelayMillis: 1000,
      connectionTimeoutMillis: this.checkMs * 2,
      // The client's own limit: a check that hangs (the database unreachable) counts as lost.
      query_timeout: this.checkMs * 2,
      application_name: 'hopwatch leader lease',
    });
    client.on('error', (err) => this.lost(err));
    client.on('notification', (m) => this.channels.get(m.channel)?.(m.payload ?? ''));
    await client.connect();
    try {
      await client.query(
        `SELECT set_config('tcp_keepalives_idle', $1, false), set_config('tcp_keepalives_interval', $2, false),
                set_config('tcp_keepalives_count', $3, false), set_config('tcp_user_timeout', $4, false)`,
        [String(Keepalive.idle), String(Keepalive.interval), String(Keepalive.count), String((Keepalive.idle + Keepalive.interval * Keepalive.count) * 1000)],
      );
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
      for (const key of this.sharedLocks) {
        const [space, id] = key.split(':').map(Number);
        await client.query('SELECT pg_try_advisory_lock_shared($1::integer, $2::integer)', [space, id]);
      }
    } catch (err) {
      destroy(client);
      throw err;
    }
    if (this.closed) {
      destroy(client);
      throw new Error('leadership closed');
    }
    this.client = client;
    return client;
  }

  /** The lease's connection failed: this replica stops leading now (PostgreSQL releases the lock when it sees the connection end). */
  private lost(err: Error): void {
    const client = this.client;
    this.client = undefined;
    // PostgreSQL drops the connection's locks with it: the exclusive ones are taken again when next needed.
    this.exclusiveLocks.clear();
    if (client) destroy(client);
    if (this.closed) return;
    this.become(false, `the database does not answer on the lease's connection (${err.message || 'connection lost'})`);
  }

  private become(leader: boolean, reason = ''): void {
    if (!leader) this.reason = reason;
    if (leader === this.leader) return;
    this.leader = leader;
    this.since = Date.now();
    if (leader) this.log.info({ lease: this.key }, 'leadership: this replica leads the once-only work (retention, packer, alert retries, agent-offline, Local Machine)');
    else this.log.warn({ reason }, 'leadership: this replica no longer leads the once-only work');
    for (const l of [...this.listeners]) {
      try {
        l(leader);
      } catch (err) {
        this.log.warn({ err }, 'leadership: a listener failed');
      }
    }
  }

  /** Gives the lease back (a clean stop hands over at once) and closes its connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    const client = this.client;
    this.client = undefined;
    if (this.leader) this.become(false, 'shutting down');
    if (client) await client.end().catch(() => destroy(client));
  }
}

function destroy(client: pg.Client): void {
  // end() waits for the server's goodbye, which a vanished server never sends.
  const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  stream?.destroy();
  void client.end().catch(() => undefined);
}

/** The leadership of a store: the advisory lock on PostgreSQL, always the leader on DuckDB. */
export async function startLeadership(databaseUrl: string | undefined, log: LeadershipLog, opts: { checkMs?: number } = {}): Promise<Leadership> {
  if (!databaseUrl) return new EmbeddedLeadership();
  const l = new PgLeadership(databaseUrl, log, opts);
  await l.start();
  return l;
}
