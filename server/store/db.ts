// The DuckDB store: one database file, one writer process. Statements on the shared
// connection run one at a time through a queue, so a transaction is never interleaved
// with another request's statements.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { applyMigrations } from './migrations.js';
import { numericColumns, type NumericColumn } from './numeric-columns.js';

export type Params = DuckDBValue[] | Record<string, DuckDBValue>;
export type Row = Record<string, unknown>;

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
}

function queryable(conn: DuckDBConnection): Queryable {
  return {
    async run(sql, params) {
      await conn.run(sql, params);
    },
    async all<T>(sql: string, params?: Params) {
      const reader = await conn.runAndReadAll(sql, params);
      return reader.getRowObjectsJS().map(plain) as T[];
    },
    async columns(sql, params) {
      const reader = await conn.runAndReadAll(sql, params);
      // An empty result has no column arrays at all: give one empty array per column.
      if (reader.currentRowCount === 0) return Array.from({ length: reader.columnCount }, () => []);
      return reader.getColumnsJS().map((col) => (col.length && typeof col[0] === 'bigint' ? col.map((v) => (typeof v === 'bigint' ? Number(v) : v)) : col));
    },
    async numbers(sql, params) {
      return numericColumns(await conn.run(sql, params));
    },
    async numbersWithIntegers(sql, params) {
      return numericColumns(await conn.run(sql, params), true);
    },
    async one<T>(sql: string, params?: Params) {
      const reader = await conn.runAndReadAll(sql, params);
      const rows = reader.getRowObjectsJS();
      return rows.length ? (plain(rows[0]) as T) : undefined;
    },
  };
}

export class Store implements Queryable {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    readonly path: string,
  ) {}

  static async open(dataDir: string): Promise<Store> {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, 'hopwatch.duckdb');
    const instance = await DuckDBInstance.create(path);
    const conn = await instance.connect();
    const store = new Store(instance, conn, path);
    await store.exclusive((q) => applyMigrations(q));
    return store;
  }

  /**
   * Runs fn with the connection to itself: nothing else runs until it settles. The raw
   * connection is there for appenders (bulk ingest).
   */
  exclusive<T>(fn: (q: Queryable, conn: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const next = this.tail.then(() => fn(queryable(this.conn), this.conn));
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Runs fn inside BEGIN/COMMIT; any error rolls back, so nothing is half-written. */
  transaction<T>(fn: (q: Queryable, conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.exclusive(async (q, conn) => {
      await q.run('BEGIN TRANSACTION');
      try {
        const result = await fn(q, conn);
        await q.run('COMMIT');
        return result;
      } catch (err) {
        await q.run('ROLLBACK');
        throw err;
      }
    });
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

  /** Waits for queued work, checkpoints the WAL into the file, and closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.exclusive((q) => q.run('CHECKPOINT')).catch(() => undefined);
    this.closed = true;
    await this.tail;
    this.conn.closeSync();
    this.instance.closeSync();
  }
}
