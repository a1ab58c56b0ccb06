// A Queryable over a PostgreSQL client or pool (issue 42 item 2): the same reads as DuckDB's
// (db.ts), numbers as JS numbers. BIGINT and NUMERIC (sum() of a BIGINT) come back as
// numbers, as DuckDB's BIGINT and HUGEINT do through plain(): everything this app stores fits
// one. Numeric column reads come as arrays of rows and are turned into typed columns here.
import { appendFileSync } from 'node:fs';
import pg from 'pg';
import type { Params, Queryable, Row } from '../db.js';
import { ListParam } from '../dialect.js';
import type { NumericColumn } from '../numeric-columns.js';

const Oid = { int8: 20, int2: 21, int4: 23, numeric: 1700, int8Array: 1016, numericArray: 1231 } as const;

/** The type parsers of every PostgreSQL connection of the store. */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === Oid.int8 || oid === Oid.numeric) return (v: string) => Number(v);
    if (oid === Oid.int8Array || oid === Oid.numericArray) {
      const parseArray = pg.types.getTypeParser(1022 as never /* float8[] */, 'text') as (v: string) => number[];
      return (v: string) => parseArray(v);
    }
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * PostgreSQL's text cannot hold U+0000 (DuckDB's can): a parameter with it is the caller's bad
 * input, refused with 400 over REST and the hub (their error handling reads `statusCode`),
 * not a failed statement answered 500.
 */
export class NulInText extends Error {
  readonly statusCode = 400;
  constructor() {
    super('Text with the NUL character (U+0000) cannot be stored or looked up.');
  }
}

const checkedText = <T>(v: T): T => {
  if (typeof v === 'string' && v.includes('\u0000')) throw new NulInText();
  return v;
};

/** A value as node-postgres binds it: a list is an array; a BigInt its decimal text. */
function bound(v: unknown): unknown {
  if (ListParam.is(v)) return v.items.map((x) => (typeof x === 'bigint' ? x.toString() : checkedText(x)));
  if (typeof v === 'bigint') return v.toString();
  return checkedText(v);
}

/** Positional parameters only: the app never names them (DuckDB's $name form is not used). */
function values(params?: Params): unknown[] | undefined {
  if (!params) return undefined;
  if (!Array.isArray(params)) throw new Error('named parameters are not supported on PostgreSQL');
  return params.map(bound);
}

type Client = Pick<pg.Pool | pg.PoolClient, 'query'>;

function columnsOf(result: pg.QueryArrayResult, integers: boolean): NumericColumn[] {
  const n = result.rows.length;
  return result.fields.map((f, c) => {
    const int = integers && (f.dataTypeID === Oid.int4 || f.dataTypeID === Oid.int2) && result.rows.every((r) => r[c] !== null);
    const col = int ? new Int32Array(n) : new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const v = result.rows[j][c];
      col[j] = v === null ? NaN : Number(v);
    }
    return col;
  });
}

/**
 * HOPWATCH_LOG_FAILED_SQL=1: a failed statement's text goes to stderr; =/a/file: appended there
 * (porting a statement to PostgreSQL; the test matrix's appliances write to one file).
 */
const failedLog = process.env.HOPWATCH_LOG_FAILED_SQL;
const logFailed = !!failedLog && failedLog !== '0';
const writeFailed = (line: string) => (failedLog === '1' ? process.stderr.write(line) : appendFileSync(failedLog!, line));

export function pgQueryable(inner: Client, opts: { concurrent?: boolean } = {}): Queryable {
  const client: Client = logFailed
    ? {
        query: ((...args: unknown[]) =>
          (inner.query as (...a: unknown[]) => Promise<unknown>)(...args).catch((err: Error) => {
            const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
            writeFailed(`PostgreSQL: ${err.message} in: ${text.replace(/\s+/g, ' ')}\n`);
            throw err;
          })) as unknown as Client["query"],
      }
    : inner;
  const arrays = (sql: string, params?: Params) => client.query({ text: sql, values: values(params), rowMode: 'array' }) as Promise<pg.QueryArrayResult>;
  return {
    dialect: 'postgres',
    concurrent: opts.concurrent,
    pg: inner,
    async run(sql, params) {
      await client.query(sql, values(params));
    },
    async all<T>(sql: string, params?: Params) {
      return (await client.query(sql, values(params))).rows as T[];
    },
    async one<T>(sql: string, params?: Params) {
      return (await client.query(sql, values(params))).rows[0] as T | undefined;
    },
    async columns(sql, params) {
      const r = await arrays(sql, params);
      return r.fields.map((_, c) => r.rows.map((row) => row[c]));
    },
    async numbers(sql, params) {
      return columnsOf(await arrays(sql, params), false) as Float64Array[];
    },
    async numbersWithIntegers(sql, params) {
      return columnsOf(await arrays(sql, params), true);
    },
    async numberChunks(sql, params) {
      const cols = columnsOf(await arrays(sql, params), true);
      return cols.length && cols[0].length ? [cols] : [];
    },
  };
}

export type { Row };
