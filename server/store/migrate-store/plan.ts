// The chunks of a copy, computed from the source alone, so that a run after a kill computes the
// same ones and skips those the target recorded as done: every table's rows in ranges of
// rowids (DuckDB's rowids of a file opened read-only do not move), then per UTC day and session
// its samples and rollup rows of every level (a day's sessions side by side share its partitions).
import type { Queryable } from '../db.js';

/** Rows of a plain table per chunk (one PostgreSQL transaction each). */
export const TableChunkRows = 20_000;
const DayMs = 86_400_000;

/** DuckDB's tables that are not copied as rows: samples and rollups go through the layout, the migration history is the target's own. */
export const NotCopiedAsRows = new Set(['samples', 'rollups', 'schema_migrations']);

export type Chunk =
  | { kind: 'table'; key: string; table: string; from: number; to: number; rows: number; first: boolean }
  | { kind: 'samples'; key: string; sessionId: number; day: number; from: number; to: number; rows: number };

/** A column of a table and how it is read as text (lists as JSON, the rest as DuckDB's text of the value). */
export interface SourceColumn {
  name: string;
  list: boolean;
}

/** The tables to copy as rows, accounts first (users refer to them), and their columns. */
export async function sourceTables(q: Queryable): Promise<{ table: string; columns: SourceColumn[] }[]> {
  const cols = await q.all<{ t: string; c: string; type: string }>(
    `SELECT table_name AS t, column_name AS c, data_type AS type FROM duckdb_columns() WHERE NOT internal AND schema_name = 'main'
     ORDER BY table_name, column_index`,
  );
  const byTable = new Map<string, SourceColumn[]>();
  for (const r of cols) {
    if (NotCopiedAsRows.has(r.t)) continue;
    byTable.set(r.t, [...(byTable.get(r.t) ?? []), { name: r.c, list: r.type.endsWith('[]') }]);
  }
  // Views (sessions_counted) have columns too: tables only.
  const tables = new Set((await q.all<{ t: string }>(`SELECT table_name AS t FROM duckdb_tables() WHERE NOT internal AND schema_name = 'main'`)).map((r) => r.t));
  return [...byTable]
    .filter(([t]) => tables.has(t))
    .map(([table, columns]) => ({ table, columns }))
    .sort((a, b) => (a.table === 'accounts' ? -1 : b.table === 'accounts' ? 1 : a.table.localeCompare(b.table)));
}

/** Every chunk, in copy order. */
export async function planChunks(q: Queryable, tables: string[]): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for (const table of tables) {
    const groups = await q.all<{ k: number; n: number }>(`SELECT (rowid // ${TableChunkRows})::BIGINT AS k, count(*)::BIGINT AS n FROM "${table}" GROUP BY 1 ORDER BY 1`);
    // Even an empty table gets its first chunk: it empties what the target's migrations put there.
    if (!groups.length || Number(groups[0].k) !== 0) groups.unshift({ k: 0, n: 0 });
    for (const g of groups) {
      const k = Number(g.k);
      out.push({ kind: 'table', key: `table ${table} ${k}`, table, from: k * TableChunkRows, to: (k + 1) * TableChunkRows, rows: Number(g.n), first: k === 0 });
    }
  }
  const days = await q.all<{ sid: number; day: number; n: number }>(
    `SELECT sid, day, sum(n)::BIGINT AS n FROM (
       SELECT session_id AS sid, floor(time / ${DayMs})::BIGINT AS day, count(*) AS n FROM samples GROUP BY ALL
       UNION ALL
       SELECT session_id AS sid, floor(time / ${DayMs})::BIGINT AS day, count(*) AS n FROM rollups GROUP BY ALL
     ) GROUP BY ALL ORDER BY day, sid`,
  );
  for (const d of days) {
    const day = Number(d.day);
    out.push({ kind: 'samples', key: `samples ${d.sid} ${day}`, sessionId: Number(d.sid), day, from: day * DayMs, to: (day + 1) * DayMs, rows: Number(d.n) });
  }
  return out;
}
