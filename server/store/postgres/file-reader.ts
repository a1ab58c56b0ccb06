// Store.fileReader on PostgreSQL: an import reads its data file with DuckDB's file functions
// (server/datafiles/), which PostgreSQL does not have. An in-memory DuckDB serves those reads
// (no table of the store is ever in it), made on first use.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Queryable } from '../db.js';
import { duckQueryable } from '../db.js';

export class FileReader {
  private instance: Promise<{ db: DuckDBInstance; conn: DuckDBConnection }> | undefined;

  private open() {
    this.instance ??= (async () => {
      const db = await DuckDBInstance.create(':memory:');
      return { db, conn: await db.connect() };
    })();
    return this.instance;
  }

  readonly queryable: Queryable = {
    dialect: 'duckdb',
    run: async (sql, params) => duckQueryable((await this.open()).conn).run(sql, params),
    all: async <T>(sql: string, params?: never) => duckQueryable((await this.open()).conn).all<T>(sql, params),
    one: async <T>(sql: string, params?: never) => duckQueryable((await this.open()).conn).one<T>(sql, params),
    columns: async (sql, params) => duckQueryable((await this.open()).conn).columns(sql, params),
    numbers: async (sql, params) => duckQueryable((await this.open()).conn).numbers(sql, params),
    numbersWithIntegers: async (sql, params) => duckQueryable((await this.open()).conn).numbersWithIntegers(sql, params),
    numberChunks: async (sql, params) => duckQueryable((await this.open()).conn).numberChunks(sql, params),
  };

  async close(): Promise<void> {
    if (!this.instance) return;
    const { db, conn } = await this.instance;
    conn.closeSync();
    db.closeSync();
  }
}
