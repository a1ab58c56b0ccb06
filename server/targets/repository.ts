// Queries on sessions (targets) and their hosts (hops).
import type { Queryable } from '../store/db.js';
import { listParam, safeIds } from '../store/id-list.js';

export interface SessionRecord {
  id: number;
  accountId: number;
  originalTarget: string;
  targetName: string;
  targetIp: string;
  description: string;
  state: number;
  persistenceMode: number;
  dynamicDnsMode: number;
  collectorMode: number;
  sentinelId: number;
  configurationId: number;
  traceIntervalMs: number;
  finalHopOnly: boolean;
  createdBy: number | null;
  startTime: number;
  endTime: number | null;
  firstSample: number | null;
  latestSample: number | null;
  sampleCount: number;
}

// From sessions_counted: the sample counters include the tallies not folded in yet.
const sessionColumns = `id, account_id AS "accountId", original_target AS "originalTarget", target_name AS "targetName",
  target_ip AS "targetIp", description, state, persistence_mode AS "persistenceMode", dynamic_dns_mode AS "dynamicDnsMode",
  collector_mode AS "collectorMode", sentinel_id AS "sentinelId", configuration_id AS "configurationId",
  trace_interval_ms AS "traceIntervalMs", final_hop_only AS "finalHopOnly", created_by AS "createdBy",
  start_time AS "startTime", end_time AS "endTime", first_sample AS "firstSample", latest_sample AS "latestSample",
  sample_count AS "sampleCount"`;

export type NewSession = Pick<
  SessionRecord,
  | 'accountId'
  | 'originalTarget'
  | 'targetName'
  | 'targetIp'
  | 'state'
  | 'dynamicDnsMode'
  | 'sentinelId'
  | 'configurationId'
  | 'traceIntervalMs'
  | 'finalHopOnly'
  | 'createdBy'
  | 'startTime'
>;

export async function insertSession(q: Queryable, s: NewSession): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, sentinel_id,
       configuration_id, trace_interval_ms, final_hop_only, created_by, start_time)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      s.accountId, s.originalTarget, s.targetName, s.targetIp, s.state, s.dynamicDnsMode, s.sentinelId,
      s.configurationId, s.traceIntervalMs, s.finalHopOnly, s.createdBy, s.startTime,
    ],
  );
  return row!.id;
}

export async function findSession(q: Queryable, id: number): Promise<SessionRecord | undefined> {
  return q.one<SessionRecord>(`SELECT ${sessionColumns} FROM sessions_counted WHERE id = $1`, [id]);
}

/**
 * The sessions of `ids` in one statement, in the order of `ids` (absent ones are left out).
 * A summary of 100 targets read them one findSession at a time: 100 statements, each
 * waiting behind the ingest on a 2-core machine (docs/summary-screen.md).
 */
export async function findSessions(q: Queryable, ids: number[]): Promise<SessionRecord[]> {
  const safe = safeIds(ids);
  if (!safe.length) return [];
  const rows = await q.all<SessionRecord>(`SELECT ${sessionColumns} FROM sessions_counted WHERE id IN (SELECT unnest($1::INTEGER[]))`, [listParam(safe)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return safe.map((id) => byId.get(id)).filter((r): r is SessionRecord => r !== undefined);
}

export async function sessionsInStates(q: Queryable, states: number[]): Promise<SessionRecord[]> {
  return q.all<SessionRecord>(`SELECT ${sessionColumns} FROM sessions_counted WHERE list_contains($1::INTEGER[], state) ORDER BY id`, [
    listParam(states),
  ]);
}

/** One agent's running sessions (an agent's link coming to a replica, server/agents/takeover.ts). */
export async function activeSessionsOfAgent(q: Queryable, agentId: number): Promise<SessionRecord[]> {
  return q.all<SessionRecord>(`SELECT ${sessionColumns} FROM sessions_counted WHERE sentinel_id = $1 AND state = 0 ORDER BY id`, [agentId]);
}

export async function listSessions(q: Queryable, accountId: number): Promise<SessionRecord[]> {
  return q.all<SessionRecord>(`SELECT ${sessionColumns} FROM sessions_counted WHERE account_id = $1 ORDER BY id`, [accountId]);
}

export async function setSessionState(q: Queryable, id: number, state: number, endTime: number | null): Promise<void> {
  await q.run('UPDATE sessions SET state = $2, end_time = $3 WHERE id = $1', [id, state, endTime]);
}

export async function setSessionInterval(q: Queryable, id: number, ms: number): Promise<void> {
  await q.run('UPDATE sessions SET trace_interval_ms = $2 WHERE id = $1', [id, ms]);
}

export async function setSessionConfiguration(q: Queryable, id: number, configId: number): Promise<void> {
  await q.run('UPDATE sessions SET configuration_id = $2 WHERE id = $1', [id, configId]);
}

export async function setSessionFinalHopOnly(q: Queryable, id: number, on: boolean): Promise<void> {
  await q.run('UPDATE sessions SET final_hop_only = $2 WHERE id = $1', [id, on]);
}

/**
 * Sets the target address of a session; with `onlyIn`, only while the session is in that state
 * (dynamic DNS: a target paused while its name was being resolved keeps its address). Answers
 * whether it did.
 */
export async function setSessionTargetIp(q: Queryable, id: number, ip: string, onlyIn?: number): Promise<boolean> {
  const rows = await q.all<{ id: number }>(
    `UPDATE sessions SET target_ip = $2 WHERE id = $1${onlyIn === undefined ? '' : ' AND state = $3'} RETURNING id`,
    onlyIn === undefined ? [id, ip] : [id, ip, onlyIn],
  );
  return rows.length > 0;
}

export interface HostRecord {
  sessionId: number;
  hop: number;
  address: string;
  dnsName: string;
  name: string;
  notes: string;
}

export async function hostsOf(q: Queryable, sessionIds: number[]): Promise<HostRecord[]> {
  if (!sessionIds.length) return [];
  return q.all<HostRecord>(
    `SELECT session_id AS "sessionId", hop, address, dns_name AS "dnsName", name, notes
     FROM hosts WHERE list_contains($1::INTEGER[], session_id) ORDER BY session_id, hop`,
    [listParam(sessionIds)],
  );
}

export async function setHostValue(q: Queryable, sessionId: number, hop: number, field: 'name' | 'notes', value: string, now: number) {
  await q.run(
    `INSERT INTO hosts (session_id, hop, ${field}, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (session_id, hop) DO UPDATE SET ${field} = excluded.${field}, updated_at = excluded.updated_at`,
    [sessionId, hop, value, now],
  );
}
