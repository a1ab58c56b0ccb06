// The outages a DataPointBuckets answer lists (issue 40 item 2): the periods of
// server/data/outage-record.ts that overlap the requested range, for the trace's own agent
// (the Local Machine runs inside the server: only the server's outages apply to it).
import { OutageReason, type Outage } from '../contract/data.js';
import type { Queryable } from '../store/db.js';
import { OutageKind } from './outage-record.js';

const reasonOf: Record<string, OutageReason> = { [OutageKind.AgentOffline]: OutageReason.AgentOffline, [OutageKind.ServerDown]: OutageReason.ServerDown };

/** At most this many periods per answer (the newest): a range of years of a flapping link stays small. */
export const MaxOutagesPerAnswer = 500;

export async function outagesOf(q: Queryable, agentId: number, startMs: number, endMs: number): Promise<Outage[]> {
  const rows = await q.all<{ kind: string; started_at: number; ended_at: number | null }>(
    `SELECT kind, started_at, ended_at FROM outage_periods
     WHERE (kind = $1 OR (kind = $2 AND agent_id = $3)) AND started_at < $4 AND (ended_at IS NULL OR ended_at > $5)
     ORDER BY started_at DESC LIMIT ${MaxOutagesPerAnswer}`,
    [OutageKind.ServerDown, OutageKind.AgentOffline, agentId, endMs, startMs],
  );
  return rows.reverse().map((r) => ({
    Reason: reasonOf[r.kind],
    Start: new Date(Number(r.started_at)).toISOString(),
    End: r.ended_at === null ? null : new Date(Number(r.ended_at)).toISOString(),
  }));
}
