// Deleting sessions for good, and finding the ones retention removes.
import type { Queryable } from '../store/db.js';
import { sampleTablesOf } from '../store/sample-tables.js';
import { forgetSessions } from '../summaries/forget-sessions.js';
import { SessionState } from '../contract/sessions.js';
import type { SessionRecord } from '../targets/repository.js';
import { listParam, safeIds } from '../store/id-list.js';

/**
 * Every row of the sessions: samples, rollups and their marks, tallies not folded yet,
 * hosts, hop hosts (server/hop-details), route changes, comments, summary memberships, then the sessions rows. Call
 * inside one transaction, so a failure deletes nothing.
 */
export async function deleteSessionRows(q: Queryable, sessionIds: number[]): Promise<void> {
  const ids = sessionIds.filter((id) => Number.isSafeInteger(id));
  if (!ids.length) return;
  const list = listParam(ids);
  // A semi-join on the ids (a hash table), not list_contains per row: that compared every
  // sample with every id, and 1,000 sessions of 10,000 (7.2 M samples) did not finish in minutes.
  const ofIds = 'IN (SELECT unnest($1::INTEGER[]))';
  for (const table of [...sampleTablesOf(q), 'sample_packing', 'rollup_marks', 'sample_tallies', 'hosts', 'hop_hosts', 'route_changes', 'imported_sessions']) {
    await q.run(`DELETE FROM ${table} WHERE session_id ${ofIds}`, [list]);
  }
  await forgetSessions(q, ids);
  await q.run(`DELETE FROM sessions WHERE id ${ofIds}`, [list]);
}

/** Closed sessions that ended (or, without an end, last sampled or started) before `cutoff`, by account. */
export function closedBefore(q: Queryable, cutoff: number): Promise<{ id: number; accountId: number }[]> {
  return q.all(
    `SELECT id, account_id AS "accountId" FROM sessions_counted
     WHERE state = $1 AND coalesce(end_time, latest_sample, start_time) < $2 ORDER BY id`,
    [SessionState.Archived, cutoff],
  );
}

/** Sessions left half-imported by a stop during an import (state Will Delete). */
export function leftoverImports(q: Queryable): Promise<{ id: number; accountId: number }[]> {
  return q.all(`SELECT id, account_id AS "accountId" FROM sessions WHERE state = $1 ORDER BY id`, [SessionState.WillDelete]);
}

/** What the sessions page shows of a session (sessionDto's fields). */
export type ListedSession = Pick<
  SessionRecord,
  'id' | 'originalTarget' | 'targetName' | 'targetIp' | 'description' | 'state' | 'persistenceMode' | 'dynamicDnsMode' | 'collectorMode' | 'sentinelId' | 'startTime' | 'endTime' | 'sampleCount'
> & {
  /** Made by an import (imported.ts): its End is where its data ends (issue 41 item 5). */
  imported: boolean;
};

/**
 * The account's sessions for the list, oldest first, read column by column: row objects
 * (getRowObjectsJS) of every column cost most of GET /api/Sessions with 10,000 sessions.
 * An imported session ends at its last sample: the end_time its file carried is when the
 * original was closed, which is not where the data the copy holds ends.
 */
export async function listedSessions(q: Queryable, accountId: number): Promise<ListedSession[]> {
  const [id, originalTarget, targetName, targetIp, description, state, persistenceMode, dynamicDnsMode, collectorMode, sentinelId, startTime, endTime, sampleCount, imported] =
    await q.columns(
      `SELECT s.id, s.original_target, s.target_name, s.target_ip, s.description, s.state, s.persistence_mode, s.dynamic_dns_mode, s.collector_mode, s.sentinel_id,
              s.start_time, CASE WHEN i.session_id IS NULL THEN s.end_time ELSE coalesce(s.latest_sample, s.end_time) END AS end_time, s.sample_count,
              i.session_id IS NOT NULL AS imported
       FROM sessions_counted s LEFT JOIN imported_sessions i ON i.session_id = s.id
       WHERE s.account_id = $1 AND s.state <> $2 ORDER BY s.id`,
      [accountId, SessionState.WillDelete],
    );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return id.map((_, i) => ({
    id: Number(id[i]),
    originalTarget: originalTarget[i] as string,
    targetName: targetName[i] as string,
    targetIp: targetIp[i] as string,
    description: description[i] as string,
    state: Number(state[i]),
    persistenceMode: Number(persistenceMode[i]),
    dynamicDnsMode: Number(dynamicDnsMode[i]),
    collectorMode: Number(collectorMode[i]),
    sentinelId: Number(sentinelId[i]),
    startTime: Number(startTime[i]),
    endTime: num(endTime[i]),
    sampleCount: Number(sampleCount[i]),
    imported: imported[i] === true,
  }));
}

/** A session a command acts on: who owns it, its state and end. */
export type CommandedSession = Pick<SessionRecord, 'id' | 'accountId' | 'state' | 'endTime'>;

/**
 * The sessions of a command's IDs in one statement (absent ones are missing from the answer).
 * One lookup per id through sessions_counted took minutes for 1,000 ids of 10,000 sessions.
 */
export async function sessionsByIds(q: Queryable, ids: number[]): Promise<Map<number, CommandedSession>> {
  const safe = safeIds(ids);
  if (!safe.length) return new Map();
  const rows = await q.all<CommandedSession>(
    `SELECT id, account_id AS "accountId", state, end_time AS "endTime" FROM sessions WHERE id IN (SELECT unnest($1::INTEGER[]))`,
    [listParam(safe)],
  );
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), accountId: Number(r.accountId), state: Number(r.state), endTime: r.endTime === null ? null : Number(r.endTime) }]));
}
