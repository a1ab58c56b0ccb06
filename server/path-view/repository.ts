// SQL of the Path view: the hop hosts of traces minute by minute (hop_hosts, migration 14),
// which the graph's edges and the route-change rule read (docs/path-view.md). The rows come
// sorted, so each trace's minute paths (graph.ts TraceMinutePath) are written in one pass.
// (Building the path texts in SQL with ordered string_agg was slower than this on DuckDB.)
import type { Queryable } from '../store/db.js';
import { HopHostMinuteMs } from '../hop-details/tally.js';
import { listParam } from '../store/id-list.js';
import type { TraceMinutePath } from './graph.js';

/**
 * Per session, the path of every minute in [from, to) (the minutes the range touches) in which
 * a hop answered, equal consecutive minutes as one entry with their count.
 */
export async function minutePathsOf(q: Queryable, sessionIds: number[], from: number, to: number): Promise<Map<number, TraceMinutePath[]>> {
  const out = new Map<number, TraceMinutePath[]>(sessionIds.map((id) => [id, []]));
  if (!sessionIds.length) return out;
  // Column-major: ~475,000 rows for 10 traces over 24 h, where row objects cost more than the query.
  const [sessions, minutes, hops, addresses] = (await q.columns(
    `SELECT session_id, minute, hop, address FROM hop_hosts
     WHERE session_id IN (SELECT unnest($1::INTEGER[])) AND minute >= $2 AND minute < $3 AND answers > 0
     ORDER BY session_id, minute, hop, address`,
    [listParam(sessionIds), Math.floor(from / HopHostMinuteMs) * HopHostMinuteMs, to],
  )) as [unknown[], unknown[], unknown[], string[]];
  let session = NaN;
  let minute = NaN;
  let hop = NaN;
  let path = '';
  // Equal consecutive minutes of a trace (a steady route) become one entry with their count.
  const flush = () => {
    if (!path) return;
    const list = out.get(session);
    const last = list?.[list.length - 1];
    if (last && last.path === path) last.minutes = (last.minutes ?? 1) + 1;
    else list?.push({ minute, path, minutes: 1 });
  };
  for (let i = 0; i < addresses.length; i++) {
    const s = Number(sessions[i]);
    const m = Number(minutes[i]);
    const h = Number(hops[i]);
    const address = addresses[i];
    if (s !== session || m !== minute) {
      flush();
      session = s;
      minute = m;
      hop = h;
      path = `${h}=${address}`;
    } else if (h !== hop) {
      hop = h;
      path += ` ${h}=${address}`;
    } else {
      path += `,${address}`;
    }
  }
  flush();
  return out;
}
