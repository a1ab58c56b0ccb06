// The bulk write of a data file's samples and rollups (ImportPP2File), beside the live ingest
// pipeline instead of through it. The pipeline is built for rounds that trickle in: a flush
// per batch, a worker task, a commit, rollup rows written in groups. A file arrives whole,
// so here, inside the caller's one transaction, the samples are read from the file in
// one INSERT ... SELECT from the file (DuckDB reads and writes it on its own threads, in the
// file's order); then the file is read in slices in the same order, checked value by value,
// and rolled up on this thread by the same function the pipeline's worker runs
// (prepareFlush: the same validation, the same WASM kernel, the same closing of periods),
// the rows appended with the pipeline's own appender; the marks and the session's counters
// are written once at the end. What the store holds after
// it is what the pipeline leaves after a session of the same samples finishes
// (test: bulk-import.integration.test.ts compares the two row by row).
import { valueSymbol } from 'piscina';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HttpError } from '../http/errors.js';
import type { Queryable } from '../store/db.js';
import { RollupResolutionsMs } from '../rollups/levels.js';
import { appendRollups, type RollupSet } from '../rollups/append.js';
import { emptyRollupRows } from '../rollups/rows.js';
import { latencyMicrosSql } from '../store/latency-micros.js';
import { prepareFlush, type FlushResult, type SessionCarry } from '../ingest/worker.js';
import { FileLatencyCodes, type FileMetadata } from './format.js';
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
  /** Where the time went, ms: reading the file into JS, rolling up (prepareFlush), writing (the samples' INSERT and the rows' appends). */
  phases: { read: number; rollup: number; append: number };
}

function sliceSql(path: string, from: number, total: number): string {
  const file = sqlPath(path);
  if (total <= SliceSamples) return `SELECT time_ms, hop, latency_ms FROM read_parquet(${file})`;
  return `SELECT time_ms, hop, latency_ms FROM read_parquet(${file}, file_row_number = true)
          WHERE file_row_number >= ${from} AND file_row_number < ${from + SliceSamples} ORDER BY file_row_number`;
}

/**
 * Writes the file's samples, their rollup rows at every level and the marks for
 * `sessionId`, inside the caller's transaction (q and conn of Store.transaction). A value
 * the checks refuse, or a file that reads differently from what its metadata says, throws
 * the same 400 checkSamples gives, so the caller's transaction writes nothing.
 */
export async function writeSamplesAndRollups(q: Queryable, conn: DuckDBConnection, sessionId: number, path: string, name: string, meta: FileMetadata): Promise<BulkWritten> {
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
  let fileFirst = Infinity;
  let fileLast = -Infinity;
  let invalid = false;
  const phases = { read: 0, rollup: 0, append: 0 };
  const since = (t: number) => performance.now() - t;

  /** One step through the worker's flush function; its rows and samples appended. */
  const step = async (batch: Parameters<typeof prepareFlush>[0]['batch'], finishing: boolean) => {
    let t = performance.now();
    const moved = prepareFlush({ op: 'flush', batch, sessions: [{ ...carry, finishing }] }) as unknown as Record<symbol, FlushResult>;
    const result = moved[valueSymbol];
    const s = result.sessions[0];
    phases.rollup += since(t);
    t = performance.now();
    if (result.batch.length) {
      stored += result.batch.length;
      first = Math.min(first, s.first);
      last = Math.max(last, s.last);
    }
    const sets: RollupSet[] = s.rows.map((rows, level) => ({ resolution: RollupResolutionsMs[level], sessionId, rows }));
    await appendRollups(conn, sets);
    phases.append += since(t);
    carry = { ...carry, closedUntil: s.closedUntil, maxTime: Math.max(carry.maxTime, s.last), pending: s.pending, pendingRows: s.pendingRows };
  };

  // The samples, in the file's order: the rows prepare() keeps (a time after 0 and a valid
  // value; a file with any other is refused below, the transaction then writing nothing).
  const t0 = performance.now();
  const valid = `time_ms > 0 AND time_ms <= 8.64e15 AND hop BETWEEN 0 AND 255 AND isfinite(latency_ms)
    AND (latency_ms >= 0 OR list_contains([${FileLatencyCodes.join(',')}]::DOUBLE[], latency_ms))`;
  try {
    await q.run(
      `INSERT INTO samples (session_id, time, hop, latency)
       SELECT ${Number(sessionId)}, time_ms, hop, ${latencyMicrosSql('latency_ms')} FROM read_parquet(${sqlPath(path)}) WHERE ${valid}`,
    );
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw damaged(name);
  }
  phases.append += since(t0);

  for (let from = 0; from < total && !invalid; from += SliceSamples) {
    let cols: Float64Array[];
    const t = performance.now();
    try {
      cols = await q.numbers(sliceSql(path, from, total));
    } catch (err) {
      if (err instanceof HttpError) throw err;
      throw damaged(name);
    }
    phases.read += since(t);
    const [time, hopD, latency] = cols;
    const n = time.length;
    const hop = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const t = time[i];
      const h = hopD[i];
      if (!validRow(t, h, latency[i])) {
        invalid = true;
        break;
      }
      hop[i] = h;
      if (t < fileFirst) fileFirst = t;
      if (t > fileLast) fileLast = t;
    }
    if (invalid) break;
    read += n;
    for (let a = 0; a < n; a += StepSamples) {
      const b = Math.min(n, a + StepSamples);
      // prepareFlush keeps and rounds rows in place: each step gets its own copies.
      await step({ length: b - a, session: new Int32Array(b - a).fill(sessionId), time: time.slice(a, b), hop: hop.slice(a, b), latency: latency.slice(a, b) }, false);
    }
    if (total > SliceSamples && n === 0) break; // a file shorter than its row count said
  }
  const spans = read === 0 || (fileFirst === meta.range.Begin && fileLast === meta.range.End);
  if (invalid || read !== total || !spans) {
    // The SQL checks name what is wrong (the same texts as before any write); a file they
    // pass but that did not read the same is damaged.
    await checkSamples(q, path, name, meta);
    throw damaged(name);
  }
  // Closing the session: every open period is rolled up, as finishSession does.
  await step({ length: 0, session: new Int32Array(0), time: new Float64Array(0), hop: new Int32Array(0), latency: new Float64Array(0) }, true);

  const marks = RollupResolutionsMs.map((res, level) => [res, carry.closedUntil[level]] as const).filter(([, c]) => !Number.isNaN(c));
  for (const [res, closedUntil] of marks) {
    await q.run('INSERT INTO rollup_marks (resolution, session_id, closed_until) VALUES ($1, $2, $3)', [res, sessionId, closedUntil]);
  }
  if (stored) {
    await q.run('UPDATE sessions SET sample_count = $2, first_sample = $3, latest_sample = $4 WHERE id = $1', [sessionId, stored, Math.round(first), Math.round(last)]);
  }
  return { samples: stored, first, last, closedUntil: carry.closedUntil, phases };
}
