// One chunk of the copy, in one PostgreSQL transaction that also records it as done
// (migrate_store_chunks) and, for a session's day of samples, first empties that day of the
// session in PostgreSQL: a kill before the commit leaves nothing of it, after the commit the
// next run skips it; a day written again (the catch-up pass) replaces what was there. Plain tables go as rows (their values as text, read back by PostgreSQL's
// own input functions); samples and rollup rows go through sample-tables.ts, the one seam of
// both layouts: PostgreSQL's round rows and rollup rows in day partitions, packed into blocks
// afterwards by the same packer a running appliance uses.
import type { Queryable, Store } from '../db.js';
import { RollupResolutionsMs } from '../../rollups/levels.js';
import type { RollupSet } from '../../rollups/append.js';
import type { SampleBatch } from '../../ingest/sample-columns.js';
import { prepareRollupWrite, prepareSampleWrite, readRawSamples, readRollupRows, writeRollupRows, writeSamples } from '../sample-tables.js';
import { RollupLevels, SampleBlocks, SampleRounds } from '../postgres/samples-schema.js';
import type { Chunk, SourceColumn } from './plan.js';
import { NotificationSequencePastIds } from '../migrations.js';

/** PostgreSQL's tables of samples and rollup rows, and the column of time each is partitioned or indexed by (blocks lie within their UTC day). */
const SampleTables: [string, string][] = [
  [SampleRounds.name, SampleRounds.key],
  [SampleBlocks.name, SampleBlocks.key],
  ...RollupLevels.flatMap((l): [string, string][] => [
    [l.rows, 'time'],
    [l.blocks, 'period'],
  ]),
];

/**
 * Empties a session's samples and rollup rows of [from, to) (a UTC day) in PostgreSQL, plain or
 * packed: a chunk written again (its first try was cut short, or the catch-up pass rewrites the
 * day) replaces what is there, in the chunk's transaction.
 */
export async function deleteSessionDay(q: Queryable, sessionId: number, from: number, to: number): Promise<void> {
  for (const [table, key] of SampleTables) await q.run(`DELETE FROM ${table} WHERE session_id = $1 AND ${key} >= $2 AND ${key} < $3`, [sessionId, from, to]);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What a chunk of samples reads from the source: its samples and its rollup rows of every level. */
export interface SampleChunk {
  batch: SampleBatch;
  sets: RollupSet[];
}

/** Reads a session day's samples (time, then hop order) and rollup rows (time, then hop) from the source. */
export async function readSampleChunk(source: Queryable, c: Extract<Chunk, { kind: 'samples' }>): Promise<SampleChunk> {
  const s = await readRawSamples(source, c.sessionId, c.from, c.to);
  const batch: SampleBatch = { length: s.length, session: new Int32Array(s.length).fill(c.sessionId), time: s.time, hop: s.hop, latency: s.latency };
  const sets: RollupSet[] = [];
  for (const resolution of RollupResolutionsMs) {
    const rows = await readRollupRows(source, resolution, c.sessionId, c.from, c.to);
    if (rows.time.length) sets.push({ resolution, sessionId: c.sessionId, rows });
  }
  return { batch, sets };
}

/** Reads a table chunk's rows as JSON-ready objects: every value as DuckDB's text of it, lists as arrays. */
export async function readTableChunk(source: Queryable, c: Extract<Chunk, { kind: 'table' }>, columns: SourceColumn[]): Promise<Record<string, unknown>[]> {
  const select = columns.map((col) => (col.list ? `to_json(${quote(col.name)})::VARCHAR` : `${quote(col.name)}::VARCHAR`) + ` AS ${quote(col.name)}`).join(', ');
  const rows = await source.all<Record<string, string | null>>(`SELECT ${select} FROM ${quote(c.table)} WHERE rowid >= $1 AND rowid < $2 ORDER BY rowid`, [c.from, c.to]);
  const lists = columns.filter((col) => col.list);
  for (const r of rows) for (const col of lists) if (r[col.name] !== null) (r as Record<string, unknown>)[col.name] = JSON.parse(r[col.name]!);
  return rows;
}

/** Writes a chunk read before into the target, and records it done, in one transaction. */
export async function writeChunk(target: Store, c: Chunk, data: SampleChunk | Record<string, unknown>[], columns?: SourceColumn[]): Promise<void> {
  if (c.kind === 'samples') {
    const { batch, sets } = data as SampleChunk;
    // Day partitions first, outside the transaction (CREATE ... PARTITION OF locks the parent).
    await prepareSampleWrite(target, batch);
    await prepareRollupWrite(target, sets);
  }
  await target.transaction(async (q, conn) => {
    if (c.kind === 'samples') {
      const { batch, sets } = data as SampleChunk;
      await deleteSessionDay(q, c.sessionId, c.from, c.to);
      if (batch.length) await writeSamples(conn, batch);
      if (sets.length) await writeRollupRows(conn, sets);
    } else {
      const rows = data as Record<string, unknown>[];
      // The first chunk of a table empties it: the target's migrations put rows there (the Default configuration).
      if (c.first) await q.run(`DELETE FROM ${quote(c.table)}`);
      if (rows.length) {
        const names = columns!.map((col) => quote(col.name)).join(', ');
        await q.run(`INSERT INTO ${quote(c.table)} (${names}) SELECT ${names} FROM json_populate_recordset(NULL::${quote(c.table)}, $1::json)`, [JSON.stringify(rows)]);
      }
    }
    await q.run(`INSERT INTO migrate_store_chunks (chunk, rows) VALUES ($1, $2)`, [c.key, c.rows]);
  });
}

/**
 * Each sequence of the target set where the source's stands, so new ids go on after the copied
 * ones. DuckDB's own definition of a sequence (its `sql`) says START at the value it hands out
 * next, whether the file was reopened since or not (its last_value then shows that same
 * value, not the last one handed out): PostgreSQL's hands out that one next too.
 */
export async function carrySequences(source: Queryable, target: Store): Promise<number> {
  const seqs = await source.all<{ name: string; sql: string }>(`SELECT sequence_name AS name, sql FROM duckdb_sequences() WHERE NOT temporary`);
  let n = 0;
  for (const s of seqs) {
    const next = /\bSTART (?:WITH )?(-?\d+)/i.exec(s.sql)?.[1];
    if (next === undefined) throw new Error(`the sequence ${s.name} has no START in DuckDB's definition: ${s.sql}`);
    const exists = await target.one<{ ok: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS ok`, [s.name]);
    if (!exists?.ok) continue;
    await target.run(`SELECT setval($1, $2::BIGINT, false)`, [s.name, next]);
    n++;
  }
  // DuckDB gave notification ids from a counter, not its sequence: PostgreSQL's goes past them.
  await target.run(NotificationSequencePastIds);
  return n;
}
