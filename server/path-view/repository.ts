// SQL of the Path view: the hop hosts of traces minute by minute (hop_hosts, migration 14),
// which the route-change rule and the graph's edges read (docs/path-view.md).
import type { Queryable } from '../store/db.js';
import { HopHostMinuteMs } from '../hop-details/tally.js';
import { listParam } from '../store/id-list.js';
import type { TraceHopMinute } from './graph.js';

/** Per session, every (minute, hop, address) that answered in [from, to) (the minutes the range touches). */
export async function hopHostMinutes(q: Queryable, sessionIds: number[], from: number, to: number): Promise<Map<number, TraceHopMinute[]>> {
  const out = new Map<number, TraceHopMinute[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  const rows = await q.all<{ sessionId: number; minute: number; hop: number; address: string }>(
    `SELECT session_id AS "sessionId", minute, hop, address FROM hop_hosts
     WHERE session_id IN (SELECT unnest($1::INTEGER[])) AND minute >= $2 AND minute < $3 AND answers > 0
     ORDER BY session_id, minute, hop, address`,
    [listParam(sessionIds), Math.floor(from / HopHostMinuteMs) * HopHostMinuteMs, to],
  );
  for (const r of rows) out.get(Number(r.sessionId))?.push({ minute: Number(r.minute), hop: Number(r.hop), address: r.address });
  return out;
}
