// The SQL text of the rollup format, derived from the declaration (columns.ts): the table,
// the column lists the reads select, and the reduction of rows onto a bucket grid. Queries
// put their own WHERE clauses after these; they only name the owner and place columns.
import { RollupOwnerColumns, RollupRowColumns, RollupTable, storedType, type RollupColumn, type RollupMerge } from './columns.js';
import { latencyMsSql } from '../store/latency-micros.js';

type Declared = (typeof RollupRowColumns)[number];

const definition = (c: { sql: string; type: RollupColumn['type']; nullable?: boolean; micros?: RollupColumn['micros'] }) =>
  `${c.sql} ${storedType(c)}${c.nullable ? '' : ' NOT NULL'}`;

/** The SQL that reads a stored value (a column or an aggregate of it) as the DOUBLE ms memory holds. */
function asRead(c: RollupColumn, expr: string): string {
  if (c.micros === 'latency') return latencyMsSql(expr);
  if (c.micros === 'sum' || c.micros === 'measurement') return `(${expr})::DOUBLE / 1000`;
  return expr;
}

const selected = (c: RollupColumn) => (c.micros ? `${asRead(c, c.sql)} AS ${c.sql}` : c.sql);

/**
 * The CREATE TABLE text of the declared format. Migration 2 created the table in its own
 * words and is never edited (migrations.ts); table.test.ts checks that it and this text
 * give the same columns.
 */
export function rollupTableSql(table = RollupTable): string {
  return `CREATE TABLE ${table} (\n  ${[...RollupOwnerColumns, ...RollupRowColumns].map(definition).join(',\n  ')})`;
}

/**
 * The migration steps (Migration.up) that add a declared column to an existing rollups
 * table. A NOT NULL column needs a DEFAULT for the rows already stored, the value that
 * merges as "nothing" (0 for a sum); DuckDB adds the column first and the constraint after.
 */
export function addRollupColumnSql(key: Declared['key'], opts: { default?: number; table?: string } = {}): string[] {
  const c = RollupRowColumns.find((x) => x.key === key)!;
  const table = opts.table ?? RollupTable;
  const add = `ALTER TABLE ${table} ADD COLUMN ${c.sql} ${storedType(c)}${opts.default === undefined ? '' : ` DEFAULT ${opts.default}`}`;
  return c.nullable ? [add] : [add, `ALTER TABLE ${table} ALTER COLUMN ${c.sql} SET NOT NULL`];
}

/** Every row column, in declared order (what rows.ts rowsFromColumns takes), latencies read as ms. */
export const RollupSelectColumns = RollupRowColumns.map((c: RollupColumn) => selected(c)).join(', ');

// A column as stored, in a type that crosses into JS whole: sums cast to DOUBLE (a BIGINT would
// come as BigInt, value by value), a SMALLINT as the INTEGER memory holds (an Int32Array view
// of the result instead of a copy).
const stored = (c: RollupColumn) =>
  c.micros === 'sum' ? `${c.sql}::DOUBLE AS ${c.sql}` : c.type === 'SMALLINT' ? `${c.sql}::INTEGER AS ${c.sql}` : c.sql;

/**
 * Every row column as stored, in declared order (what rows.ts rowsFromStoredColumns takes):
 * micros columns come as the integers they are. The conversion to ms happens in JS: in
 * DuckDB, the divisions and the CASE of RollupSelectColumns were about 40% of the plain read
 * of a day of 1-minute rows (docs/store.md "Queries").
 */
export const RollupStoredColumns = RollupRowColumns.map(stored).join(', ');

/** The lean columns (columns.ts `lean`) as stored, in declared order (what rows.ts leanRowsFromStoredColumns takes). */
export const RollupLeanStoredColumns = RollupRowColumns.filter((c: RollupColumn) => c.lean).map(stored).join(', ');

// The kernel's merge rule of each statistic in SQL. Sums of integers come back as INTEGER
// (DuckDB widens them), so every column keeps its declared type.
function mergeSql(c: RollupColumn): string {
  const col = c.sql;
  const merges: Record<RollupMerge, string> = {
    sum: c.type === 'DOUBLE' ? `sum(${col})` : `sum(${col})::${c.type}`, // micros: read as DOUBLE below
    min: `min(${col})`,
    max: `max(${col})`,
    earliest: `arg_min(${col}, time) FILTER (WHERE ${col} IS NOT NULL)`,
    latest: `arg_max(${col}, time) FILTER (WHERE ${col} IS NOT NULL)`,
    bitOr: `bit_or(${col})`,
  };
  return `${asRead(c, merges[c.merge!])} AS ${col}`;
}

/**
 * The select list that reduces rollup rows onto the grid of `$start + k * $period` (the
 * parameters named): one row per bucket and hop, in declared order. Merging rows as the
 * kernel would, except jitter: the one pair that straddles two rollup periods is not
 * counted (a window function for it cost 3x the whole query). Group by 1, 2.
 */
export function rollupReduceColumns(start: string, period: string): string {
  const place = `${start} + floor((time - ${start}) / ${period}) * ${period} AS t, hop`;
  return [place, ...RollupRowColumns.filter((c: RollupColumn) => !c.place).map(mergeSql)].join(', ');
}
