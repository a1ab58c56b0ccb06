// Reads what covers a time range of one session, as cheaply as the rollups allow: the
// coarsest closed rollup level for the aligned middle, finer levels and raw samples for
// the edges and for the open tail. Rollup rows are pre-reduced in SQL to one row per
// bucket and hop (so few rows cross into JS), in the exact form the WASM merge expects.
// Pieces come back in time order, as the kernels need.
import type { Queryable } from '../store/db.js';
import { RollupResolutionsMs, ceilTo, floorTo } from '../rollups/levels.js';
import { leanRowsFromStoredColumns, partsInTimeOrder, rowsFromColumns, rowsFromStoredColumns, type RollupRows } from '../rollups/rows.js';
import { RollupLeanStoredColumns, RollupStoredColumns, rollupReduceColumns } from '../rollups/sql.js';
import { RollupRowColumns, RollupTable } from '../rollups/columns.js';
import { pgReaderOf, pgReducedRollups, pgStoredRollups, readRawSamples } from '../store/sample-tables.js';
import type { SampleColumns } from '../../wasm/kernel-types.js';
import type { RecentView } from '../rollups/recent-data.js';
import type { ClosedReads } from '../store/closed-reads.js';
import type { BucketAccumulator } from '../../wasm/kernels.js';

/** Raw samples, or rollup rows; `skipHop`: that hop's rows are not in this piece's answer (another piece holds them whole). */
export type Piece = { kind: 'samples'; samples: SampleColumns & { length: number } } | { kind: 'rows'; rows: RollupRows; skipHop?: number };

/** Folds the pieces into an accumulation, in their order. */
export function addPieces(acc: BucketAccumulator, pieces: Piece[]): BucketAccumulator {
  for (const piece of pieces) {
    if (piece.kind === 'rows') acc.addRollups(piece.rows, piece.skipHop);
    else acc.addSamples(piece.samples);
  }
  return acc;
}

/** The bucket grid that rollup rows are reduced onto. */
export interface Grid {
  start: number;
  period: number;
}

export async function closedMarks(q: Queryable, sessionId: number): Promise<number[]> {
  const marks = await q.all<{ resolution: number; closedUntil: number }>(
    'SELECT resolution, closed_until AS "closedUntil" FROM rollup_marks WHERE session_id = $1',
    [sessionId],
  );
  return RollupResolutionsMs.map((r) => marks.find((m) => m.resolution === r)?.closedUntil ?? -Infinity);
}

async function readSamples(q: Queryable, sessionId: number, from: number, to: number): Promise<Piece> {
  return { kind: 'samples', samples: await readRawSamples(q, sessionId, from, to) };
}

// Onto the grid of $5 + k * $6: one row per bucket and hop (sql.ts says how each column merges).
const reduceSql = `
  SELECT ${rollupReduceColumns('$5', '$6')}
  FROM ${RollupTable} WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4
  GROUP BY 1, 2 ORDER BY 1, 2`;

/**
 * Up to this many rollup rows per bucket and hop, store rows come as stored and the kernel
 * merges them (cheaper than the SQL reduction, and exact for jitter too); beyond, SQL
 * reduces them onto the grid first so that few rows cross into JS.
 */
export const PlainRowsPerBucket = 4;
const reduces = (grid: Grid, resolution: number) => grid.period / resolution > PlainRowsPerBucket;

// Without ORDER BY: DuckDB keeps insertion order (preserve_insertion_order), which is time
// order for one session and level; partsInTimeOrder checks it and sorts if it ever is not.
// The columns as stored: rowsFromStoredColumns converts microseconds to ms in JS, which cost
// less than the same conversion in DuckDB's projection (sql.ts RollupStoredColumns).
const storedWhere = `FROM ${RollupTable} WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4`;
const plainSql = `SELECT ${RollupStoredColumns} ${storedWhere}`;
const leanSql = `SELECT ${RollupLeanStoredColumns} ${storedWhere}`;
const hopSql = `${plainSql} AND hop = $5`;

const rowsPiece = (rows: RollupRows): Piece => ({ kind: 'rows', rows });

/** Rows reduced in SQL onto the grid (more than PlainRowsPerBucket rows per bucket). */
async function readReduced(q: Queryable, sessionId: number, resolution: number, from: number, to: number, grid: Grid): Promise<Piece[]> {
  return [rowsPiece(rowsFromColumns(await q.numbersWithIntegers(reduceSql, [resolution, sessionId, from, to, grid.start, grid.period])))];
}

/** Rows as stored, chunk by chunk (no copy of a day of rows into whole columns, see numericColumnChunks). */
async function readStored(q: Queryable, sql: string, params: number[], toRows: (c: ArrayLike<number>[]) => RollupRows): Promise<Piece[]> {
  return partsInTimeOrder((await q.numberChunks(sql, params)).map(toRows)).map(rowsPiece);
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
 * not at all when nothing does). Store rollup rows come reduced onto `grid` where a bucket
 * holds more than PlainRowsPerBucket of them; with `detailHop`, see storePieces.
 */
export async function coverPieces(
  withStore: StoreAccess,
  sessionId: number,
  from: number,
  to: number,
  maxResolution: number,
  grid: Grid,
  recent?: RecentView,
  firstSample?: number | null,
  cache?: ClosedReads,
  detailHop?: number,
): Promise<Piece[]> {
  if (!recent) return withStore(async (q) => cover(q, sessionId, from, to, maxResolution, await closedMarks(q, sessionId), grid, cache, detailHop));
  // Store parts that end before the session's first sample hold nothing: left out, so that a
  // young session (a 10-minute range reaches before its start) needs no statement at all.
  const segments = planCover(from, to, maxResolution, recent.marks, recent).filter((g) => g.memory || !beforeFirstSample(g, firstSample));
  // Views first, in this same tick: they are what was committed when the marks were read.
  const fromMemory = segments.map((g) => (g.memory ? memoryPiece(recent, g) : undefined));
  const stored = segments.filter((g) => !g.memory);
  const fromStore = stored.length
    ? await withStore(async (q) => {
        if (q.concurrent) return Promise.all(stored.map((g) => storePieces(q, sessionId, g, grid, cache, detailHop)));
        const out: Piece[][] = [];
        for (const g of stored) out.push(await storePieces(q, sessionId, g, grid, cache, detailHop));
        return out;
      })
    : [];
  let k = 0;
  return segments.flatMap((g, i) => fromMemory[i] ?? fromStore[k++]);
}

/**
 * Whether a store segment ends before any data of a session whose first sample is at
 * `firstSample` (undefined: not known; null: no sample yet): raw samples start there, the
 * rollup rows of a level at its bucket.
 */
export function beforeFirstSample(g: Segment, firstSample: number | null | undefined): boolean {
  if (firstSample === undefined) return false;
  if (firstSample === null) return true;
  return g.to <= (g.level < 0 ? firstSample : floorTo(firstSample, RollupResolutionsMs[g.level]));
}

function memoryPiece(recent: RecentView, g: Segment): Piece {
  if (g.level < 0) {
    const samples = recent.samples(g.from, g.to);
    return { kind: 'samples', samples: { ...samples, length: samples.time.length } };
  }
  return { kind: 'rows', rows: recent.rows(g.level, g.from, g.to) };
}

/**
 * A store segment's pieces. Rollup segments of the store are closed (they end at the marks, or
 * before the memory's coverage, which starts at or before them): their rows never change, so
 * with `cache` a read of the same segment (and grid, where SQL reduces onto it) is answered
 * from what the last one returned (server/store/closed-reads.ts). Raw samples are not cached:
 * samples that arrive late are still appended to closed minutes.
 *
 * With `detailHop` (a timeline graph, whose points carry every statistic of one hop and the
 * lean ones of the others, see columns.ts `lean`), rows read as stored come as two pieces:
 * every column of that hop, and the lean columns of all hops with that hop skipped. A third
 * of the bytes of every column of every hop cross into JS (less garbage, fewer collections),
 * and the lean piece is cached for the graphs of the target's other hops (docs/store.md
 * "Next for speed").
 */
async function storePieces(q: Queryable, sessionId: number, g: Segment, grid: Grid, cache?: ClosedReads, detailHop?: number): Promise<Piece[]> {
  if (g.level < 0) return [await readSamples(q, sessionId, g.from, g.to)];
  const resolution = RollupResolutionsMs[g.level];
  const params = [resolution, sessionId, g.from, g.to];
  const at = `${resolution}:${g.from}:${g.to}`;
  const cached = async (key: string, read: () => Promise<Piece[]>, keys?: readonly string[]): Promise<Piece[]> => {
    if (!cache) return read();
    const hit = cache.get<Piece[]>(sessionId, key);
    if (hit) return hit;
    const generation = cache.generation;
    const pieces = await read();
    cache.set(sessionId, key, pieces, piecesBytes(pieces, keys), generation);
    return pieces;
  };
  // PostgreSQL's layout (blocks and plain rows, sample-tables.ts) answers the same rows, in hop,
  // then time order (each cell's rows in time order: the kernels' answer is the same, for less work).
  const pg = pgReaderOf(q);
  if (reduces(grid, resolution))
    return cached(`${at}:${grid.start}:${grid.period}`, async () =>
      pg ? [rowsPiece(await pgReducedRollups(pg, resolution, sessionId, g.from, g.to, grid))] : readReduced(q, sessionId, resolution, g.from, g.to, grid),
    );
  const whole = async () => (pg ? [rowsPiece(await pgStoredRollups(pg, resolution, sessionId, g.from, g.to, { kind: 'all' }, 'hop'))] : readStored(q, plainSql, params, rowsFromStoredColumns));
  if (!detailHop) return cached(at, whole);
  // Every column of every hop, when an earlier read without a hop (an insight's, a graph of a
  // target whose hop is not known) left them.
  const all = cache?.get<Piece[]>(sessionId, at);
  if (all) return all;
  const lean = () =>
    cached(`${at}:lean`, async () => (pg ? [rowsPiece(await pgStoredRollups(pg, resolution, sessionId, g.from, g.to, { kind: 'lean' }, 'hop'))] : readStored(q, leanSql, params, leanRowsFromStoredColumns)), LeanKeys);
  const own = () =>
    cached(`${at}:hop:${detailHop}`, async () =>
      pg ? [rowsPiece(await pgStoredRollups(pg, resolution, sessionId, g.from, g.to, { kind: 'hop', hop: detailHop }, 'hop'))] : readStored(q, hopSql, [...params, detailHop], rowsFromStoredColumns),
    );
  const [ownPieces, leanPieces] = q.concurrent ? await Promise.all([own(), lean()]) : [await own(), await lean()];
  // Each cell's rows come from one piece, in time order: all the kernel's merge needs.
  return [...ownPieces, ...leanPieces.map((p) => ({ ...p, skipHop: detailHop }))];
}

const LeanKeys: readonly string[] = RollupRowColumns.filter((c) => 'lean' in c).map((c) => c.key);

/** The bytes the pieces hold (of `keys` only: the other columns of a lean read are shared fillers). */
function piecesBytes(pieces: Piece[], keys?: readonly string[]): number {
  let n = 0;
  for (const p of pieces) {
    const columns = (p.kind === 'rows' ? p.rows : p.samples) as unknown as Record<string, unknown>;
    for (const [k, c] of Object.entries(columns)) if (ArrayBuffer.isView(c) && (!keys || keys.includes(k))) n += c.byteLength;
  }
  return n;
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
  cache?: ClosedReads,
  detailHop?: number,
): Promise<Piece[]> {
  const out: Piece[] = [];
  for (const g of planCover(from, to, maxResolution, marks)) out.push(...(await storePieces(q, sessionId, g, grid, cache, detailHop)));
  return out;
}
