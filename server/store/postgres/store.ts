// The PostgreSQL store (issue 42 items 1, 2, 5): every table in the database HOPWATCH_DATABASE_URL
// names. Unlike DuckDB's one writer (db.ts), nothing in this process keeps two writers apart:
// each exclusive work and transaction borrows its own client from the pool and PostgreSQL's
// transactions and row locks order them, so writes that do not conflict run at once, and
// several appliance replicas can share the database (part 2). Reads take a pooled client per
// statement and see what is committed.
import { join } from 'node:path';
import pg from 'pg';
import type { Connection, Params, Queryable, Row, SideLane, Store } from '../db.js';
import { applyMigrations, type MigrationOptions } from '../migrations.js';
import { pgQueryable, pgTypes } from './queryable.js';
import { connectWithRetry, describeUrl } from './connect.js';
import { FileReader } from './file-reader.js';
import { loadServerKeys, type ServerKeyName } from '../server-keys.js';

/** The client a PostgreSQL exclusive work or transaction gets beside its Queryable (for COPY and bulk appends). */
export interface PgConnection {
  readonly dialect: 'postgres';
  readonly client: pg.PoolClient;
}

/** Pool size: the console's reads, the ingest flushes, side work and a transaction or two at once. */
export const PoolSize = 10;
/** The advisory lock the migrations run under (several replicas starting at once apply them once). */
export const MigrationLockKey = 0x486f7077; // 'Hopw'

export interface PgStoreOptions {
  migrations?: MigrationOptions;
  /** How long startup waits for an unreachable server before it gives up (ms). */
  connectTimeoutMs?: number;
  log?: (line: string) => void;
}

export class PgStore implements Store {
  readonly dialect = 'postgres' as const;
  readonly concurrent = true;
  private closed = false;
  private readonly pooled: Queryable;
  private readonly lanes = new Map<SideLane, Promise<unknown>>();
  private readonly files = new FileReader();
  private readonly inFlight = new Set<Promise<unknown>>();
  private serverKeys: ReadonlyMap<ServerKeyName, string> | undefined;

  private constructor(
    private readonly pool: pg.Pool,
    /** The data directory's nominal database path: key files and exports live beside it. */
    readonly path: string,
  ) {
    this.pooled = pgQueryable(pool, { concurrent: true });
  }

  static async open(url: string, dataDir: string, opts: PgStoreOptions = {}): Promise<PgStore> {
    const pool = new pg.Pool({ connectionString: url, max: PoolSize, types: pgTypes });
    // An idle client whose server went away must not crash the process: the next query fails instead.
    pool.on('error', () => undefined);
    // Nor a client that is checked out between two statements when the server goes (a
    // transaction waiting on JavaScript work): its next statement fails instead. Without a
    // listener the client's 'error' event ended the process (issue 43: /readyz must answer 503
    // while the database is away).
    pool.on('connect', (client) => client.on('error', () => undefined));
    await connectWithRetry(pool, url, { timeoutMs: opts.connectTimeoutMs ?? 60_000, log: opts.log });
    const store = new PgStore(pool, join(dataDir, 'hopwatch.postgres'));
    await store.migrate(opts.migrations);
    // Every replica opens what another sealed: the keys are rows, made by the first start.
    store.serverKeys = await loadServerKeys(store.pooled, dataDir);
    return store;
  }

  get keys(): ReadonlyMap<ServerKeyName, string> | undefined {
    return this.serverKeys;
  }

  /** fn under a session advisory lock named by `work` (on a client of its own): a second replica waits, then runs it after. */
  async alone<T>(work: string, fn: () => Promise<T>): Promise<T> {
    this.guard();
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1::INTEGER, hashtext($2))', [MigrationLockKey, work]);
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1::INTEGER, hashtext($2))', [MigrationLockKey, work]);
      }
    } finally {
      client.release();
    }
  }

  /** Applies the migrations on one client, under a session advisory lock: a second replica waits, then finds them applied. */
  private async migrate(opts?: MigrationOptions): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MigrationLockKey]);
      try {
        await applyMigrations(pgQueryable(client), opts);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MigrationLockKey]);
      }
    } finally {
      client.release();
    }
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  private guard(): void {
    if (this.closed) throw new Error('the store is closed');
  }

  read<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return this.track(fn(this.pooled));
  }

  /** The pool itself: the sample layout's writes make day partitions on it before a transaction, retention and packing take clients of it (sample-tables.ts). */
  get pgPool(): pg.Pool {
    return this.pool;
  }

  /** As a Queryable: the pool its reads run on. */
  get pg(): pg.Pool {
    return this.pool;
  }

  get fileDb(): FileReader {
    return this.files;
  }

  get fileReader(): Queryable {
    this.guard();
    return this.files.queryable;
  }

  /** fn on a client of its own: other work runs beside it (no in-process lock; transactions and row locks order writers). */
  exclusive<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, _opts: { background?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    return this.track(
      (async () => {
        const client = await this.pool.connect();
        let broken: Error | undefined;
        try {
          return await fn(pgQueryable(client), { dialect: 'postgres', client });
        } catch (err) {
          // A client left inside a failed transaction is not given back to the pool.
          if ((err as { code?: string }).code === '25P02') broken = err as Error;
          throw err;
        } finally {
          client.release(broken);
        }
      })(),
    );
  }

  transaction<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, opts: { background?: boolean } = {}): Promise<T> {
    return this.exclusive(async (q, conn) => {
      await q.run('BEGIN');
      try {
        const result = await fn(q, conn);
        await q.run('COMMIT');
        return result;
      } catch (err) {
        await q.run('ROLLBACK').catch(() => undefined);
        throw err;
      }
    }, opts);
  }

  /** Side work: one at a time per lane (its order, not a writer lock), each on a client of its own. */
  side<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, lane: SideLane = 'packing'): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const tail = this.lanes.get(lane) ?? Promise.resolve();
    const next = tail.then(() => this.exclusive(fn));
    this.lanes.set(
      lane,
      next.catch(() => undefined),
    );
    return next;
  }

  run(sql: string, params?: Params) {
    return this.read((q) => q.run(sql, params));
  }
  all<T = Row>(sql: string, params?: Params) {
    return this.read((q) => q.all<T>(sql, params));
  }
  one<T = Row>(sql: string, params?: Params) {
    return this.read((q) => q.one<T>(sql, params));
  }
  columns(sql: string, params?: Params) {
    return this.read((q) => q.columns(sql, params));
  }
  numbers(sql: string, params?: Params) {
    return this.read((q) => q.numbers(sql, params));
  }
  numbersWithIntegers(sql: string, params?: Params) {
    return this.read((q) => q.numbersWithIntegers(sql, params));
  }
  numberChunks(sql: string, params?: Params) {
    return this.read((q) => q.numberChunks(sql, params));
  }

  /** Autovacuum frees deleted rows' space; nothing to do now. */
  async reclaim(): Promise<void> {}

  /** Waits for work in flight, then closes the pool. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const l of this.lanes.values()) await l;
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    await this.files.close();
    await this.pool.end();
  }
}

export { describeUrl };
