// Rebuilds the in-memory rollup state of open sessions from the store at start: the marks,
// the raw samples after the 1-minute mark, and the finer rows after each coarser mark.
import type { Queryable } from '../store/db.js';
import { RollupResolutionsMs, floorTo } from './rollup-levels.js';
import { emptyRollupRows, type RollupRows } from './rollup-rows.js';
import { SessionRollupState } from './session-rollup-state.js';
import { RecentData } from './recent-data.js';

const nanOf = (v: unknown) => (v === null || v === undefined ? NaN : Number(v));

async function rowsFrom(q: Queryable, resolution: number, sessionId: number, from: number): Promise<RollupRows> {
  const rows = await q.all<Record<string, number | null>>(
    `SELECT time, hop, count, lost, sum, min, max, first, last_valid, jitter_sum, jitter_pairs, last, flags
     FROM rollups WHERE resolution = $1 AND session_id = $2 AND time >= $3 ORDER BY time, hop`,
    [resolution, sessionId, from],
  );
  const out = emptyRollupRows(rows.length);
  rows.forEach((r, i) => {
    out.time[i] = Number(r.time);
    out.hop[i] = Number(r.hop);
    out.count[i] = Number(r.count);
    out.lost[i] = Number(r.lost);
    out.sum[i] = Number(r.sum);
    out.min[i] = nanOf(r.min);
    out.max[i] = nanOf(r.max);
    out.first[i] = nanOf(r.first);
    out.lastValid[i] = nanOf(r.last_valid);
    out.jitterSum[i] = Number(r.jitter_sum);
    out.jitterPairs[i] = Number(r.jitter_pairs);
    out.last[i] = nanOf(r.last);
    out.flags[i] = Number(r.flags);
  });
  return out;
}

export async function loadRollupState(q: Queryable): Promise<Map<number, { accountId: number; state: SessionRollupState }>> {
  const sessions = await q.all<{ id: number; accountId: number; firstSample: number | null; latestSample: number | null }>(
    `SELECT id, account_id AS "accountId", first_sample AS "firstSample", latest_sample AS "latestSample"
     FROM sessions WHERE state IN (0, 1)`,
  );
  const out = new Map<number, { accountId: number; state: SessionRollupState }>();
  for (const s of sessions) {
    const state = new SessionRollupState();
    const marks = await q.all<{ resolution: number; closedUntil: number }>(
      `SELECT resolution, closed_until AS "closedUntil" FROM rollup_marks WHERE session_id = $1`,
      [s.id],
    );
    RollupResolutionsMs.forEach((res, i) => {
      const m = marks.find((x) => x.resolution === res);
      if (m) state.closedUntil[i] = state.storedMarks[i] = m.closedUntil;
      else if (s.firstSample !== null) state.closedUntil[i] = floorTo(s.firstSample, res);
    });
    if (s.latestSample !== null) state.maxTime = s.latestSample;
    if (!Number.isNaN(state.closedUntil[0])) {
      const raw = await q.all<{ time: number; hop: number; latency: number }>(
        'SELECT time, hop, latency FROM samples WHERE session_id = $1 AND time >= $2 ORDER BY time',
        [s.id, state.closedUntil[0]],
      );
      state.raw = {
        time: Float64Array.from(raw, (r) => r.time),
        hop: Int32Array.from(raw, (r) => r.hop),
        latency: Float64Array.from(raw, (r) => r.latency),
      };
      for (let level = 1; level < RollupResolutionsMs.length; level++) {
        state.pendingRows[level - 1] = await rowsFrom(q, RollupResolutionsMs[level - 1], s.id, state.closedUntil[level]);
      }
    }
    if (!Number.isNaN(state.closedUntil[0])) state.recent = new RecentData(state.closedUntil, state.storedMarks, state.raw);
    out.set(s.id, { accountId: s.accountId, state });
  }
  return out;
}
