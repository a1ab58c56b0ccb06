// The bulk write of a data file's samples and rollups (ImportPP2File), beside the live ingest
// pipeline instead of through it. The pipeline is built for rounds that trickle in: a flush
// per batch, a worker task, a commit, rollup rows written in groups. A file arrives whole,
// so here, inside the caller's one transaction, the file goes in a slice of row groups at a
// time: the slice's samples with one INSERT ... SELECT from the file (DuckDB reads and
// writes it on its own threads, in the file's order) while the same slice is read a second
// time on a read connection, checked value by value, and rolled up on this thread by the
// same function the pipeline's worker runs (prepareFlush: the same validation, the same
// WASM kernel, the same closing of periods): the JS work and DuckDB's insert overlap (a
// profile of the sequential version had the main thread idle half the import, waiting for
// DuckDB). The slice's rollup rows are then appended with the pipeline's own appender; the
// marks and the session's counters are written once at the end. Whatever the file says,
// memory holds one slice and the main thread works in steps of bounded work with a turn of
// the event loop between them (issue 39 item 5: a 12 KB file of 20 M samples held it 11.8 s
// and took 1.09 GB). What the store holds after it is what the pipeline leaves after a
// session of the same samples finishes (test: bulk-import.integration.test.ts compares the
// two row by row).
import { HttpError } from '../http/errors.js';
import type { Connection, Queryable } from '../store/db.js';
import type { NumericColumn } from '../store/numeric-columns.js';
import { floorTo, LateSampleGraceMs, RollupResolutionsMs } from '../rollups/levels.js';
import type { RollupSet } from '../rollups/append.js';
import { emptyRollupRows, type RollupRows } from '../rollups/rows.js';
import { RollupRowKeys } from '../rollups/columns.js';
import { prepareFlush, type SessionCarry } from '../ingest/worker.js';
import { FileLatencyCodes, SampleLayouts, type FileMetadata } from './format.js';
import { checkSamples, damaged, rowGroups } from './read-file.js';
import { sqlPath } from './temp-files.js';
import type { CopyColumn } from '../store/file-copies.js';
import { insertSamplesFromFile, writeRollupRows } from '../store/sample-tables.js';

/** The samples table's columns as an import writes them. */
const SampleColumns: CopyColumn[] = [
  { name: 'session_id', type: 'INTEGER' },
  { name: 'time', type: 'BIGINT' },
  { name: 'hop', type: 'SMALLINT' },
  { name: 'latency', type: 'INTEGER' },
];

/**
 * Samples read from the file at once: whole row groups up to this many (a larger group, at
 * most MaxRowGroupSamples, in pieces of it). DuckDB skips the row groups outside a slice's
 * file_row_number range by their statistics (measured: the last 100,000 of 20 M samples in
 * 6 ms), so the slices read the file once (a larger group once per piece). What a slice
 * holds in memory (24 bytes a sample, and its rollup rows) is bounded whatever the file
 * says, its rollup rows are appended before the next slice is read, and copying it out of
 * DuckDB's vectors (synchronous) takes about 4 ms of the main thread (a slice of 524,288
 * took 14 to 150 ms on this shared machine).
 */
export const SliceSamples = 131_072;
/** Samples handed to prepareFlush at a time (about 3 ms of the main thread for 30 hops at 2.5 s). */
const StepSamples = 65_536;
/**
 * Cells (1-minute periods x hops) of the rollup grid one step may close: the kernel's work
 * and memory follow the grid, not the samples (3 samples 45 days apart on hop 255 made a
 * grid of 16.6 M cells: 6 s and 2.7 GB). A step stops before a sample that would widen
 * its grid beyond this (about 25 ms).
 */
const StepCells = 65_536;
/**
 * A sample this far beyond every earlier one starts after a gap: what is open is closed
 * first (a step of a grid of 2 hours: the 1-hour level closes too), then the empty periods
 * of the gap are skipped instead of rolled up (they hold no sample at any level, so the
 * rows are the same; the live pipeline walks them).
 */
const GapMs = 2 * 3_600_000;

/**
 * Rollup rows given to one appender: DuckDB's appender appends and flushes synchronously on
 * this thread (and writes a row group out when one fills). A slice's rows at once (up to
 * about 150,000) held the event loop for tens of ms; parts of 32,768 made the event-loop
 * delay's p99 54 ms on 32 M sparse samples (bench:import-bomb), parts of 8,192 20 ms.
 */
const AppendRows = 8_192;

/** Rows [from, to) of a set's rows, by position (views: the append copies them). */
function rowsAt(rows: RollupRows, from: number, to: number): RollupRows {
  const columns = rows as unknown as Record<string, Float64Array | Int32Array>;
  return Object.fromEntries(RollupRowKeys.map((k) => [k, columns[k].subarray(from, to)])) as unknown as RollupRows;
}

/** The sets, in order, cut into appends of at most `most` rows each (a larger set across several). */
export function appendParts(sets: RollupSet[], most = AppendRows): RollupSet[][] {
  const parts: RollupSet[][] = [];
  let part: RollupSet[] = [];
  let n = 0;
  for (const set of sets) {
    const len = set.rows.time.length;
    for (let at = 0; at < len; at += most) {
      const rows = len <= most ? set.rows : rowsAt(set.rows, at, Math.min(len, at + most));
      if (n + rows.time.length > most && part.length) [part, n] = [[], 0];
      if (!part.length) parts.push(part);
      part.push({ ...set, rows });
      n += rows.time.length;
    }
  }
  return parts;
}

/** The sets through appenders of at most AppendRows rows each, with a turn of the event loop between them. */
async function appendInParts(conn: Connection, sets: RollupSet[]): Promise<void> {
  for (const part of appendParts(sets)) {
    await writeRollupRows(conn, part);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const codes = new Set<number>(FileLatencyCodes);

/** A value the file may hold (read-file.ts checkSamples says the same in SQL). */
function validRow(t: number, h: number, l: number): boolean {
  return Number.isFinite(t) && t >= 0 && t <= 8.64e15 && Number.isInteger(h) && h >= 0 && h <= 255 && Number.isFinite(l) && (l >= 0 || codes.has(l));
}

/** What the write left: counters of the sessions row and the marks. */
export interface BulkWritten {
  samples: number;
  first: number;
  last: number;
  closedUntil: number[];
  /**
   * Where the time went, ms: the samples' INSERT (DuckDB's threads); reading the file into JS
   * and rolling it up (prepareFlush), both while the INSERT runs; appending the rollup rows
   * after it.
   */
  phases: { insert: number; read: number; rollup: number; append: number };
}

/** A slice of the file's samples as the ingest worker takes them (time and latency in ms or a code), whatever its version, in the file's order. */
function sliceSql(path: string, version: number, slice: Slice): string {
  const l = SampleLayouts[version];
  return `SELECT ${l.timeMs} AS time_ms, hop, ${l.latencyMs} AS latency_ms FROM read_parquet(${sqlPath(path)}, file_row_number = true)
          WHERE ${sliceWhere(slice)} ORDER BY file_row_number`;
}

const sliceWhere = (s: Slice) => `file_row_number >= ${s.from} AND file_row_number < ${s.to}`;

/** Rows [from, to) of the file: whole row groups. */
export interface Slice {
  from: number;
  to: number;
}

/** The file's row groups (their sample counts, in order) gathered into slices of up to `most` samples; a larger group in pieces of `most`. */
export function slicesOf(groups: number[], most = SliceSamples): Slice[] {
  const slices: Slice[] = [];
  let at = 0;
  for (const n of groups) {
    const last = slices[slices.length - 1];
    if (last && last.to - last.from + n <= most) last.to += n;
    else for (let from = 0; from < n; from += most) slices.push({ from: at + from, to: at + Math.min(n, from + most) });
    at += n;
  }
  return slices;
}

type Batch = Parameters<typeof prepareFlush>[0]['batch'];

/**
 * The read chunks (DuckDB's vectors: time, hop, latency) as batches of up to `step` samples,
 * copied once into arrays of their own (prepareFlush keeps and rounds rows in place), each
 * value checked as it is copied. Answers null at the first value the checks refuse.
 */
export function* batchesOf(chunks: NumericColumn[][], sessionId: number, seen: { first: number; last: number }, step = StepSamples): Generator<Batch | null> {
  let c = 0;
  let at = 0; // within chunk c
  const left = () => {
    let n = 0;
    for (let k = c; k < chunks.length && n < step; k++) n += chunks[k][0].length - (k === c ? at : 0);
    return Math.min(n, step);
  };
  for (let n = left(); n > 0; n = left()) {
    const time = new Float64Array(n);
    const hop = new Int32Array(n);
    const latency = new Float64Array(n);
    let i = 0;
    while (i < n) {
      const [ct, ch, cl] = chunks[c];
      const k = Math.min(ct.length - at, n - i);
      for (let j = 0; j < k; j++, i++) {
        const t = ct[at + j];
        const h = ch[at + j];
        const l = cl[at + j];
        if (!validRow(t, h, l)) {
          yield null;
          return;
        }
        time[i] = t;
        hop[i] = h;
        latency[i] = l;
        if (t < seen.first) seen.first = t;
        if (t > seen.last) seen.last = t;
      }
      at += k;
      if (at === ct.length) (c++, (at = 0));
    }
    yield { length: n, session: new Int32Array(n).fill(sessionId), time, hop, latency };
  }
}

/** The UTC days (numbers since 1970) the file's valid samples fall on, read from the file alone (DuckDB). */
export async function fileDays(files: Queryable, path: string, meta: FileMetadata): Promise<number[]> {
  const layout = SampleLayouts[meta.version];
  const [days] = await files.numbers(
    `SELECT DISTINCT floor(time_ms::BIGINT / 86400000)::DOUBLE AS d FROM read_parquet(${sqlPath(path)}) WHERE time_ms > 0 AND ${layout.valid} ORDER BY 1`,
  );
  return days ? Array.from(days) : [];
}

/**
 * Writes the file's samples, their rollup rows at every level and the marks for
 * `sessionId`, inside the caller's transaction (q and conn of Store.transaction), a slice
 * of row groups at a time: the slice's samples go in with one INSERT ... SELECT from the
 * file on q; meanwhile the slice is read a second time on `files` (read connections beside
 * the transaction: Store.fileReader) and rolled up on this thread, so DuckDB's insert and
 * the JS rollup overlap instead of taking turns; the slice's rollup rows are appended once
 * its INSERT is done, in the order the pipeline would write them. A value the checks refuse,
 * or a file that reads differently from what its metadata says, throws the same 400
 * checkSamples gives, so the caller's transaction writes nothing.
 */
export async function writeSamplesAndRollups(
  q: Queryable,
  conn: Connection,
  sessionId: number,
  path: string,
  name: string,
  meta: FileMetadata,
  files: Queryable,
): Promise<BulkWritten> {
  const total = meta.range.Samples;
  let carry: SessionCarry = {
    sessionId,
    closedUntil: RollupResolutionsMs.map(() => NaN),
    maxTime: -Infinity,
    finishing: false,
    pending: { time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) },
    pendingRows: RollupResolutionsMs.slice(1).map(() => emptyRollupRows()),
  };
  let read = 0;
  let stored = 0;
  let first = Infinity;
  let last = -Infinity;
  const seen = { first: Infinity, last: -Infinity };
  let invalid = false;
  const phases = { insert: 0, read: 0, rollup: 0, append: 0 };
  const since = (t: number) => performance.now() - t;
  /** The slice's steps' rollup rows, in step order: appended after its INSERT. */
  const sets: RollupSet[] = [];

  /** One step through the worker's flush function; its rows kept for the append. */
  const step = (batch: Batch, finishing: boolean) => {
    const t = performance.now();
    const result = prepareFlush({ op: 'flush', batch, sessions: [{ ...carry, finishing }] });
    const s = result.sessions[0];
    if (result.batch.length) {
      stored += result.batch.length;
      first = Math.min(first, s.first);
      last = Math.max(last, s.last);
    }
    s.rows.forEach((rows, level) => sets.push({ resolution: RollupResolutionsMs[level], sessionId, rows }));
    carry = { ...carry, closedUntil: s.closedUntil, maxTime: Math.max(carry.maxTime, s.last), pending: s.pending, pendingRows: s.pendingRows };
    phases.rollup += since(t);
  };

  /** The grid's width: the highest hop seen so far, plus one (the kernel's hopCount). */
  let hops = 1;
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const noSamples = (): Batch => ({ length: 0, session: new Int32Array(0), time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) });
  const part = (b: Batch, from: number, to: number): Batch => ({
    length: to - from,
    session: b.session.subarray(from, to),
    time: b.time.subarray(from, to),
    hop: b.hop.subarray(from, to),
    latency: b.latency.subarray(from, to),
  });
  const settled = () => carry.pending.time.length === 0 && carry.pendingRows.every((r) => r.time.length === 0);

  /**
   * Before a sample that starts after a gap (GapMs beyond every earlier one): one step
   * without samples with the time raised by GapMs closes every period open at any level
   * (a grid of 2 hours: at most 30,720 cells); then nothing is pending, the gap holds no
   * sample, and each level's closing moves to just before the sample instead of crossing
   * the gap (the rows are the same: empty periods have none).
   */
  const skipGap = async (next: number) => {
    carry = { ...carry, maxTime: carry.maxTime + GapMs };
    step(noSamples(), false);
    await turn();
    if (!settled()) return;
    carry = { ...carry, closedUntil: carry.closedUntil.map((c, level) => (Number.isNaN(c) ? c : Math.max(c, floorTo(next - GapMs, RollupResolutionsMs[level])))) };
  };

  /**
   * A batch in steps of at most StepSamples, each ending before a sample that would make the
   * grid it closes wider than StepCells or that starts after a gap, with a turn of the event
   * loop after each: the server keeps answering meanwhile, whatever the times say.
   */
  const rollUpBatch = async (b: Batch) => {
    for (let i = 0; i < b.length; ) {
      if (Number.isFinite(carry.maxTime) && b.time[i] > carry.maxTime + GapMs) await skipGap(b.time[i]);
      const base = carry.closedUntil[0];
      let max = carry.maxTime;
      let min = Infinity;
      let width = hops;
      let j = i;
      for (; j < b.length && j - i < StepSamples; j++) {
        const t = b.time[j];
        if (j > i && t > max + GapMs) break;
        const top = Math.max(max, t);
        const low = Math.min(min, t);
        const w = Math.max(width, b.hop[j] + 1);
        const from = Number.isNaN(base) ? floorTo(low, RollupResolutionsMs[0]) : base;
        if (j > i && ((top - LateSampleGraceMs - from) / RollupResolutionsMs[0]) * w > StepCells) break;
        [max, min, width] = [top, low, w];
      }
      hops = width;
      step(part(b, i, j), false);
      i = j;
      await turn();
    }
  };

  // The file a slice at a time (whole row groups, SliceSamples): the slice's samples go in
  // with one INSERT ... SELECT (in the file's order, the rows prepare() keeps: a time after 0
  // and a valid value; a file with any other is refused below, the transaction then writing
  // nothing) while the same slice is read on `files` and rolled up here; then its rollup
  // rows are appended. Memory holds one slice, whatever the file holds.
  const layout = SampleLayouts[meta.version];
  let short = false;
  for (const slice of slicesOf(await rowGroups(files, path, name))) {
    const t0 = performance.now();
    const insert = insertSamplesFromFile(
      q,
      conn,
      files,
      SampleColumns,
      `SELECT ${Number(sessionId)}::INTEGER, time_ms::BIGINT, hop::SMALLINT, (${layout.latencyMicros})::INTEGER FROM read_parquet(${sqlPath(path)}, file_row_number = true)
       WHERE ${sliceWhere(slice)} AND time_ms > 0 AND ${layout.valid}`,
    ).finally(() => (phases.insert += since(t0)));
    const rollUp = async () => {
      const t = performance.now();
      const chunks = await files.numberChunks(sliceSql(path, meta.version, slice));
      phases.read += since(t);
      let n = 0;
      for (const batch of batchesOf(chunks, sessionId, seen)) {
        if (!batch) {
          invalid = true;
          break;
        }
        n += batch.length;
        await rollUpBatch(batch);
      }
      read += n;
      if (n !== slice.to - slice.from) short = true; // a file shorter than its row groups said
    };
    const [inserted, rolled] = await Promise.allSettled([insert, rollUp()]);
    for (const r of [inserted, rolled]) {
      if (r.status === 'rejected') throw r.reason instanceof HttpError ? r.reason : damaged(name);
    }
    if (invalid || short) break;
    const t = performance.now();
    await appendInParts(conn, sets.splice(0));
    phases.append += since(t);
  }
  const spans = read === 0 || (seen.first === meta.range.Begin && seen.last === meta.range.End);
  if (invalid || read !== total || !spans) {
    // The SQL checks name what is wrong (the same texts as before any write); a file they
    // pass but that did not read the same is damaged.
    await checkSamples(files, path, name, meta);
    throw damaged(name);
  }
  // Closing the session: every open period is rolled up, as finishSession does.
  step({ length: 0, session: new Int32Array(0), time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) }, true);
  const t = performance.now();
  await appendInParts(conn, sets);
  phases.append += since(t);

  const marks = RollupResolutionsMs.map((res, level) => [res, carry.closedUntil[level]] as const).filter(([, c]) => !Number.isNaN(c));
  for (const [res, closedUntil] of marks) {
    await q.run('INSERT INTO rollup_marks (resolution, session_id, closed_until) VALUES ($1, $2, $3)', [res, sessionId, closedUntil]);
  }
  if (stored) {
    await q.run('UPDATE sessions SET sample_count = $2, first_sample = $3, latest_sample = $4 WHERE id = $1', [sessionId, stored, Math.round(first), Math.round(last)]);
  }
  return { samples: stored, first, last, closedUntil: carry.closedUntil, phases };
}
