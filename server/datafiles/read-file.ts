// Reading an uploaded data file before anything of it is written: the Parquet framing, the
// metadata (format, version, every field bounded), the column layout, and one full scan
// that decodes every page and checks every value. Whatever is wrong answers 400 with what
// a person can act on; nothing here writes to the store.
import { open } from 'node:fs/promises';
import { badRequest, HttpError } from '../http/errors.js';
import type { Queryable } from '../store/db.js';
import { DataFileFormat, DataFileVersion, MaxImportSamples, MaxMetadataBytes, MaxRowGroupSamples, MetaKey, SampleLayouts, type FileMetadata } from './format.js';
import { validators } from './metadata-schema.js';
import { sqlPath } from './temp-files.js';

/** A file name as it may appear in an Error: printable, short. */
export function shownName(name: string): string {
  const clean = name.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 77)}...` : clean;
}

export const damaged = (name: string) => badRequest(`${shownName(name)} cannot be read: the file is truncated or damaged.`);

const count = (n: number) => n.toLocaleString('en-US');

/** A file over one of the limits on what it expands to (docs/data-file.md "Limits"): 413, naming the limit. */
const overLimit = (name: string, what: string, n: number, max: number, limit: string) =>
  new HttpError(413, `${shownName(name)} has ${what.replace('#', count(n))}; at most ${count(max)} can be imported (${limit}).`);

/**
 * Parquet files begin and end with "PAR1", the footer's length before the last: a footer over
 * MaxMetadataBytes is refused here, before DuckDB or JSON.parse reads any of it.
 */
async function checkFraming(path: string, name: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size < 12) throw damaged(name);
    const head = Buffer.alloc(4);
    const tail = Buffer.alloc(8);
    await fh.read(head, 0, 4, 0);
    await fh.read(tail, 0, 8, size - 8);
    if (head.toString('latin1') !== 'PAR1') throw badRequest(`${shownName(name)} is not a Hopwatch data file (it is not a Parquet file).`);
    if (tail.toString('latin1', 4) !== 'PAR1') throw damaged(name);
    const footer = tail.readUInt32LE(0);
    if (footer > MaxMetadataBytes) throw overLimit(name, '# bytes of metadata', footer, MaxMetadataBytes, 'metadata size');
    if (footer + 12 > size) throw damaged(name);
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

const EscapedNul = /(?<!\\)(?:\\\\)*\\u0000/;

function parseJson(name: string, key: string, text: string | undefined): unknown {
  if (text === undefined) throw badRequest(`${shownName(name)} is not a Hopwatch data file (no ${key} in its metadata).`);
  let value: unknown;
  try {
    // No reviver: one made the parse 3 times slower (the main thread's pause for a large text).
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${shownName(name)} has unreadable ${key} metadata (not JSON).`);
  }
  // A NUL inside a text is refused: no field of a target holds one. JSON writes it \u0000
  // (an escape not itself escaped: an even run of backslashes before it), never raw.
  if (EscapedNul.test(text) || text.includes('\u0000')) throw badRequest(`${shownName(name)} has a NUL character in ${key}.`);
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
  new HttpError(413, `${shownName(name)} holds ${count(n)} hop samples; at most ${count(MaxImportSamples)} can be imported.`);

/** The samples of each row group, in the file's order (from the footer: nothing of the data is read). */
export async function rowGroups(q: Queryable, path: string, name: string): Promise<number[]> {
  const rows = await reading(name, () =>
    q.all<{ n: number }>(`SELECT any_value(row_group_num_rows)::BIGINT AS n FROM parquet_metadata(${sqlPath(path)}) GROUP BY row_group_id ORDER BY row_group_id`),
  );
  return rows.map((r) => r.n);
}

/**
 * The sample columns and their count against the metadata (no scan of the values), and the
 * limits on what the file expands to that its footer tells (docs/data-file.md "Limits").
 */
export async function checkLayout(q: Queryable, path: string, name: string, meta: FileMetadata): Promise<void> {
  // The claims first: a file that says it holds 10^12 samples is refused before any scan.
  if (meta.range.Samples > MaxImportSamples) throw tooMany(name, meta.range.Samples);
  const file = sqlPath(path);
  const counted = await reading(name, () => q.one<{ n: number }>(`SELECT sum(num_rows)::BIGINT AS n FROM parquet_file_metadata(${file})`));
  if ((counted?.n ?? 0) > MaxImportSamples) throw tooMany(name, counted!.n);
  const largest = Math.max(0, ...(await rowGroups(q, path, name)));
  if (largest > MaxRowGroupSamples) throw overLimit(name, 'a row group of # hop samples', largest, MaxRowGroupSamples, 'rows per row group');
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
