// Test fixture: bad data files made from a good one with DuckDB (the same writer the server
// uses), so each differs from a real export in one way only.
import { readFileSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The file's key-value metadata as text. */
export async function readKv(path: string): Promise<Record<string, string>> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${lit(path)})`);
    return Object.fromEntries(r.getRowObjectsJS().map((x) => [x.k as string, x.v as string]));
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** A copy of `src` with some metadata values replaced (and optionally other rows, or other COPY options). */
export async function rewrite(src: string, dst: string, kv: Record<string, string>, select = '*', options = ''): Promise<void> {
  const all = { ...(await readKv(src)), ...kv };
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const meta = Object.entries(all).map(([k, v]) => `${lit(k)}: ${lit(v)}`).join(', ');
    await c.run(`COPY (SELECT ${select} FROM read_parquet(${lit(src)})) TO ${lit(dst)} (FORMAT parquet, ${options ? `${options}, ` : ''}KV_METADATA {${meta}})`);
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/** Rows of a query over the file by plain DuckDB (no Hopwatch code): `file` in the SQL is the file. */
export async function query(path: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const r = await c.runAndReadAll(sql.replaceAll('file', `read_parquet(${lit(path)})`));
    return r.getRowObjectsJS();
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/**
 * The previous release's data file (format version 1) of the same samples as `src` (a
 * version 2 file): its writer's columns (DOUBLE ms, a latency code as the spec-2 number) and
 * COPY options, from samples-sql.ts and export.ts of that release.
 */
export async function asVersion1(src: string, dst: string): Promise<void> {
  await rewrite(
    src,
    dst,
    { 'hopwatch.version': '1' },
    `time_ms::DOUBLE AS time_ms, hop::SMALLINT AS hop, CASE WHEN latency_us < 0 THEN latency_us + (-4194304) ELSE latency_us::DOUBLE / 1000 END AS latency_ms`,
    'PARQUET_VERSION V2, COMPRESSION zstd, ROW_GROUP_SIZE 122880',
  );
}

/** The first `fraction` of the file's bytes. */
export function truncate(src: string, dst: string, fraction: number): void {
  const b = readFileSync(src);
  writeFileSync(dst, b.subarray(0, Math.floor(b.length * fraction)));
}

/** The file with a run of bytes in its middle overwritten (framing intact). */
export function corrupt(src: string, dst: string): void {
  const b = Buffer.from(readFileSync(src));
  const mid = Math.floor(b.length / 3);
  for (let i = 0; i < 256 && mid + i < b.length - 8; i++) b[mid + i] = (b[mid + i] ^ 0x5a) & 0xff;
  writeFileSync(dst, b);
}

/**
 * A data file of generated samples (issue 39 item 5's decompression bombs): `select` over
 * `range(rows) t(i)` gives time_ms, hop and latency_us; the metadata is `src`'s with the
 * range (Samples, Begin, End) of these samples and `kv` on top. Constant or regular columns
 * compress to almost nothing, so a few KB declare and hold millions of samples.
 */
export async function generated(src: string, dst: string, rows: number, select: string, opts: { rowGroupSize?: number; kv?: Record<string, string> } = {}): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const data = `SELECT ${select} FROM range(${rows}) t(i)`;
    const span = (await c.runAndReadAll(`SELECT min(time_ms)::DOUBLE AS b, max(time_ms)::DOUBLE AS e FROM (${data})`)).getRowObjectsJS()[0];
    const kv = await readKv(src);
    const range = { ...JSON.parse(kv['hopwatch.range']), Samples: rows, Begin: span.b, End: span.e, Cut: false };
    const all = { ...kv, 'hopwatch.range': JSON.stringify(range), ...opts.kv };
    const meta = Object.entries(all).map(([k, v]) => `${lit(k)}: ${lit(v)}`).join(', ');
    await c.run(`COPY (${data}) TO ${lit(dst)} (FORMAT parquet, PARQUET_VERSION V2, COMPRESSION zstd, ROW_GROUP_SIZE ${opts.rowGroupSize ?? 122880}, KV_METADATA {${meta}})`);
  } finally {
    c.closeSync();
    db.closeSync();
  }
}
