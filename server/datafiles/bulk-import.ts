// The bulk write of a data file's samples and rollups (ImportPP2File), beside the live ingest
// pipeline instead of through it. The pipeline is built for rounds that trickle in: a flush
// per batch, a worker task, a commit, rollup rows written in groups. A file arrives whole,
// so here, inside the caller's one transaction, the samples go in with one INSERT ... SELECT
// from the file (DuckDB reads and writes it on its own threads, in the file's order). While
// it runs, the file is read a second time on a read connection in the same order, checked
// value by value, and rolled up on this thread by the same function the pipeline's worker
// runs (prepareFlush: the same validation, the same WASM kernel, the same closing of
// periods): the JS work and DuckDB's insert overlap (a profile of the sequential version
// had the main thread idle half the import, waiting for DuckDB). The rollup rows are then
// appended with the pipeline's own appender; the marks and the session's counters are
// written once at the end. What the store holds after it is what the pipeline leaves after
// a session of the same samples finishes (test: bulk-import.integration.test.ts compares
// the two row by row).
import type { DuckDBConnection } from '@duckdb/node-api';
import { HttpError } from '../http/errors.js';
import type { Queryable } from '../store/db.js';
import type { NumericColumn } from '../store/numeric-columns.js';
import { RollupResolutionsMs } from '../rollups/levels.js';
import { appendRollups, type RollupSet } from '../rollups/append.js';
import { emptyRollupRows } from '../rollups/rows.js';
import { prepareFlush, type SessionCarry } from '../ingest/worker.js';
import { FileLatencyCodes, SampleLayouts, type FileMetadata } from './format.js';
import { checkSamples, damaged } from './read-file.js';
import { sqlPath } from './temp-files.js';

/**
 * Samples read from the file at once: a file up to this size is read in one statement (a
 * filter on file_row_number made DuckDB read the whole file more slowly: 10.6 s in 4 slices
 * against 6.4 s in one, on a loaded machine); larger files in slices of it (24 bytes a sample
 * in memory: 190 MB).
 */
export const SliceSamples = 8_000_000;
/** Samples handed to prepareFlush at a time (its kernel's working set stays small). */
const StepSamples = 1_000_000;

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

/** The file's samples as the ingest worker takes them (time and latency in ms or a code), whatever its version. */
function sliceSql(path: string, version: number, from: number, total: number): string {
  const file = sqlPath(path);
  const l = SampleLayouts[version];
  const columns = `${l.timeMs} AS time_ms, hop, ${l.latencyMs} AS latency_ms`;
  if (total <= SliceSamples) return `SELECT ${columns} FROM read_parquet(${file})`;
  return `SELECT ${columns} FROM read_parquet(${file}, file_row_number = true)
          WHERE file_row_number >= ${from} AND file_row_number < ${from + SliceSamples} ORDER BY file_row_number`;
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

/**
 * Writes the file's samples, their rollup rows at every level and the marks for
 * `sessionId`, inside the caller's transaction (q and conn of Store.transaction). The
 * samples go in with one INSERT ... SELECT from the file on q; meanwhile the file is read a
 * second time on `files` (read connections beside the transaction: Store.fileReader) and
 * rolled up on this thread, so DuckDB's insert and the JS rollup overlap instead of taking
 * turns; the rollup rows are appended once the INSERT is done, in the order the pipeline
 * would write them. A value the checks refuse, or a file that reads differently from what
 * its metadata says, throws the same 400 checkSamples gives, so the caller's transaction
 * writes nothing.
 */
export async function writeSamplesAndRollups(
  q: Queryable,
  conn: DuckDBConnection,
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
  /** Every step's rollup rows, in step order: appended after the INSERT. */
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

  // The samples, in the file's order: the rows prepare() keeps (a time after 0 and a valid
  // value; a file with any other is refused below, the transaction then writing nothing).
  const layout = SampleLayouts[meta.version];
  const t0 = performance.now();
  const insert = q
    .run(
      `INSERT INTO samples (session_id, time, hop, latency)
       SELECT ${Number(sessionId)}, time_ms, hop, ${layout.latencyMicros} FROM read_parquet(${sqlPath(path)}) WHERE time_ms > 0 AND ${layout.valid}`,
    )
    .finally(() => (phases.insert = since(t0)));

  const rollUp = async () => {
    for (let from = 0; from < total && !invalid; from += SliceSamples) {
      const t = performance.now();
      const chunks = await files.numberChunks(sliceSql(path, meta.version, from, total));
      phases.read += since(t);
      let n = 0;
      for (const batch of batchesOf(chunks, sessionId, seen)) {
        if (!batch) {
          invalid = true;
          break;
        }
        n += batch.length;
        step(batch, false);
        // A turn of the event loop between steps: the server keeps answering meanwhile.
        await new Promise((resolve) => setImmediate(resolve));
      }
      read += n;
      if (total > SliceSamples && n === 0) break; // a file shorter than its row count said
    }
  };
  const [inserted, rolled] = await Promise.allSettled([insert, rollUp()]);
  for (const r of [inserted, rolled]) {
    if (r.status === 'rejected') throw r.reason instanceof HttpError ? r.reason : damaged(name);
  }
  const spans = read === 0 || (seen.first === meta.range.Begin && seen.last === meta.range.End);
  if (invalid || read !== total || !spans) {
    // The SQL checks name what is wrong (the same texts as before any write); a file they
    // pass but that did not read the same is damaged.
    await checkSamples(q, path, name, meta);
    throw damaged(name);
  }
  // Closing the session: every open period is rolled up, as finishSession does.
  step({ length: 0, session: new Int32Array(0), time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) }, true);
  const t = performance.now();
  await appendRollups(conn, sets);
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
