// Data files (Parquet) in and out of the store, on either backend (issue 42). DuckDB reads and
// writes Parquet itself, in the store's own statement. PostgreSQL cannot: there the rows go
// through the in-memory DuckDB of Store.fileReader (postgres/file-reader.ts), a column at a
// time, and reach PostgreSQL through the bulk append (append-columns.ts), or leave it for
// DuckDB's COPY ... TO.
import { BIGINT, DOUBLE, INTEGER, SMALLINT } from '@duckdb/node-api';
import { appendColumns, type ChunkColumn } from './append-columns.js';
import { isPgConnection, type Connection, type Queryable } from './db.js';
import { dialectOf } from './dialect.js';
import type { FileReader } from './postgres/file-reader.js';

/** A numeric column of a copy: its name and DuckDB type. */
export interface CopyColumn {
  name: string;
  type: 'BIGINT' | 'INTEGER' | 'SMALLINT' | 'DOUBLE';
}

const duckTypes = { BIGINT, INTEGER, SMALLINT, DOUBLE } as const;

/**
 * Appends the rows `fileSelect` reads from a file (run by DuckDB: read_parquet...) to `table`
 * inside the caller's transaction: `INSERT INTO table (...) fileSelect` on DuckDB; on PostgreSQL
 * the select runs on `files` and its columns are appended on `conn`.
 */
export async function insertFromFile(q: Queryable, conn: Connection, files: Queryable, table: string, columns: CopyColumn[], fileSelect: string): Promise<void> {
  if (!isPgConnection(conn)) {
    await q.run(`INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) ${fileSelect}`);
    return;
  }
  const values = await files.numbersWithIntegers(fileSelect);
  const n = values[0]?.length ?? 0;
  await appendColumns(conn, table, n, columns.map((c, k): ChunkColumn => ({ type: duckTypes[c.type], values: values[k] })));
}

let copies = 0;

/**
 * Writes what `select` reads from the store to a Parquet file: `COPY (select) TO path (options)`
 * on DuckDB; on PostgreSQL the columns are read from PostgreSQL and written by the in-memory
 * DuckDB with the same options. `path` is a SQL string literal (temp-files.ts sqlPath).
 */
export async function copyToFile(q: Queryable, files: FileReader | undefined, select: string, columns: CopyColumn[], path: string, options: string): Promise<void> {
  if (dialectOf(q) !== 'postgres') {
    await q.run(`COPY (${select}) TO ${path} (${options})`);
    return;
  }
  if (!files) throw new Error('no file reader for a PostgreSQL store');
  await writeColumnsToFile(files, columns, await q.numbersWithIntegers(select), path, options);
}

/** Writes columns held in JS to a Parquet file through the in-memory DuckDB (`COPY ... TO path (options)`). */
export async function writeColumnsToFile(files: FileReader, columns: CopyColumn[], values: ArrayLike<number>[], path: string, options: string): Promise<void> {
  const n = values[0]?.length ?? 0;
  const table = `copy_out_${++copies}`;
  await files.withConnection(async (fq, conn) => {
    await fq.run(`CREATE TEMP TABLE ${table} (${columns.map((c) => `${c.name} ${c.type}`).join(', ')})`);
    try {
      await appendColumns(conn, table, n, columns.map((c, k): ChunkColumn => ({ type: duckTypes[c.type], values: values[k] as ChunkColumn['values'] })));
      await fq.run(`COPY ${table} TO ${path} (${options})`);
    } finally {
      await fq.run(`DROP TABLE ${table}`);
    }
  });
}
