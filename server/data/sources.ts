// Reads what covers a time range of one session, as cheaply as the rollups allow: the
// coarsest closed rollup level for the aligned middle, finer levels and raw samples for
// the edges and for the open tail. Rollup rows are pre-reduced in SQL to one row per
// bucket and hop (so few rows cross into JS), in the exact form the WASM merge expects.
// Pieces come back in time order, as the kernels need.
import type { Queryable } from '../store/db.js';
import { RollupResolutionsMs, ceilTo, floorTo } from '../ingest/rollup-levels.js';
import { RollupSelectColumns, asFloat64, asInt32, partsInTimeOrder, rowsFromColumns, type RollupRows } from '../ingest/rollup-rows.js';
import type { SampleColumns } from '../../wasm/kernel-types.js';
import type { RecentView } from '../ingest/recent-data.js';

export type Piece = { kind: 'samples'; samples: SampleColumns & { length: number } } | { kind: 'rows'; rows: RollupRows };

/** The bucket grid that rollup rows are reduced onto. */
export interface Grid {
  start: number;
  period: number;
  /**
   * The one hop whose full statistics the caller reads (a timeline graph's hop). Other hops
   * then need only count, lost, sum and flags (the route arrays and markers), so unreduced
   * store rows of them come with those columns alone: about a third of the DuckDB work for
   * a day of 1-minute rows. Their min, max, first, last and jitter are then not valid.
   */
  detailHop?: number;
}

export async function closedMarks(q: Queryable, sessionId: number): Promise<number[]> {
  const marks = await q.all<{ resolution: number; closedUntil: number }>(
    'SELECT resolution, closed_until AS "closedUntil" FROM rollup_marks WHERE session_id = $1',
    [sessionId],
  );
  return RollupResolutionsMs.map((r) => marks.find((m) => m.resolution === r)?.closedUntil ?? -Infinity);
}

async function readSamples(q: Queryable, sessionId: number, from: number, to: number): Promise<Piece> {
  const [time, hop, latency] = await q.numbers(
    'SELECT time, hop, latency FROM samples WHERE session_id = $1 AND time >= $2 AND time < $3 ORDER BY time, hop',
    [sessionId, from, to],
  );
  return { kind: 'samples', samples: { length: time.length, time, hop: Int32Array.from(hop), latency } };
}

// Merging the rows of one bucket and hop as the kernel would: sums add, first/last come
// from the earliest/latest row that has one. Jitter is the mean absolute difference of
// consecutive latencies within each rollup period; the one pair that straddles two rollup
// periods is not counted (a window function for it cost 3x the whole query).
const reduceSql = `
  SELECT $5 + floor((time - $5) / $6) * $6 AS t, hop, sum(count)::INTEGER AS count, sum(lost)::INTEGER AS lost, sum(sum) AS sum,
    min(min) AS min, max(max) AS max,
    arg_min(first, time) FILTER (WHERE first IS NOT NULL) AS first,
    arg_max(last_valid, time) FILTER (WHERE last_valid IS NOT NULL) AS last_valid,
    sum(jitter_sum) AS jitter_sum, sum(jitter_pairs)::INTEGER AS jitter_pairs,
    arg_max(last, time) FILTER (WHERE last IS NOT NULL) AS last,
    bit_or(flags) AS flags
  FROM rollups WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4
  GROUP BY 1, 2 ORDER BY 1, 2`;

/**
 * Up to this many rollup rows per bucket and hop, store rows come as stored and the kernel
 * merges them (cheaper than the SQL reduction, and exact for jitter too); beyond, SQL
 * reduces them onto the grid first so that few rows cross into JS.
 */
export const PlainRowsPerBucket = 4;

// Without ORDER BY: DuckDB keeps insertion order (preserve_insertion_order), which is time
// order for one session and level; partsInTimeOrder checks it and sorts if it ever is not.
const plainSql = `SELECT ${RollupSelectColumns} FROM rollups WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4`;

async function readRows(q: Queryable, sessionId: number, resolution: number, from: number, to: number, grid: Grid): Promise<Piece[]> {
  const rows = (r: RollupRows): Piece => ({ kind: 'rows', rows: r });
  if (grid.period / resolution > PlainRowsPerBucket) return [rows(rowsFromColumns(await q.numbersWithIntegers(reduceSql, [resolution, sessionId, from, to, grid.start, grid.period])))];
  // Chunk by chunk: no copy of a day of rows into whole columns (see numericColumnChunks).
  const params = [resolution, sessionId, from, to];
  if (grid.detailHop === undefined) return partsInTimeOrder((await q.numberChunks(plainSql, params)).map(rowsFromColumns)).map(rows);
  // The hop's rows and the others' are each in time order per hop, which is all the kernel needs.
  const hop = grid.detailHop;
  const detailRead = () => q.numberChunks(`${plainSql} AND hop = $5`, [...params, hop]);
  const othersRead = () => q.numberChunks(leanSql, [...params, hop]);
  const [detail, others] = q.concurrent ? await Promise.all([detailRead(), othersRead()]) : [await detailRead(), await othersRead()];
  return [...partsInTimeOrder(detail.map(rowsFromColumns)), ...partsInTimeOrder(others.map(leanRows))].map(rows);
}

const leanSql = `SELECT time, hop, count, lost, sum, flags FROM rollups WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4 AND hop <> $5`;

/** Rows of leanSql; the columns it leaves out read as "no value" (NaN) and 0. */
function leanRows([time, hop, count, lost, sum, flags]: ArrayLike<number>[]): RollupRows {
  const n = time.length;
  const f = fillers(n);
  return {
    time: asFloat64(time),
    hop: asInt32(hop),
    count: asInt32(count),
    lost: asInt32(lost),
    sum: asFloat64(sum),
    min: f.none,
    max: f.none,
    first: f.none,
    lastValid: f.none,
    jitterSum: f.zeros,
    jitterPairs: f.zeroInts,
    last: f.none,
    flags: asInt32(flags),
  };
}

// Filler columns shared by every lean read (the kernel only reads them); grown as needed.
let filler = { none: new Float64Array(0), zeros: new Float64Array(0), zeroInts: new Int32Array(0) };
function fillers(n: number) {
  if (filler.none.length < n) {
    const m = Math.max(n, 2 * filler.none.length);
    filler = { none: new Float64Array(m).fill(NaN), zeros: new Float64Array(m), zeroInts: new Int32Array(m) };
  }
  return { none: filler.none.subarray(0, n), zeros: filler.zeros.subarray(0, n), zeroInts: filler.zeroInts.subarray(0, n) };
}

/** Where the recent data of open sessions comes from (the ingest pipeline). */
export interface RecentSource {
  recent(sessionId: number): RecentView | undefined;
  /** Changes whenever samples of the session are committed. */
  commits(sessionId: number): number;
}

/** Runs fn with the store: store.read, or the caller's own exclusive section. */
export type StoreAccess = <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;

/** A part of the cover: raw samples or rollup rows of one level, from memory or the store. */
export interface Segment {
  level: number; // -1: raw samples
  from: number;
  to: number;
  memory: boolean;
}

/**
 * Splits [from, to) into segments: rollups of at most `maxResolution` where they are closed,
 * raw samples elsewhere; each from memory where the recent data covers it, else the store.
 * Segments come in time order.
 */
export function planCover(from: number, to: number, maxResolution: number, marks: number[], recent?: Pick<RecentView, 'rawFrom' | 'rowsFrom'>): Segment[] {
  const out: Segment[] = [];
  const emit = (level: number, a: number, b: number) => {
    const covered = recent ? (level < 0 ? recent.rawFrom : recent.rowsFrom[level]) : Infinity;
    if (b <= covered) out.push({ level, from: a, to: b, memory: false });
    else if (a >= covered) out.push({ level, from: a, to: b, memory: true });
    else out.push({ level, from: a, to: covered, memory: false }, { level, from: covered, to: b, memory: true });
  };
  const walk = (a: number, b: number, level: number): void => {
    if (b <= a) return;
    if (level < 0) return emit(-1, a, b);
    const res = RollupResolutionsMs[level];
    if (res > maxResolution) return walk(a, b, level - 1);
    const lo = ceilTo(a, res);
    const hi = Math.min(floorTo(b, res), marks[level]);
    if (hi <= lo) return walk(a, b, level - 1);
    walk(a, lo, level - 1);
    emit(level, lo, hi);
    walk(hi, b, level - 1);
  };
  walk(from, to, RollupResolutionsMs.length - 1);
  return out;
}

/**
 * Covers [from, to) of a session with pieces for the kernels. With `recent` (the ingest
 * pipeline's memory of an open session) the marks come from it and the recent parts are
 * views of it, unreduced; the store is asked only for what lies before its coverage (and
 * not at all when nothing does). Store rollup rows come reduced onto `grid`.
 */
export async function coverPieces(
  withStore: StoreAccess,
  sessionId: number,
  from: number,
  to: number,
  maxResolution: number,
  grid: Grid,
  recent?: RecentView,
): Promise<Piece[]> {
  if (!recent) return withStore(async (q) => cover(q, sessionId, from, to, maxResolution, await closedMarks(q, sessionId), grid));
  const segments = planCover(from, to, maxResolution, recent.marks, recent);
  // Views first, in this same tick: they are what was committed when the marks were read.
  const fromMemory = segments.map((g) => (g.memory ? memoryPiece(recent, g) : undefined));
  const stored = segments.filter((g) => !g.memory);
  const fromStore = stored.length
    ? await withStore(async (q) => {
        if (q.concurrent) return Promise.all(stored.map((g) => storePieces(q, sessionId, g, grid)));
        const out: Piece[][] = [];
        for (const g of stored) out.push(await storePieces(q, sessionId, g, grid));
        return out;
      })
    : [];
  let k = 0;
  return segments.flatMap((g, i) => fromMemory[i] ?? fromStore[k++]);
}

function memoryPiece(recent: RecentView, g: Segment): Piece {
  if (g.level < 0) {
    const samples = recent.samples(g.from, g.to);
    return { kind: 'samples', samples: { ...samples, length: samples.time.length } };
  }
  return { kind: 'rows', rows: recent.rows(g.level, g.from, g.to) };
}

async function storePieces(q: Queryable, sessionId: number, g: Segment, grid: Grid): Promise<Piece[]> {
  return g.level < 0 ? [await readSamples(q, sessionId, g.from, g.to)] : readRows(q, sessionId, RollupResolutionsMs[g.level], g.from, g.to, grid);
}

/**
 * Covers [from, to) with rollups of at most `maxResolution` where they are closed, and raw
 * samples elsewhere, all from the store. Rollup rows come reduced onto `grid`.
 */
export async function cover(
  q: Queryable,
  sessionId: number,
  from: number,
  to: number,
  maxResolution: number,
  marks: number[],
  grid: Grid,
): Promise<Piece[]> {
  const out: Piece[] = [];
  for (const g of planCover(from, to, maxResolution, marks)) out.push(...(await storePieces(q, sessionId, g, grid)));
  return out;
}
