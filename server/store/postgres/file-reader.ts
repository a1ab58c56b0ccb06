// Store.fileReader on PostgreSQL: an import reads its data file with DuckDB's file functions
// (server/datafiles/), which PostgreSQL does not have. An in-memory DuckDB serves those reads
// (no table of the store is ever in it), made on first use.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Queryable } from '../db.js';
import { duckQueryable } from '../db.js';

export class FileReader {
  private instance: Promise<{ db: DuckDBInstance; conn: DuckDBConnection }> | undefined;
  /** Statements one at a time: the one connection is shared by an import's two readers. */
  private tail: Promise<unknown> = Promise.resolve();

  private serial<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => fn((await this.open()).conn));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private open() {
    this.instance ??= (async () => {
      const db = await DuckDBInstance.create(':memory:');
      return { db, conn: await db.connect() };
    })();
    return this.instance;
  }

  readonly queryable: Queryable = {
    dialect: 'duckdb',
    run: (sql, params) => this.serial((c) => duckQueryable(c).run(sql, params)),
    all: <T>(sql: string, params?: never) => this.serial((c) => duckQueryable(c).all<T>(sql, params)),
    one: <T>(sql: string, params?: never) => this.serial((c) => duckQueryable(c).one<T>(sql, params)),
    columns: (sql, params) => this.serial((c) => duckQueryable(c).columns(sql, params)),
    numbers: (sql, params) => this.serial((c) => duckQueryable(c).numbers(sql, params)),
    numbersWithIntegers: (sql, params) => this.serial((c) => duckQueryable(c).numbersWithIntegers(sql, params)),
    numberChunks: (sql, params) => this.serial((c) => duckQueryable(c).numberChunks(sql, params)),
  };

  /** fn with the in-memory DuckDB's connection itself (its appender: a copy out, file-copies.ts). */
  withConnection<T>(fn: (q: Queryable, conn: DuckDBConnection) => Promise<T>): Promise<T> {
    return this.serial((conn) => fn(duckQueryable(conn), conn));
  }

  async close(): Promise<void> {
    if (!this.instance) return;
    await this.tail;
    const { db, conn } = await this.instance;
    conn.closeSync();
    db.closeSync();
  }
}
