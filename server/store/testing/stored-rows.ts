// What the suites count of the stored samples and rollup rows, on either backend: SQL over
// DuckDB's samples and rollups tables; on PostgreSQL the layout's own reads (round rows and
// packed blocks, sample-tables.ts), session by session, so packed data counts exactly.
import type { Queryable } from '../db.js';
import { dialectOf } from '../dialect.js';
import { RollupResolutionsMs } from '../../rollups/levels.js';
import { readRawSamples, readRollupRows, sampleTablesOf } from '../sample-tables.js';

const End = 8.64e15;

export interface RowsWhere {
  sessionId?: number;
  /** Times in [from, to). */
  from?: number;
  to?: number;
}

async function sessionsOf(q: Queryable): Promise<number[]> {
  const union = sampleTablesOf(q).map((t) => `SELECT session_id FROM ${t}`).join(' UNION ');
  return (await q.all<{ id: number }>(`SELECT DISTINCT session_id AS id FROM (${union}) AS s ORDER BY 1`)).map((r) => Number(r.id));
}

/** Hop samples stored (of a session, in a time range). */
export async function countSamples(q: Queryable, w: RowsWhere = {}): Promise<number> {
  const from = w.from ?? -End;
  const to = w.to ?? End;
  if (dialectOf(q) !== 'postgres') {
    const r = await q.one<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM samples WHERE time >= $1 AND time < $2${w.sessionId === undefined ? '' : ' AND session_id = $3'}`,
      w.sessionId === undefined ? [from, to] : [from, to, w.sessionId],
    );
    return Number(r!.n);
  }
  let n = 0;
  for (const sid of w.sessionId === undefined ? await sessionsOf(q) : [w.sessionId]) n += (await readRawSamples(q, sid, from, to)).length;
  return n;
}

/** Rollup rows stored of the levels `which` picks (a resolution; 'coarse': those above 1 minute). */
export async function countRollupRows(q: Queryable, which: number | 'coarse' | 'all', w: RowsWhere = {}): Promise<number> {
  const levels = RollupResolutionsMs.filter((r) => which === 'all' || (which === 'coarse' ? r > 60_000 : r === which));
  const from = w.from ?? -End;
  const to = w.to ?? End;
  if (dialectOf(q) !== 'postgres') {
    const r = await q.one<{ n: number }>(
      `SELECT count(*)::DOUBLE AS n FROM rollups WHERE resolution IN (${levels.join(', ')}) AND time >= $1 AND time < $2${w.sessionId === undefined ? '' : ' AND session_id = $3'}`,
      w.sessionId === undefined ? [from, to] : [from, to, w.sessionId],
    );
    return Number(r!.n);
  }
  let n = 0;
  for (const sid of w.sessionId === undefined ? await sessionsOf(q) : [w.sessionId]) for (const res of levels) n += (await readRollupRows(q, res, sid, from, to)).time.length;
  return n;
}
