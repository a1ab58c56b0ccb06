// The one place that knows the two SQL dialects apart (issue 42 item 2). Repositories keep one
// SQL text per statement; both DuckDB and PostgreSQL speak PostgreSQL's flavour for most of it
// ($1 placeholders, ON CONFLICT, unnest, FILTER, RETURNING). What differs lives here:
// - list parameters: `list(xs)` is a DuckDB LIST value or a PostgreSQL array, bound as one
//   parameter (`unnest($1::INTEGER[])` on both);
// - DuckDB's type names (DOUBLE, TINYINT, HUGEINT) and functions (list, list_contains,
//   epoch_ms, arg_max, arg_min) exist on PostgreSQL as domains, aggregates and functions that
//   the PostgreSQL baseline creates (`PostgresCompat` below), so a cast or a call reads the same;
// - the few statements no shared text serves ask `dialectOf(q)` (the sessions_counted view);
// - bulk append: DuckDB's appender or PostgreSQL's unnest of typed arrays (append-columns.ts);
// - numeric column reads and placeholders' values: the two Queryables (db.ts, postgres/).
import type { Queryable } from './db.js';

export type DialectName = 'duckdb' | 'postgres';

/** Marks a ListParam: the same across copies of this module (suites load the built server and the sources side by side). */
const ListParamBrand = Symbol.for('hopwatch.store.ListParam');

/** A list bound as one parameter: DuckDB gets a LIST value, PostgreSQL an array. */
export class ListParam {
  readonly [ListParamBrand] = true;

  /** Whether v is a ListParam (of any copy of this module). */
  static is(v: unknown): v is ListParam {
    return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[ListParamBrand] === true;
  }

  constructor(
    readonly items: readonly (number | string | bigint | boolean | null)[],
    /** DuckDB only: bind as the text '[1,2,3]' (cast in SQL), the batched reads' historic form. */
    readonly asText = false,
  ) {}
}

/** A list parameter, always cast in the statement (`$1::INTEGER[]`, `unnest($1::VARCHAR[])`): one statement for many values on both backends. */
export const list = (items: readonly (number | string | bigint | boolean | null)[]): ListParam => new ListParam(items);

/** The dialect of a Queryable (DuckDB when it does not say). */
export function dialectOf(q: Pick<Queryable, 'dialect'>): DialectName {
  return q.dialect ?? 'duckdb';
}

/** Pairs of value and key types the PostgreSQL arg_max/arg_min overloads cover. */
const ArgTypes = ['text', 'integer', 'bigint', 'double precision', 'smallint', 'boolean'];
const KeyTypes = ['bigint', 'integer', 'double precision'];
const typeTag = (t: string) => t.replace(' ', '_');

/** arg_max/arg_min(value, key) as DuckDB has them: the value of the row with the largest/smallest key. */
function argAggregates(): string[] {
  const out: string[] = [];
  for (const v of ArgTypes)
    for (const k of KeyTypes) {
      const pair = `hw_arg_${typeTag(v)}_${typeTag(k)}`;
      out.push(`CREATE TYPE ${pair} AS (v ${v}, k ${k})`);
      out.push(`CREATE FUNCTION ${pair}_value(s ${pair}) RETURNS ${v} LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT (s).v'`);
      for (const [name, op] of [
        ['arg_max', '>'],
        ['arg_min', '<'],
      ]) {
        // A row whose key is NULL is skipped, as DuckDB does.
        out.push(`CREATE FUNCTION ${pair}_${name}(s ${pair}, v ${v}, k ${k}) RETURNS ${pair} LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
          'SELECT CASE WHEN k IS NULL THEN s WHEN s IS NULL OR k ${op} (s).k THEN ROW(v, k)::${pair} ELSE s END'`);
        out.push(`CREATE AGGREGATE ${name}(${v}, ${k}) (SFUNC = ${pair}_${name}, STYPE = ${pair}, FINALFUNC = ${pair}_value)`);
      }
    }
  return out;
}

/**
 * What PostgreSQL gets so that DuckDB's spelling of a type or function reads the same there
 * (run by the PostgreSQL baseline, postgres/baseline.ts, before its tables). Names only
 * DuckDB has; nothing here shadows a PostgreSQL built-in.
 */
export const PostgresCompat: string[] = [
  `CREATE DOMAIN double AS double precision`,
  `CREATE DOMAIN tinyint AS smallint`,
  `CREATE DOMAIN hugeint AS numeric`,
  `CREATE DOMAIN ubigint AS numeric`,
  `CREATE AGGREGATE list(anycompatible) (SFUNC = array_append, STYPE = anycompatiblearray, INITCOND = '{}')`,
  `CREATE FUNCTION list_contains(l anycompatiblearray, x anycompatible) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT x = ANY(l)'`,
  `CREATE FUNCTION len(l anyarray) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT coalesce(cardinality(l), 0)'`,
  `CREATE FUNCTION epoch_ms(ms bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT to_timestamp(ms / 1000.0)'`,
  `CREATE FUNCTION epoch_ms(t timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT floor(extract(epoch FROM t) * 1000)::bigint'`,
  `CREATE FUNCTION to_seconds(n bigint) RETURNS interval LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT make_interval(secs => n)'`,
  `CREATE FUNCTION to_days(n integer) RETURNS interval LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT make_interval(days => n)'`,
  `CREATE FUNCTION contains(s text, part text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT strpos(s, part) > 0'`,
  `CREATE FUNCTION string_split(s text, sep text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT string_to_array(s, sep)'`,
  `CREATE FUNCTION epoch(t timestamptz) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT extract(epoch FROM t)::double precision'`,
  // DuckDB's sha256 of a text is its lowercase hex digest (PostgreSQL's own takes and gives bytea).
  `CREATE FUNCTION sha256(s text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$SELECT encode(sha256(convert_to(s, 'UTF8')), 'hex')$$`,
  // DuckDB's range(n): 0 .. n-1 (seeding many rows in one statement).
  `CREATE FUNCTION range(n bigint) RETURNS SETOF bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT generate_series(0, n - 1)'`,
  ...argAggregates(),
];

/**
 * Inside a transaction: holds off appends to `table` until it ends, reads going on. PostgreSQL
 * runs writers at once (a fold of the sample tallies read them, then a flush appended more,
 * then the fold's DELETE took those too: counts lost); DuckDB's one writer already orders them.
 */
export async function holdAppends(q: Queryable, table: 'sample_tallies'): Promise<void> {
  if (dialectOf(q) === 'postgres') await q.run(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`);
}
