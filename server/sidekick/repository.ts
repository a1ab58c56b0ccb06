// SQL of the Sidekick (migration 17). Callers hold the store (exclusive or transaction).
import type { SidekickSourceKind, SidekickStage } from '../contract/sidekick.js';
import type { Queryable } from '../store/db.js';

export interface SidekickRecord {
  accountId: number;
  stage: SidekickStage;
  summaryId: number;
  agentId: number;
  startedAt: number;
}

export interface SidekickTargetRecord {
  position: number;
  kind: SidekickSourceKind;
  originalTarget: string;
  sessionId: number | null;
  label: string;
  description: string;
  notFoundReason: string;
}

/** A target with what its trace resolved (sessions.target_name, target_ip). */
export type SidekickTargetRow = SidekickTargetRecord & { dnsName: string; ip: string };

export async function findSidekick(q: Queryable, accountId: number): Promise<SidekickRecord | undefined> {
  const row = await q.one<SidekickRecord>(
    `SELECT account_id AS "accountId", stage, summary_id AS "summaryId", agent_id AS "agentId", started_at AS "startedAt"
     FROM sidekick WHERE account_id = $1`,
    [accountId],
  );
  return row && { ...row, stage: Number(row.stage) as SidekickStage, startedAt: Number(row.startedAt) };
}

export async function putSidekick(q: Queryable, r: SidekickRecord): Promise<void> {
  await q.run('DELETE FROM sidekick WHERE account_id = $1', [r.accountId]);
  await q.run('DELETE FROM sidekick_targets WHERE account_id = $1', [r.accountId]);
  await q.run('INSERT INTO sidekick VALUES ($1, $2, $3, $4, $5)', [r.accountId, r.stage, r.summaryId, r.agentId, r.startedAt]);
}

export async function setStage(q: Queryable, accountId: number, stage: SidekickStage): Promise<void> {
  await q.run('UPDATE sidekick SET stage = $2 WHERE account_id = $1', [accountId, stage]);
}

export async function putTarget(q: Queryable, accountId: number, t: SidekickTargetRecord): Promise<void> {
  await q.run('DELETE FROM sidekick_targets WHERE account_id = $1 AND position = $2', [accountId, t.position]);
  await q.run('INSERT INTO sidekick_targets VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
    accountId,
    t.position,
    t.kind,
    t.originalTarget,
    t.sessionId,
    t.label,
    t.description,
    t.notFoundReason,
  ]);
}

export async function targetsOf(q: Queryable, accountId: number): Promise<SidekickTargetRow[]> {
  const rows = await q.all<SidekickTargetRow>(
    `SELECT k.position, k.kind, k.original_target AS "originalTarget", k.session_id AS "sessionId", k.label, k.description,
       k.not_found_reason AS "notFoundReason", coalesce(s.target_name, '') AS "dnsName", coalesce(s.target_ip, '') AS "ip"
     FROM sidekick_targets k LEFT JOIN sessions s ON s.id = k.session_id
     WHERE k.account_id = $1 ORDER BY k.position`,
    [accountId],
  );
  return rows.map((r) => ({ ...r, position: Number(r.position), sessionId: r.sessionId === null ? null : Number(r.sessionId) }));
}

/** How many of the given sessions still run (Active), to tell Running from Done. */
export async function activeCount(q: Queryable, sessionIds: number[], activeState: number): Promise<number> {
  if (!sessionIds.length) return 0;
  const row = await q.one<{ n: number }>(`SELECT count(*) AS n FROM sessions WHERE id IN (${sessionIds.map((_, i) => `$${i + 2}`).join(', ')}) AND state = $1`, [
    activeState,
    ...sessionIds,
  ]);
  return Number(row?.n ?? 0);
}
