// The one place the data files read a session's raw samples in SQL (DuckDB's COPY and the
// samples report need a statement, not typed arrays). When the store's sample layout
// changes, this is the statement to follow. Arguments are checked numbers, written inline
// because COPY takes no parameters. Latencies are stored as microseconds (docs/store.md,
// "Compact samples"); the reports read them as DOUBLE ms, a data file (version 2) keeps the
// stored integers as they are.
import type { Queryable } from '../store/db.js';
import { latencyMsSql } from '../store/latency-micros.js';
import { readRawSamples, samplesInSql } from '../store/sample-tables.js';

export interface SampleSelection {
  sessionId: number;
  /** Epoch ms, inclusive. */
  from: number;
  to: number;
  /** Keep only the newest this many (then in time order again). */
  limit?: number;
  /** Sorted by time and hop (the reports, a data file); else in the order stored. */
  ordered?: boolean;
}

function num(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  return String(x);
}

/** Time and latency in ms (a latency code as in engine/latency-codes.ts). */
const msColumns = `time::DOUBLE AS time_ms, hop::SMALLINT AS hop, ${latencyMsSql('latency')} AS latency_ms`;
/** The data file's columns (format.ts SampleLayouts[2]): the stored integers, ms and microseconds. */
const fileColumns = `time::BIGINT AS time_ms, hop::SMALLINT AS hop, latency::INTEGER AS latency_us`;

export function sessionSamplesSql(s: SampleSelection, columns = msColumns): string {
  const where = `session_id = ${num(s.sessionId)} AND time >= ${num(s.from)} AND time <= ${num(s.to)}`;
  const all = `SELECT ${columns} FROM samples WHERE ${where}`;
  // Unordered: in the order stored, which is not time order (docs/store.md "Sample order":
  // a packed day is stored by hop, then time, after the days that followed it). Fine for
  // counts and aggregates; whoever reads rows in sequence asks for `ordered`.
  if (s.limit === undefined) return s.ordered ? `${all} ORDER BY time_ms, hop` : all;
  return `SELECT * FROM (${all} ORDER BY time_ms DESC, hop DESC LIMIT ${num(s.limit)}) AS newest ORDER BY time_ms, hop`;
}

/**
 * A selection in the data file's columns (time_ms BIGINT, hop, latency_us INTEGER), always
 * in time, then hop order: the import rolls a file up in its order, up to 65,536 samples a step,
 * and treats a sample older than the periods it has closed as late (raw only), so the store's
 * order (packed days by hop, and after the days that followed them) lost most of a packed
 * day's rollups (test: packed-round-trip.integration.test.ts).
 */
export function fileSamplesSql(s: SampleSelection): string {
  return sessionSamplesSql({ ...s, ordered: true }, fileColumns);
}

/** Count and first and last time of a selection. */
export function selectionStatsSql(s: SampleSelection): string {
  return `SELECT count(*)::BIGINT AS n, min(time_ms) AS "begin", max(time_ms) AS "end" FROM (${sessionSamplesSql(s)}) AS rows_of_session`;
}

export interface SelectedSamples {
  /** The selection's count and first and last time, before the limit (null: no sample). */
  all: { n: number; begin: number | null; end: number | null };
  /** The same after the limit. */
  chosen: { n: number; begin: number | null; end: number | null };
  /** In time, then hop order: time ms, hop, latency ms or its code. */
  time: Float64Array;
  hop: Int32Array;
  latency: Float64Array;
}

/**
 * The selection's samples read into JS, where no SQL text reaches them (PostgreSQL's packed
 * blocks, sample-tables.ts samplesInSql): the same rows, order and limit as the statements above.
 */
export async function selectSamples(q: Queryable, s: SampleSelection): Promise<SelectedSamples> {
  const r = await readRawSamples(q, s.sessionId, s.from, s.to + 1);
  const stats = (a: number, b: number) => (b > a ? { n: b - a, begin: r.time[a], end: r.time[b - 1] } : { n: 0, begin: null, end: null });
  const from = s.limit !== undefined && r.length > s.limit ? r.length - s.limit : 0;
  return { all: stats(0, r.length), chosen: stats(from, r.length), time: r.time.subarray(from), hop: r.hop.subarray(from), latency: r.latency.subarray(from) };
}

export { samplesInSql };
