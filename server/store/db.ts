// The DuckDB store: one database file, one writer process. Statements on the shared
// connection run one at a time through a queue, so a transaction is never interleaved
// with another request's statements. Reads that need no transaction of their own (the data
// calls) go to a small pool of read connections instead: DuckDB gives each statement a
// snapshot of what is committed, so a graph's query neither waits behind an ingest flush
// nor holds one up, and two queries of one call can run at once.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, listValue, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { applyMigrations, type MigrationOptions } from './migrations.js';
import { numericColumnChunks, numericColumns, type NumericColumn } from './numeric-columns.js';
import { ListParam, type DialectName } from './dialect.js';
import { ServerBusyRetrySeconds, ServerBusyText } from '../contract/busy.js';
import type { PgConnection } from './postgres/store.js';
import type { FileReader } from './postgres/file-reader.js';
import type { ServerKeyName } from './server-keys.js';
import { HttpError } from '../http/errors.js';
import { duckMemoryOptions, storeMemory, type StoreMemory } from './duck-memory.js';

/** A statement's parameters: positional ($1, $2...); a list is bound as one (dialect.ts `list`). */
export type Params = (DuckDBValue | ListParam)[] | Record<string, DuckDBValue>;
export type Row = Record<string, unknown>;
/**
 * What exclusive and transaction work gets beside its Queryable: DuckDB's connection (its
 * appenders) or PostgreSQL's client (append-columns.ts writes to either).
 */
export type Connection = DuckDBConnection | PgConnection;

/** Whether conn is PostgreSQL's. */
export const isPgConnection = (conn: Connection): conn is PgConnection => (conn as PgConnection).dialect === 'postgres';

/** A ListParam as DuckDB binds it. */
function duckParams(params?: Params): DuckDBValue[] | Record<string, DuckDBValue> | undefined {
  if (!params || !Array.isArray(params)) return params;
  // An empty list has no item type to bind a LIST with: its text '[]', cast by the statement
  // (every list parameter is written `$n::TYPE[]`).
  return params.map((v) => (ListParam.is(v) ? (v.asText || !v.items.length ? `[${v.items.join(',')}]` : listValue(v.items as DuckDBValue[])) : v));
}

/** BIGINT and HUGEINT come back as bigint; everything this app stores fits a number. */
function plain(row: Record<string, unknown>): Row {
  for (const k of Object.keys(row)) {
    const v = row[k];
    if (typeof v === 'bigint') row[k] = Number(v);
  }
  return row;
}

export interface Queryable {
  run(sql: string, params?: Params): Promise<void>;
  all<T = Row>(sql: string, params?: Params): Promise<T[]>;
  one<T = Row>(sql: string, params?: Params): Promise<T | undefined>;
  /** Column-major result (numbers for BIGINT): cheaper than row objects for large reads. */
  columns(sql: string, params?: Params): Promise<unknown[][]>;
  /** Numeric columns straight from DuckDB's vectors into Float64Arrays; NULL becomes NaN. */
  numbers(sql: string, params?: Params): Promise<Float64Array[]>;
  /** As numbers, but 32-bit integer columns without NULLs come as Int32Array. */
  numbersWithIntegers(sql: string, params?: Params): Promise<NumericColumn[]>;
  /** As numbersWithIntegers, chunk by chunk (fewer copies for large reads). */
  numberChunks(sql: string, params?: Params): Promise<NumericColumn[][]>;
  /** Statements may be started together (each takes its own read connection). */
  readonly concurrent?: boolean;
  /** The SQL dialect it speaks (dialect.ts); DuckDB when unset. */
  readonly dialect?: DialectName;
  /** PostgreSQL only: the pool or client it runs on (the sample layout's reads, sample-tables.ts). */
  readonly pg?: Pick<import('pg').Pool | import('pg').PoolClient, 'query'>;
}

/**
 * The store: DuckDB's file (DuckStore, below) or PostgreSQL (postgres/store.ts), chosen at
 * start by HOPWATCH_DATABASE_URL. Every caller sees this interface only.
 */
export interface Store extends Queryable {
  /** The data directory's database path (key files and exports live beside it). */
  readonly path: string;
  /**
   * PostgreSQL only: the server keys, from the database (server-keys.ts), so that every replica
   * opens what another sealed. Unset on DuckDB: its keys are files of the data directory.
   */
  readonly keys?: ReadonlyMap<ServerKeyName, string>;
  /**
   * Reads what is committed (after the writes queued before it). `priority` (ReadPriority):
   * 'sign-in' and 'bulk' reads are refused with StoreOverloaded (503) when they cannot start in
   * time; the default, background, waits.
   */
  read<T>(fn: (q: Queryable) => Promise<T>, opts?: ReadOptions): Promise<T>;
  readonly fileReader: Queryable;
  /** DuckDB: reads refused with StoreOverloaded since the start (/metrics hopwatch_store_reads_refused_total). */
  readonly readsRefused?: number;
  /** PostgreSQL only: the in-memory DuckDB that reads and writes data files (file-copies.ts). */
  readonly fileDb?: FileReader;
  exclusive<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, opts?: { background?: boolean }): Promise<T>;
  transaction<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, opts?: { background?: boolean }): Promise<T>;
  side<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, lane?: SideLane): Promise<T>;
  /**
   * Runs fn while no other process sharing this database runs work of the same name: what two
   * replicas starting together must not both do (the first start's root user). PostgreSQL: a
   * session advisory lock; DuckDB: the file has one process, fn runs at once.
   */
  alone<T>(work: string, fn: () => Promise<T>): Promise<T>;
  /** Frees the blocks of deleted rows now where the backend needs telling (DuckDB's CHECKPOINT; PostgreSQL's autovacuum does it). Never fails. */
  reclaim(): Promise<void>;
  /** DuckDB only: its memory and what it spilled now (duck-memory.ts; GET /metrics). PostgreSQL's memory is its server's. */
  memory?(): Promise<StoreMemory>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** `migrations.log` gets the progress lines of long migrations (server/main.ts prints them). */
  migrations?: MigrationOptions;
  /** postgres://...: every table in that PostgreSQL database instead of the data directory's DuckDB file. */
  databaseUrl?: string;
  /** Lines for the operator (waiting for PostgreSQL). */
  log?: (line: string) => void;
  /** PostgreSQL: how long startup waits for an unreachable server (ms; default 60 s). */
  connectTimeoutMs?: number;
  /** DuckDB: how long a read may wait and how many may queue before 503s (ReadLimits). */
  reads?: Partial<ReadLimits>;
  /** DuckDB: its memory limit in MiB (HOPWATCH_STORE_MEMORY_MB; default duck-memory.ts defaultStoreMemoryMb). */
  memoryMb?: number;
}

export const Store = {
  /** Opens the store the options name and applies the migrations. */
  async open(dataDir: string, opts: OpenOptions = {}): Promise<Store> {
    if (opts.databaseUrl) {
      const { PgStore } = await import('./postgres/store.js');
      mkdirSync(dataDir, { recursive: true });
      return PgStore.open(opts.databaseUrl, dataDir, { migrations: opts.migrations, log: opts.log, connectTimeoutMs: opts.connectTimeoutMs });
    }
    return DuckStore.open(dataDir, opts);
  },
};

/** How many read connections serve Store.read (DuckDB runs each query on its own threads too). */
export const ReadConnections = 2;

/** A Queryable over one DuckDB connection. */
export function duckQueryable(conn: DuckDBConnection): Queryable {
  return {
    dialect: 'duckdb',
    async run(sql, p) {
      await conn.run(sql, duckParams(p));
    },
    async all<T>(sql: string, params?: Params) {
      const reader = await conn.runAndReadAll(sql, duckParams(params));
      return reader.getRowObjectsJS().map(plain) as T[];
    },
    async columns(sql, params) {
      const reader = await conn.runAndReadAll(sql, duckParams(params));
      // An empty result has no column arrays at all: give one empty array per column.
      if (reader.currentRowCount === 0) return Array.from({ length: reader.columnCount }, () => []);
      return reader.getColumnsJS().map((col) => (col.length && typeof col[0] === 'bigint' ? col.map((v) => (typeof v === 'bigint' ? Number(v) : v)) : col));
    },
    async numbers(sql, params) {
      return numericColumns(await conn.run(sql, duckParams(params)));
    },
    async numbersWithIntegers(sql, params) {
      return numericColumns(await conn.run(sql, duckParams(params)), true);
    },
    async numberChunks(sql, params) {
      return numericColumnChunks(await conn.run(sql, duckParams(params)), true);
    },
    async one<T>(sql: string, params?: Params) {
      const reader = await conn.runAndReadAll(sql, duckParams(params));
      const rows = reader.getRowObjectsJS();
      return rows.length ? (plain(rows[0]) as T) : undefined;
    },
  };
}

/**
 * Whose read it is. A sign-in (every signed-in request and hub connection reads its login
 * session first) is served before everything else and refused after the wait limit; a bulk
 * read (a console's rows and graphs) is refused past the wait limit or when the bulk queue is
 * full; background work (the default: trace starts, ingest, alerts, retention) waits as long as
 * it takes, as before, since nobody is there to be told "try again" and 1,000 trace starts at
 * once must not be refused. So under overload a request is answered, with its data or a 503,
 * and the work the appliance does by itself goes on.
 */
export type ReadPriority = 'sign-in' | 'bulk' | 'background';

export interface ReadOptions {
  priority?: ReadPriority;
}

/**
 * How long a sign-in or bulk read waits before it is refused, and how many bulk statements may
 * wait for a read connection at once (HOPWATCH_READ_WAIT_MS, HOPWATCH_READ_QUEUE). Past either
 * the read fails with StoreOverloaded (503 with Retry-After): an appliance that cannot keep up
 * says so instead of leaving its consoles waiting (issue 45 item 7, docs/store.md "Overload").
 */
export interface ReadLimits {
  waitMs: number;
  queue: number;
}

export const DefaultReadLimits: ReadLimits = { waitMs: 15_000, queue: 256 };

/** A read the store could not start in time, or one more than its queue holds: 503 with Retry-After. */
export class StoreOverloaded extends HttpError {
  constructor(why: string) {
    super(503, `${ServerBusyText} (${why}); try again in a few seconds.`, { 'retry-after': String(ServerBusyRetrySeconds) });
  }
}

interface Waiter {
  resolve: (c: DuckDBConnection) => void;
  bulk: boolean;
  timer?: NodeJS.Timeout;
}

/**
 * Read connections lent one statement at a time; a statement waits while all are busy,
 * sign-ins first, then bulk and background reads in arrival order. A sign-in or bulk waiter is
 * refused (StoreOverloaded) after limits.waitMs, and a bulk statement at once when limits.queue
 * bulk ones already wait: no request waits for ever behind a statement that does not end or a
 * queue that outgrows the connections (issue 45 item 7).
 */
export class ReadPool {
  private readonly idle: DuckDBConnection[];
  private readonly waiting: { signIn: Waiter[]; rest: Waiter[] } = { signIn: [], rest: [] };
  /** Bulk statements among waiting.rest. */
  private bulkWaiting = 0;
  private busy = 0;
  private drained: (() => void) | undefined;
  /** Set by Store.close: no new statement starts. */
  shut = false;
  /** Statements refused since the start (shown on /metrics' side of things and in tests). */
  refused = 0;

  constructor(
    readonly connections: DuckDBConnection[],
    readonly limits: ReadLimits = DefaultReadLimits,
  ) {
    this.idle = [...connections];
  }

  private waitingCount(): number {
    return this.waiting.signIn.length + this.waiting.rest.length;
  }

  private acquire(priority: ReadPriority): Promise<DuckDBConnection> | DuckDBConnection {
    const conn = this.idle.pop();
    if (conn) return conn;
    const bulk = priority === 'bulk';
    if (bulk && this.bulkWaiting >= this.limits.queue) {
      this.refused++;
      throw new StoreOverloaded(`${this.bulkWaiting} reads are waiting`);
    }
    const queue = priority === 'sign-in' ? this.waiting.signIn : this.waiting.rest;
    return new Promise<DuckDBConnection>((resolve, reject) => {
      const w: Waiter = {
        bulk,
        resolve: (c) => {
          clearTimeout(w.timer);
          if (bulk) this.bulkWaiting--;
          resolve(c);
        },
      };
      if (priority !== 'background') {
        w.timer = setTimeout(() => {
          const i = queue.indexOf(w);
          if (i >= 0) queue.splice(i, 1);
          if (bulk) this.bulkWaiting--;
          this.refused++;
          reject(new StoreOverloaded(`a read waited ${Math.round(this.limits.waitMs / 1000)} s for the database`));
          if (this.busy === 0 && !this.waitingCount()) this.drained?.();
        }, this.limits.waitMs);
      }
      if (bulk) this.bulkWaiting++;
      queue.push(w);
    });
  }

  private release(conn: DuckDBConnection): void {
    this.busy--;
    const next = this.waiting.signIn.shift() ?? this.waiting.rest.shift();
    if (next) next.resolve(conn);
    else this.idle.push(conn);
    if (this.busy === 0 && !this.waitingCount()) this.drained?.();
  }

  async with<T>(fn: (q: Queryable) => Promise<T>, priority: ReadPriority = 'background'): Promise<T> {
    if (this.shut) throw new Error('the store is closed');
    const got = this.acquire(priority);
    const conn = got instanceof Promise ? await got : got;
    this.busy++;
    try {
      return await fn(duckQueryable(conn));
    } finally {
      this.release(conn);
    }
  }

  /** A Queryable whose every statement borrows a connection at `priority`: statements may overlap. */
  queryableAt(priority: ReadPriority): Queryable {
    return {
      dialect: 'duckdb',
      concurrent: true,
      run: (sql, params) => this.with((q) => q.run(sql, params), priority),
      all: <T>(sql: string, params?: Params) => this.with((q) => q.all<T>(sql, params), priority),
      one: <T>(sql: string, params?: Params) => this.with((q) => q.one<T>(sql, params), priority),
      columns: (sql, params) => this.with((q) => q.columns(sql, params), priority),
      numbers: (sql, params) => this.with((q) => q.numbers(sql, params), priority),
      numbersWithIntegers: (sql, params) => this.with((q) => q.numbersWithIntegers(sql, params), priority),
      numberChunks: (sql, params) => this.with((q) => q.numberChunks(sql, params), priority),
    };
  }

  readonly queryable: Queryable = this.queryableAt('background');
  readonly bulkQueryable: Queryable = this.queryableAt('bulk');
  readonly signInQueryable: Queryable = this.queryableAt('sign-in');

  /** Resolves once no statement runs or waits. */
  idleNow(): Promise<void> {
    if (this.busy === 0 && !this.waitingCount()) return Promise.resolve();
    return new Promise((resolve) => (this.drained = resolve));
  }
}

/** The side connections beside the writer (Store.side). */
export type SideLane = 'packing' | 'rollups' | 'snapshot';

/** Runs fn inside BEGIN/COMMIT on the connection; any error rolls back, so nothing is half-written. */
export async function inTransaction<T>(q: Queryable, conn: Connection, fn: (q: Queryable, conn: Connection) => Promise<T>): Promise<T> {
  await q.run('BEGIN TRANSACTION');
  try {
    const result = await fn(q, conn);
    await q.run('COMMIT');
    return result;
  } catch (err) {
    await q.run('ROLLBACK');
    throw err;
  }
}

/** The DuckDB store: one file in the data directory, one writer (the default). */
export class DuckStore implements Store {
  readonly dialect = 'duckdb' as const;
  private tail: Promise<unknown> = Promise.resolve();
  /** Reads refused with StoreOverloaded since the start. */
  get readsRefused(): number {
    return this.readers.refused;
  }
  /** Settles when the last exclusive work that is not background has; how many such are queued or running. */
  private foreground: Promise<unknown> = Promise.resolve();
  private foregroundPending = 0;
  /** When the exclusive work running now started (NaN: none runs). */
  private exclusiveSince = NaN;
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    private readonly readers: ReadPool,
    readonly path: string,
    /** Opened by openReadOnly: close() does not checkpoint. */
    private readonly readOnly = false,
  ) {}

  /** `migrations.log` gets the progress lines of long migrations (server/main.ts prints them). */
  static async open(dataDir: string, opts: { migrations?: MigrationOptions; reads?: Partial<ReadLimits>; memoryMb?: number } = {}): Promise<DuckStore> {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, 'hopwatch.duckdb');
    // A memory limit, and a place to spill beyond it, in the data directory (duck-memory.ts).
    const instance = await DuckDBInstance.create(path, duckMemoryOptions(dataDir, opts.memoryMb));
    const conn = await instance.connect();
    // A commit of an ingest flush (hundreds of thousands of rows) would by default skip the WAL
    // and checkpoint at once, holding every other commit meanwhile. Its full row groups are
    // already in the database file (DuckDB writes them while appending), so the WAL only
    // needs a reference to them (about 2 KB per commit, measured): committing that and leaving
    // the checkpoint to the WAL size threshold made the ingest about 8% faster.
    await conn.run('SET auto_checkpoint_skip_wal_threshold = 1000000000000');
    const readers = await Promise.all(Array.from({ length: ReadConnections }, () => instance.connect()));
    const store = new DuckStore(instance, conn, new ReadPool(readers, { ...DefaultReadLimits, ...opts.reads }), path);
    await store.exclusive((q) => applyMigrations(q, opts.migrations));
    return store;
  }

  /**
   * Opens a data directory's DuckDB file for reading only, as it is (no migration, no
   * checkpoint): migrate-store's source (server/store/migrate-store/). DuckDB refuses while
   * another process holds the file's write lock (a running appliance); every write fails.
   */
  static async openReadOnly(dataDir: string, fileName = 'hopwatch.duckdb'): Promise<DuckStore> {
    const path = join(dataDir, fileName);
    if (!existsSync(path)) throw new Error(`there is no ${path}`);
    const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY', ...duckMemoryOptions(dataDir) });
    const conn = await instance.connect();
    const readers = await Promise.all(Array.from({ length: ReadConnections }, () => instance.connect()));
    return new DuckStore(instance, conn, new ReadPool(readers), path, true);
  }

  /**
   * Runs fn with read access that needs no exclusive section: each statement sees what is
   * committed when it starts (an ingest transaction in progress is not seen, nor waited for),
   * and statements started together run together. Not for writes: those belong to exclusive.
   */
  read<T>(fn: (q: Queryable) => Promise<T>, opts: ReadOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const q = opts.priority === 'sign-in' ? this.readers.signInQueryable : opts.priority === 'bulk' ? this.readers.bulkQueryable : this.readers.queryable;
    // Read your writes: a write accepted before this read is committed before it starts (a
    // console that changes the interval and then reads the target sees the new one). Only
    // background work, the ingest flushes, is not waited for.
    if (this.foregroundPending === 0) return fn(q);
    // Background work waits for the writes before it as long as they take, as before.
    if (!opts.priority || opts.priority === 'background') return this.foreground.then(() => fn(q));
    return this.afterForeground().then(() => fn(q));
  }

  /**
   * Settles when the foreground writes queued so far have, or fails with StoreOverloaded
   * after the read limits' wait: a write that never settles (or a queue of them behind a
   * long append) must not hold every signed-in request for ever (issue 45 item 7).
   */
  private afterForeground(): Promise<void> {
    const { waitMs } = this.readers.limits;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.readers.refused++;
        // How long the work holding the writer has run tells a stuck write from a long queue.
        const held = Number.isNaN(this.exclusiveSince) ? '' : `; the write under way started ${Math.round((Date.now() - this.exclusiveSince) / 1000)} s ago`;
        reject(new StoreOverloaded(`a read waited ${Math.round(waitMs / 1000)} s for the writes before it${held}`));
      }, waitMs);
      void this.foreground.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Read connections for statements that read files, not tables (an import reads its data
   * file beside its own transaction): unlike read, they never wait for queued writes, so a
   * transaction can use them while it runs. Never for the store's tables.
   */
  get fileReader(): Queryable {
    if (this.closed) throw new Error('the store is closed');
    return this.readers.queryable;
  }

  /**
   * Runs fn with the connection to itself: nothing else runs until it settles. The raw
   * connection is there for appenders (bulk ingest). `background`: later reads need not wait
   * for it (Store.read); for work no request is waiting to see, the ingest flushes.
   */
  exclusive<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, opts: { background?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const next = this.tail.then(() => {
      this.exclusiveSince = Date.now();
      return fn(duckQueryable(this.conn), this.conn);
    });
    this.tail = next.catch(() => undefined);
    void this.tail.then(() => (this.exclusiveSince = NaN));
    if (!opts.background) {
      this.foreground = this.tail;
      this.foregroundPending++;
      void this.tail.then(() => this.foregroundPending--);
    }
    return next;
  }

  /** Runs fn inside BEGIN/COMMIT; any error rolls back, so nothing is half-written. */
  transaction<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, opts: { background?: boolean } = {}): Promise<T> {
    return this.exclusive((q, conn) => inTransaction(q, conn, fn), opts);
  }

  /** One process owns the file: nothing else to wait for. */
  alone<T>(_work: string, fn: () => Promise<T>): Promise<T> {
    return fn();
  }

  run(sql: string, params?: Params) {
    return this.exclusive((q) => q.run(sql, params));
  }
  all<T = Row>(sql: string, params?: Params) {
    return this.exclusive((q) => q.all<T>(sql, params));
  }
  one<T = Row>(sql: string, params?: Params) {
    return this.exclusive((q) => q.one<T>(sql, params));
  }
  columns(sql: string, params?: Params) {
    return this.exclusive((q) => q.columns(sql, params));
  }
  numbers(sql: string, params?: Params) {
    return this.exclusive((q) => q.numbers(sql, params));
  }
  numbersWithIntegers(sql: string, params?: Params) {
    return this.exclusive((q) => q.numbersWithIntegers(sql, params));
  }
  numberChunks(sql: string, params?: Params) {
    return this.exclusive((q) => q.numberChunks(sql, params));
  }

  /** Side lanes: a connection each, their work one at a time. */
  private readonly lanes = new Map<SideLane, { conn: Promise<DuckDBConnection>; tail: Promise<unknown> }>();

  /**
   * Runs fn on a connection of its own beside the writer, one work at a time per lane: for
   * background writes that must not hold the ingest flushes (the packing of closed days,
   * sample-order.ts; the ingest's closed rollup rows, each on its lane so that an hour of
   * packing does not hold the rollups). DuckDB lets its transactions append and delete beside
   * the writer's; one that changes a row another transaction changed first fails at commit,
   * so side work must be safe to try again. Reads see it once it commits.
   */
  side<T>(fn: (q: Queryable, conn: Connection) => Promise<T>, lane: SideLane = 'packing'): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    let l = this.lanes.get(lane);
    if (!l) this.lanes.set(lane, (l = { conn: this.instance.connect(), tail: Promise.resolve() }));
    const { conn } = l;
    const next = l.tail.then(async () => {
      const c = await conn;
      return fn(duckQueryable(c), c);
    });
    l.tail = next.catch(() => undefined);
    return next;
  }

  /**
   * Writes a consistent copy of the whole database into `file` (a new DuckDB file), for
   * migrate-store while this process holds the store (server/store/migrate-store/snapshot.ts).
   * On a side lane of its own: one transaction reads what was committed when it began, so the
   * ingest and the API go on meanwhile. The copy gets a table `migrate_snapshot` with the time
   * (ms) taken just before that transaction began: everything committed before it is in the copy.
   */
  snapshotTo(file: string): Promise<{ takenAt: number }> {
    return this.side(async (q) => {
      // Best effort: folds the WAL into the file first (refused while another connection reads).
      await q.run('CHECKPOINT').catch(() => undefined);
      const takenAt = Date.now();
      const alias = 'migrate_snapshot_target';
      await q.run('BEGIN TRANSACTION');
      try {
        await q.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${alias}`);
        const [{ db }] = await q.all<{ db: string }>('SELECT current_database() AS db');
        // The schema (tables, views, sequences where they stand), then the rows table by table,
        // a table before those that refer to it: COPY FROM DATABASE's own data step takes the
        // tables in an order that may put users before accounts, and fails their foreign key.
        await q.run(`COPY FROM DATABASE "${db.replaceAll('"', '""')}" TO ${alias} (SCHEMA)`);
        const tables = (await q.all<{ t: string }>(`SELECT table_name AS t FROM duckdb_tables() WHERE database_name = $1 AND schema_name = 'main' AND NOT internal AND NOT temporary ORDER BY 1`, [db])).map((r) => r.t);
        const refs = await q.all<{ t: string; r: string }>(
          `SELECT table_name AS t, referenced_table AS r FROM duckdb_constraints() WHERE database_name = $1 AND schema_name = 'main' AND constraint_type = 'FOREIGN KEY'`,
          [db],
        );
        const copied = new Set<string>();
        while (copied.size < tables.length) {
          const next = tables.filter((t) => !copied.has(t) && refs.every((f) => f.t !== t || f.r === t || copied.has(f.r) || !tables.includes(f.r)));
          if (!next.length) throw new Error(`the tables ${tables.filter((t) => !copied.has(t)).join(', ')} refer to each other`);
          for (const t of next) {
            const name = `"${t.replaceAll('"', '""')}"`;
            await q.run(`INSERT INTO ${alias}.main.${name} SELECT * FROM "${db.replaceAll('"', '""')}".main.${name}`);
            copied.add(t);
          }
        }
        await q.run(`CREATE TABLE ${alias}.migrate_snapshot AS SELECT $1::BIGINT AS taken_at, $2::INTEGER AS pid`, [takenAt, process.pid]);
        await q.run('COMMIT');
      } catch (err) {
        await q.run('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        await q.run(`DETACH DATABASE IF EXISTS ${alias}`).catch(() => undefined);
      }
      return { takenAt };
    }, 'snapshot');
  }

  memory(): Promise<StoreMemory> {
    return this.readers.with((q) => storeMemory(q));
  }

  /** A CHECKPOINT refuses while a read runs; DuckDB's own checkpoint then frees the blocks later. */
  async reclaim(): Promise<void> {
    await this.run('CHECKPOINT').catch(() => undefined);
  }

  /** Waits for queued work, checkpoints the WAL into the file, and closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    // Side work first: a CHECKPOINT fails while its transaction is open.
    for (const l of this.lanes.values()) await l.tail;
    // Reads first: a CHECKPOINT fails while another connection has a transaction open.
    this.readers.shut = true;
    await this.readers.idleNow();
    if (!this.readOnly) await this.exclusive((q) => q.run('CHECKPOINT')).catch(() => undefined);
    this.closed = true;
    await this.tail;
    for (const c of this.readers.connections) c.closeSync();
    for (const l of this.lanes.values()) (await l.conn).closeSync();
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
