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

/** A copy of `src` with some metadata values replaced (and optionally other rows). */
export async function rewrite(src: string, dst: string, kv: Record<string, string>, select = '*'): Promise<void> {
  const all = { ...(await readKv(src)), ...kv };
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const meta = Object.entries(all).map(([k, v]) => `${lit(k)}: ${lit(v)}`).join(', ');
    await c.run(`COPY (SELECT ${select} FROM read_parquet(${lit(src)})) TO ${lit(dst)} (FORMAT parquet, KV_METADATA {${meta}})`);
  } finally {
    c.closeSync();
    db.closeSync();
  }
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
