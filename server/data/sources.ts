// Reads what covers a time range of one session, as cheaply as the rollups allow: the
// coarsest closed rollup level for the aligned middle, finer levels and raw samples for
// the edges and for the open tail. Pieces come back in time order, as the kernels need.
import type { Queryable } from '../store/db.js';
import { RollupResolutionsMs, ceilTo, floorTo } from '../ingest/rollup-levels.js';
import { emptyRollupRows, type RollupRows } from '../ingest/rollup-rows.js';
import type { SampleColumns } from '../../wasm/kernel-types.js';

export type Piece = { kind: 'samples'; samples: SampleColumns & { length: number } } | { kind: 'rows'; rows: RollupRows };

export async function closedMarks(q: Queryable, sessionId: number): Promise<number[]> {
  const marks = await q.all<{ resolution: number; closedUntil: number }>(
    'SELECT resolution, closed_until AS "closedUntil" FROM rollup_marks WHERE session_id = $1',
    [sessionId],
  );
  return RollupResolutionsMs.map((r) => marks.find((m) => m.resolution === r)?.closedUntil ?? -Infinity);
}

async function readSamples(q: Queryable, sessionId: number, from: number, to: number): Promise<Piece> {
  const [time, hop, latency] = (await q.columns(
    'SELECT time, hop, latency FROM samples WHERE session_id = $1 AND time >= $2 AND time < $3 ORDER BY time, hop',
    [sessionId, from, to],
  )) as number[][];
  const samples = {
    length: time.length,
    time: Float64Array.from(time),
    hop: Int32Array.from(hop),
    latency: Float64Array.from(latency),
  };
  return { kind: 'samples', samples };
}

const nan = (v: unknown) => (v === null ? NaN : (v as number));

async function readRows(q: Queryable, sessionId: number, resolution: number, from: number, to: number): Promise<Piece> {
  const cols = await q.columns(
    `SELECT time, hop, count, lost, sum, min, max, first, last_valid, jitter_sum, jitter_pairs, last, flags
     FROM rollups WHERE resolution = $1 AND session_id = $2 AND time >= $3 AND time < $4 ORDER BY time, hop`,
    [resolution, sessionId, from, to],
  );
  const n = cols[0]?.length ?? 0;
  const rows = emptyRollupRows(n);
  const keys = ['time', 'hop', 'count', 'lost', 'sum', 'min', 'max', 'first', 'lastValid', 'jitterSum', 'jitterPairs', 'last', 'flags'] as const;
  keys.forEach((k, c) => {
    const src = cols[c];
    const dst = rows[k] as Float64Array;
    for (let i = 0; i < n; i++) dst[i] = nan(src[i]);
  });
  return { kind: 'rows', rows };
}

/**
 * Covers [from, to) with rollups of at most `maxResolution` where they are closed, and raw
 * samples elsewhere.
 */
export async function cover(
  q: Queryable,
  sessionId: number,
  from: number,
  to: number,
  maxResolution: number,
  marks: number[],
): Promise<Piece[]> {
  const walk = async (a: number, b: number, level: number): Promise<Piece[]> => {
    if (b <= a) return [];
    if (level < 0) return [await readSamples(q, sessionId, a, b)];
    const res = RollupResolutionsMs[level];
    if (res > maxResolution) return walk(a, b, level - 1);
    const lo = ceilTo(a, res);
    const hi = Math.min(floorTo(b, res), marks[level]);
    if (hi <= lo) return walk(a, b, level - 1);
    return [...(await walk(a, lo, level - 1)), await readRows(q, sessionId, res, lo, hi), ...(await walk(hi, b, level - 1))];
  };
  return walk(from, to, RollupResolutionsMs.length - 1);
}
