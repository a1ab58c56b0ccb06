// Rebuilds the in-memory rollup state of open sessions from the store at start: the marks,
// the raw samples after the 1-minute mark, and the finer rows after each coarser mark. Rows
// that were closed but not written before a stop without close (kill -9) are rolled up
// again from those raw samples by the next flush.
import type { Queryable } from '../store/db.js';
import { RollupResolutionsMs, floorTo } from '../rollups/levels.js';
import type { RollupRows } from '../rollups/rows.js';
import { readRawSamples, readRollupRows } from '../store/sample-tables.js';
import { SessionRollupState } from './session-rollup-state.js';
import { list } from '../store/dialect.js';
import { RecentData, RecentRawMs, RecentRowsMs } from '../rollups/recent-data.js';

const rowsBetween = (q: Queryable, resolution: number, sessionId: number, from: number, to: number): Promise<RollupRows> => readRollupRows(q, resolution, sessionId, from, to);

/**
 * The recent data of a session at start: its memory windows filled from the store (closed
 * rows before the marks, raw samples before the 1-minute mark) plus the pending raw
 * samples, so the console's views stay off DuckDB after a restart too.
 */
async function warmRecent(q: Queryable, sessionId: number, state: SessionRollupState, latest: number): Promise<RecentData> {
  const rawFrom = Math.min(state.closedUntil[0], latest - RecentRawMs);
  const { time, hop, latency } = await readRawSamples(q, sessionId, rawFrom, state.closedUntil[0]);
  const rowsFrom = RollupResolutionsMs.map((_, level) => Math.min(state.closedUntil[level], latest - RecentRowsMs[level]));
  const rows: RollupRows[] = [];
  for (let level = 0; level < RollupResolutionsMs.length; level++) {
    rows.push(await rowsBetween(q, RollupResolutionsMs[level], sessionId, rowsFrom[level], state.closedUntil[level]));
  }
  return new RecentData({ rawFrom, rowsFrom, marks: state.storedMarks, raw: [{ time, hop, latency }, state.raw], rows });
}

/** `memorySessions`: how many sessions (the most recently sampled) get their memory windows. */
export async function loadRollupState(
  q: Queryable,
  memorySessions = Infinity,
  /** Only these sessions (a replica taking sessions over, issue 43), open or not; all open ones when undefined. */
  only?: number[],
): Promise<Map<number, { accountId: number; state: SessionRollupState }>> {
  const sessions = await q.all<{ id: number; accountId: number; firstSample: number | null; latestSample: number | null }>(
    `SELECT id, account_id AS "accountId", first_sample AS "firstSample", latest_sample AS "latestSample"
     FROM sessions_counted WHERE ${only ? 'id IN (SELECT unnest($1::INTEGER[]))' : 'state IN (0, 1)'} ORDER BY latest_sample DESC NULLS LAST, id`,
    only ? [list(only)] : undefined,
  );
  let warmed = 0;
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
      // Up to a group of rollup rows' worth of samples (rows are written in groups): columns, not row objects.
      const { time, hop, latency } = await readRawSamples(q, s.id, state.closedUntil[0], Infinity);
      state.raw = { time, hop, latency };
      for (let level = 1; level < RollupResolutionsMs.length; level++) {
        state.pendingRows[level - 1] = await rowsBetween(q, RollupResolutionsMs[level - 1], s.id, state.closedUntil[level], Number.MAX_SAFE_INTEGER);
      }
    }
    if (!Number.isNaN(state.closedUntil[0]) && warmed < memorySessions) {
      state.recent = await warmRecent(q, s.id, state, s.latestSample ?? state.closedUntil[0]);
      warmed++;
    }
    out.set(s.id, { accountId: s.accountId, state });
  }
  return out;
}
