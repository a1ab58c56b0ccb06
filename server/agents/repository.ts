// The agents table (migration 7): one row per remote agent of an account.
import { LocalMachineAgentId, LocalMachineAgentName } from '../contract/sessions.js';
import { list } from '../store/dialect.js';
import { listParam } from '../store/id-list.js';
import type { Queryable } from '../store/db.js';

export interface AgentRecord {
  id: number;
  accountId: number;
  uniqueId: string;
  name: string;
  enrolHash: string | null;
  credentialHash: string | null;
  machineId: string;
  machineName: string;
  platform: number;
  version: string;
  mode: number;
  lastMessage: number | null;
  lastSeq: number;
  createdAt: number;
}

const columns = `id, account_id AS "accountId", unique_id AS "uniqueId", name, enrol_hash AS "enrolHash",
  credential_hash AS "credentialHash", machine_id AS "machineId", machine_name AS "machineName", platform, version,
  mode, last_message AS "lastMessage", last_seq AS "lastSeq", created_at AS "createdAt"`;

function fix(r: AgentRecord | undefined): AgentRecord | undefined {
  if (!r) return r;
  return { ...r, lastMessage: r.lastMessage === null ? null : Number(r.lastMessage), lastSeq: Number(r.lastSeq), createdAt: Number(r.createdAt) };
}

export async function listAgents(q: Queryable, accountId: number): Promise<AgentRecord[]> {
  const rows = await q.all<AgentRecord>(`SELECT ${columns} FROM agents WHERE account_id = $1 ORDER BY id`, [accountId]);
  return rows.map((r) => fix(r)!);
}

export async function findAgent(q: Queryable, id: number): Promise<AgentRecord | undefined> {
  return fix(await q.one<AgentRecord>(`SELECT ${columns} FROM agents WHERE id = $1`, [id]));
}

export async function insertAgent(q: Queryable, a: { accountId: number; uniqueId: string; name: string; enrolHash: string; createdAt: number }): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO agents (account_id, unique_id, name, enrol_hash, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [a.accountId, a.uniqueId, a.name, a.enrolHash, a.createdAt],
  );
  return row!.id;
}

export async function renameAgent(q: Queryable, id: number, name: string): Promise<void> {
  await q.run('UPDATE agents SET name = $2 WHERE id = $1', [id, name]);
}

export async function setEnrolHash(q: Queryable, id: number, enrolHash: string): Promise<void> {
  await q.run('UPDATE agents SET enrol_hash = $2 WHERE id = $1', [id, enrolHash]);
}

/** The enrolment key is spent: the agent's own credential replaces it. */
export async function enrol(q: Queryable, id: number, credentialHash: string): Promise<void> {
  await q.run('UPDATE agents SET enrol_hash = NULL, credential_hash = $2 WHERE id = $1', [id, credentialHash]);
}

export interface Hello {
  machineId: string;
  machineName: string;
  platform: number;
  version: string;
  mode: number;
  at: number;
}

/** What agents said in their hellos, many agents in one statement. */
export async function recordHellos(q: Queryable, rows: readonly [number, Hello][]): Promise<void> {
  if (!rows.length) return;
  const col = <T>(f: (h: Hello) => T) => list(rows.map(([, h]) => f(h)) as never[]);
  await q.run(
    `UPDATE agents SET machine_id = v.machine_id, machine_name = v.machine_name, platform = v.platform, version = v.version, mode = v.mode, last_message = v.at
     FROM (SELECT unnest($1::INTEGER[]) AS id, unnest($2::VARCHAR[]) AS machine_id, unnest($3::VARCHAR[]) AS machine_name, unnest($4::INTEGER[]) AS platform,
                  unnest($5::VARCHAR[]) AS version, unnest($6::INTEGER[]) AS mode, unnest($7::BIGINT[]) AS at) v
     WHERE agents.id = v.id`,
    [
      list(rows.map(([id]) => id)),
      col((h) => h.machineId),
      col((h) => h.machineName),
      col((h) => h.platform),
      col((h) => h.version),
      col((h) => h.mode),
      list(rows.map(([, h]) => BigInt(Math.round(h.at)))),
    ],
  );
}

/**
 * Agents' newest committed batch numbers and last-message times, many agents in one statement
 * (a statement per agent and second was a fifth of the write lane's statements at 200 agents).
 */
export async function recordProgress(q: Queryable, rows: readonly { id: number; seq: number; at: number }[]): Promise<void> {
  if (!rows.length) return;
  await q.run(
    `UPDATE agents SET last_seq = greatest(agents.last_seq, v.seq), last_message = v.at
     FROM (SELECT unnest($1::INTEGER[]) AS id, unnest($2::BIGINT[]) AS seq, unnest($3::BIGINT[]) AS at) v
     WHERE agents.id = v.id`,
    [listParam(rows.map((r) => r.id)), listParam(rows.map((r) => r.seq)), listParam(rows.map((r) => Math.round(r.at)))],
  );
}

export async function deleteAgentRow(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM agents WHERE id = $1', [id]);
}

/** Open (active or paused) sessions per agent of an account, and all sessions per agent. */
export async function sessionCounts(q: Queryable, accountId: number): Promise<Map<number, { open: number; total: number }>> {
  const rows = await q.all<{ agent: number; open: number; total: number }>(
    `SELECT sentinel_id AS agent, count(*) FILTER (WHERE state IN (0, 1))::INTEGER AS open, count(*)::INTEGER AS total
     FROM sessions WHERE account_id = $1 GROUP BY sentinel_id`,
    [accountId],
  );
  return new Map(rows.map((r) => [r.agent, { open: r.open, total: r.total }]));
}

/** Active traces of the account on remote agents (the entitlement counts these). */
/**
 * The account's active traces that count against its entitled traces: those on its remote
 * agents, and with `withLocalMachine` those on the Local Machine too (a hosted customer's:
 * server/accounts/local-machine.ts).
 */
export async function activeRemoteTraces(q: Queryable, accountId: number, withLocalMachine = false): Promise<number> {
  const row = await q.one<{ n: number }>(
    `SELECT count(*)::INTEGER AS n FROM sessions WHERE account_id = $1 AND state = 0 AND (sentinel_id > 0 OR ($2::BOOLEAN AND sentinel_id = -1))`,
    [accountId, withLocalMachine],
  );
  return row?.n ?? 0;
}

/** Active traces of the account on the Local Machine (the Agents overview says the uncounted ones). */
export async function activeLocalMachineTraces(q: Queryable, accountId: number): Promise<number> {
  const row = await q.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM sessions WHERE account_id = $1 AND state = 0 AND sentinel_id = -1`, [accountId]);
  return row?.n ?? 0;
}

/** Open sessions of one agent (the detail panel's TARGETS list). */
export async function openSessionsOf(q: Queryable, accountId: number, agentId: number) {
  const rows = await q.all<{ id: number; ip: string; name: string; latest: number | null; state: number }>(
    `SELECT id, target_ip AS ip, CASE WHEN description <> '' THEN description ELSE target_name END AS name,
            latest_sample AS latest, state
     FROM sessions_counted WHERE account_id = $1 AND sentinel_id = $2 AND state IN (0, 1) ORDER BY id`,
    [accountId, agentId],
  );
  return rows.map((r) => ({ ID: r.id, IPAddress: r.ip, Name: r.name, LatestSample: r.latest === null ? null : Number(r.latest), Paused: r.state === 1 }));
}

/**
 * The names of the agents that run the given sessions (the Agent column, "via {agent}" and the
 * sessions page): the Local Machine by its name, a remote agent by its row, a deleted one as
 * "Unknown Agent (id/)" (spec 2 "Session": AgentName).
 */
export async function agentNames(q: Queryable, sentinelIds: Iterable<number>): Promise<Map<number, string>> {
  const ids = [...new Set(sentinelIds)];
  const out = new Map<number, string>();
  const remote = ids.filter((id) => id > 0);
  if (remote.length) {
    const rows = await q.all<{ id: number; name: string }>(`SELECT id, name FROM agents WHERE id IN (${remote.map((_, i) => `$${i + 1}`).join(', ')})`, remote);
    for (const r of rows) out.set(Number(r.id), r.name);
  }
  for (const id of ids) if (!out.has(id)) out.set(id, agentNameText(id, undefined));
  return out;
}

export const agentNameText = (sentinelId: number, name: string | undefined): string =>
  sentinelId === LocalMachineAgentId ? LocalMachineAgentName : (name ?? `Unknown Agent (${sentinelId}/)`);
