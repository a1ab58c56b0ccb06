// Reading an uploaded data file before anything of it is written: the Parquet framing, the
// metadata (format, version, every field bounded), the column layout, and one full scan
// that decodes every page and checks every value. Whatever is wrong answers 400 with what
// a person can act on; nothing here writes to the store.
import { open } from 'node:fs/promises';
import { badRequest, HttpError } from '../http/errors.js';
import type { Queryable } from '../store/db.js';
import { DataFileFormat, DataFileVersion, MaxImportSamples, MetaKey, SampleLayouts, type FileMetadata } from './format.js';
import { validators } from './metadata-schema.js';
import { sqlPath } from './temp-files.js';

/** A file name as it may appear in an Error: printable, short. */
export function shownName(name: string): string {
  const clean = name.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

export const damaged = (name: string) => badRequest(`${shownName(name)} cannot be read: the file is truncated or damaged.`);

/** Parquet files begin and end with "PAR1". */
async function checkFraming(path: string, name: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size < 12) throw damaged(name);
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    await fh.read(tail, 0, 4, size - 4);
    if (head.toString('latin1') !== 'PAR1') throw badRequest(`${shownName(name)} is not a Hopwatch data file (it is not a Parquet file).`);
    if (tail.toString('latin1') !== 'PAR1') throw damaged(name);
  } finally {
    await fh.close();
  }
}

/** DuckDB's complaint about a file becomes the 400 of a damaged file (never a 500). */
export async function reading<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw damaged(name);
  }
}

function parseJson(name: string, key: string, text: string | undefined): unknown {
  if (text === undefined) throw badRequest(`${shownName(name)} is not a Hopwatch data file (no ${key} in its metadata).`);
  let nul = false;
  let value: unknown;
  try {
    // A NUL inside a text (written \u0000 in JSON) is refused: no field of a target holds one.
    value = JSON.parse(text, (_k, v: unknown) => ((nul ||= typeof v === 'string' && v.includes('\u0000')), v));
  } catch {
    throw badRequest(`${shownName(name)} has unreadable ${key} metadata (not JSON).`);
  }
  if (nul || text.includes('\u0000')) throw badRequest(`${shownName(name)} has a NUL character in ${key}.`);
  return value;
}

function checked<T>(name: string, key: string, value: unknown, validate: ((v: unknown) => boolean) & { errors?: unknown }): T {
  if (!validate(value)) {
    const e = (validate.errors as { instancePath?: string; message?: string }[] | null)?.[0];
    throw badRequest(`${shownName(name)} has invalid ${key} metadata: ${(e?.instancePath || '/') + ' ' + (e?.message ?? 'is not valid')}.`);
  }
  return value as T;
}

export async function readMetadata(q: Queryable, path: string, name: string): Promise<FileMetadata> {
  await checkFraming(path, name);
  const rows = await reading(name, () =>
    q.all<{ k: string; v: string }>(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata(${sqlPath(path)})`),
  );
  const kv = new Map(rows.map((r) => [r.k, r.v]));
  if (kv.get(MetaKey.Format) !== DataFileFormat) throw badRequest(`${shownName(name)} is not a Hopwatch data file (a Parquet file without ${MetaKey.Format} = ${DataFileFormat}).`);
  const version = Number(kv.get(MetaKey.Version));
  if (!Number.isInteger(version) || version < 1) throw badRequest(`${shownName(name)} has no valid ${MetaKey.Version}.`);
  if (version > DataFileVersion) {
    throw badRequest(`${shownName(name)} was written by a newer Hopwatch (data file format version ${version}); this server reads versions 1 to ${DataFileVersion}. Update Hopwatch to import it.`);
  }
  const get = (key: string) => parseJson(name, key, kv.get(key));
  return {
    version,
    target: checked(name, MetaKey.Target, get(MetaKey.Target), validators.target),
    range: checked(name, MetaKey.Range, get(MetaKey.Range), validators.range),
    configuration: checked(name, MetaKey.Configuration, get(MetaKey.Configuration), validators.configuration),
    hosts: checked(name, MetaKey.Hosts, get(MetaKey.Hosts), validators.hosts),
    comments: checked(name, MetaKey.Comments, get(MetaKey.Comments), validators.comments),
    routeChanges: checked(name, MetaKey.RouteChanges, get(MetaKey.RouteChanges), validators.routeChanges),
  };
}

const tooMany = (name: string, n: number) =>
  new HttpError(413, `${shownName(name)} holds ${n.toLocaleString('en-US')} hop samples; at most ${MaxImportSamples.toLocaleString('en-US')} can be imported.`);

/** The sample columns and their count against the metadata (no scan of the values). */
export async function checkLayout(q: Queryable, path: string, name: string, meta: FileMetadata): Promise<void> {
  // The claims first: a file that says it holds 10^12 samples is refused before any scan.
  if (meta.range.Samples > MaxImportSamples) throw tooMany(name, meta.range.Samples);
  const file = sqlPath(path);
  const counted = await reading(name, () => q.one<{ n: number }>(`SELECT sum(num_rows)::BIGINT AS n FROM parquet_file_metadata(${file})`));
  if ((counted?.n ?? 0) > MaxImportSamples) throw tooMany(name, counted!.n);
  if (counted?.n !== meta.range.Samples) {
    throw badRequest(`${shownName(name)} is inconsistent: its metadata says ${meta.range.Samples} samples, the file holds ${counted?.n ?? 0}.`);
  }
  const columns = await reading(name, () => q.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM read_parquet(${file})`));
  const layout = columns.map((c) => `${c.column_name} ${c.column_type}`).join(', ');
  // Each version its own columns (format.ts SampleLayouts): a file of version 1 has version 1's.
  const expected = SampleLayouts[meta.version].columns.map(([n, t]) => `${n} ${t}`).join(', ');
  if (layout !== expected) {
    throw badRequest(`${shownName(name)} does not have the sample columns of a Hopwatch data file of format version ${meta.version} (${expected}).`);
  }
}

/** The sample columns, their count against the metadata, and every value (one scan). */
export async function checkSamples(q: Queryable, path: string, name: string, meta: FileMetadata): Promise<void> {
  await checkLayout(q, path, name, meta);
  const file = sqlPath(path);
  const layout = SampleLayouts[meta.version];
  const scan = await reading(name, () =>
    q.one<{ n: number; bad: number; first: number | null; last: number | null }>(
      `SELECT count(*)::BIGINT AS n, min(${layout.timeMs}) AS first, max(${layout.timeMs}) AS last,
         count(*) FILTER (WHERE NOT coalesce(${layout.valid}, false))::BIGINT AS bad
       FROM read_parquet(${file})`,
    ),
  );
  if (!scan || scan.n !== meta.range.Samples) throw damaged(name);
  if (scan.bad > 0) throw badRequest(`${shownName(name)} holds ${scan.bad} samples with an invalid time, hop or latency.`);
  if (scan.n > 0 && (scan.first !== meta.range.Begin || scan.last !== meta.range.End)) {
    throw badRequest(`${shownName(name)} is inconsistent: its samples do not span the range its metadata names.`);
  }
}
