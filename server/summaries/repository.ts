// SQL of summaries and their members. Callers hold the store (exclusive or transaction).
import { AllTargetsSummaryName } from '../contract/summaries.js';
import { SessionState } from '../contract/sessions.js';
import type { Queryable } from '../store/db.js';

export interface SummaryRecord {
  id: number;
  accountId: number;
  name: string;
  isAllTargets: boolean;
  targetCount: number;
}

/** Sessions that count as targets: not closed and not about to be deleted. */
const OpenSession = `x.state NOT IN (${SessionState.Archived}, ${SessionState.WillDelete})`;

const selectSummaries = `
  SELECT s.id, s.account_id AS "accountId", s.name, s.is_all_targets AS "isAllTargets",
    CASE WHEN s.is_all_targets
      THEN (SELECT count(*) FROM sessions x WHERE x.account_id = s.account_id AND ${OpenSession})
      ELSE (SELECT count(*) FROM summary_members m JOIN sessions x ON x.id = m.session_id
            WHERE m.summary_id = s.id AND x.account_id = s.account_id AND ${OpenSession})
    END AS "targetCount"
  FROM summaries s`;

/**
 * The account's all-targets summary, created the first time anyone needs it. `created` tells
 * the caller to announce it (SummaryListChanged): the hub's cached summary memberships of the
 * account's targets do not know it yet.
 */
export async function ensureAllTargets(q: Queryable, accountId: number): Promise<{ id: number; created: boolean }> {
  const found = await q.one<{ id: number }>('SELECT id FROM summaries WHERE account_id = $1 AND is_all_targets', [accountId]);
  if (found) return { id: found.id, created: false };
  const row = await q.one<{ id: number }>(
    'INSERT INTO summaries (account_id, name, is_all_targets, created_at) VALUES ($1, $2, true, $3) RETURNING id',
    [accountId, AllTargetsSummaryName, Date.now()],
  );
  return { id: row!.id, created: true };
}

/** All-targets first, then named summaries in creation order. */
export function listSummaries(q: Queryable, accountId: number): Promise<SummaryRecord[]> {
  return q.all<SummaryRecord>(`${selectSummaries} WHERE s.account_id = $1 ORDER BY s.is_all_targets DESC, s.id`, [accountId]);
}

export function findSummary(q: Queryable, accountId: number, id: number): Promise<SummaryRecord | undefined> {
  return q.one<SummaryRecord>(`${selectSummaries} WHERE s.account_id = $1 AND s.id = $2`, [accountId, id]);
}

export function findSummaryByName(q: Queryable, accountId: number, name: string): Promise<{ id: number } | undefined> {
  return q.one<{ id: number }>('SELECT id FROM summaries WHERE account_id = $1 AND lower(name) = lower($2)', [accountId, name]);
}

export async function insertSummary(q: Queryable, accountId: number, name: string, createdBy: number): Promise<number> {
  const row = await q.one<{ id: number }>(
    'INSERT INTO summaries (account_id, name, created_by, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
    [accountId, name, createdBy, Date.now()],
  );
  return row!.id;
}

export async function renameSummary(q: Queryable, id: number, name: string): Promise<void> {
  await q.run('UPDATE summaries SET name = $2 WHERE id = $1', [id, name]);
}

export async function deleteSummary(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM summary_members WHERE summary_id = $1', [id]);
  await q.run('DELETE FROM summaries WHERE id = $1', [id]);
}

/** Adding a member twice leaves one row. */
export async function addMember(q: Queryable, summaryId: number, sessionId: number): Promise<void> {
  await q.run(
    'INSERT INTO summary_members (summary_id, session_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [summaryId, sessionId, Date.now()],
  );
}

export async function removeMember(q: Queryable, summaryId: number, sessionId: number): Promise<void> {
  await q.run('DELETE FROM summary_members WHERE summary_id = $1 AND session_id = $2', [summaryId, sessionId]);
}

/** Open sessions shown by a summary, in the order they were added (all-targets: by id). */
export async function memberSessionIds(q: Queryable, summary: SummaryRecord): Promise<number[]> {
  const rows = summary.isAllTargets
    ? await q.all<{ id: number }>(`SELECT x.id FROM sessions x WHERE x.account_id = $1 AND ${OpenSession} ORDER BY x.id`, [
        summary.accountId,
      ])
    : await q.all<{ id: number }>(
        `SELECT x.id FROM summary_members m JOIN sessions x ON x.id = m.session_id
         WHERE m.summary_id = $1 AND x.account_id = $2 AND ${OpenSession} ORDER BY m.added_at, x.id`,
        [summary.id, summary.accountId],
      );
  return rows.map((r) => r.id);
}

export interface SessionRef {
  id: number;
  state: number;
}

/** A session of the account, or undefined (another account's session is not found). */
export function findSession(q: Queryable, accountId: number, sessionId: number): Promise<SessionRef | undefined> {
  return q.one<SessionRef>('SELECT id, state FROM sessions WHERE id = $1 AND account_id = $2', [sessionId, accountId]);
}
