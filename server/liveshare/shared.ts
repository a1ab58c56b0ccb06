// What a link shares (spec 1 section 3: SummaryID is SUM-{id} or AGT-{agentUniqueId}): a
// summary's targets, or the open targets of an agent (the visitor's pseudo-summary, id 0).
import { LocalMachineAgentId, LocalMachineAgentName } from '../contract/sessions.js';
import type { Queryable } from '../store/db.js';
import { findSummary, memberSessionIds } from '../summaries/repository.js';

export interface SharedTargets {
  kind: 'Summary' | 'Agent';
  /** The summary id, or 0 for an agent's targets. */
  summaryId: number;
  /** The agent's id for AGT- links. */
  agentId?: number;
  /** The summary's or agent's name. */
  title: string;
  sessionIds: number[];
}

export type SummaryRef = { kind: 'Summary'; summaryId: number } | { kind: 'Agent'; agentUniqueId: string };

/** SUM-{id} or AGT-{uniqueId}, case as given; undefined when it is neither. */
export function parseSummaryRef(ref: string): SummaryRef | undefined {
  const sum = /^SUM-(\d{1,10})$/i.exec(ref);
  if (sum) return { kind: 'Summary', summaryId: Number(sum[1]) };
  const agt = /^AGT-(-1|[0-9A-Za-z-]{1,64})$/i.exec(ref);
  if (agt) return { kind: 'Agent', agentUniqueId: agt[1] };
  return undefined;
}

/** The canonical spelling stored with a link. */
export function formatSummaryRef(r: SummaryRef): string {
  return r.kind === 'Summary' ? `SUM-${r.summaryId}` : `AGT-${r.agentUniqueId}`;
}

export async function sharedTargets(q: Queryable, accountId: number, ref: string): Promise<SharedTargets | undefined> {
  const parsed = parseSummaryRef(ref);
  if (!parsed) return undefined;
  if (parsed.kind === 'Summary') {
    if (parsed.summaryId > 2_147_483_647) return undefined;
    const s = await findSummary(q, accountId, parsed.summaryId);
    if (!s) return undefined;
    return { kind: 'Summary', summaryId: s.id, title: s.name, sessionIds: await memberSessionIds(q, s) };
  }
  const agent =
    parsed.agentUniqueId === String(LocalMachineAgentId)
      ? { id: LocalMachineAgentId, name: LocalMachineAgentName }
      : await q.one<{ id: number; name: string }>('SELECT id, name FROM agents WHERE account_id = $1 AND unique_id = $2', [accountId, parsed.agentUniqueId]);
  if (!agent) return undefined;
  const rows = await q.all<{ id: number }>('SELECT id FROM sessions WHERE account_id = $1 AND sentinel_id = $2 AND state IN (0, 1) ORDER BY id', [
    accountId,
    agent.id,
  ]);
  return { kind: 'Agent', summaryId: 0, agentId: agent.id, title: agent.name, sessionIds: rows.map((r) => r.id) };
}
