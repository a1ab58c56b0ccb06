// SQL of alerts, their targets, actions and state, and the notification queue.
import type { Queryable } from '../store/db.js';
import type { OutboxNotification } from './outbox.js';
import { DefaultForSeconds, DefaultRecoverSeconds, type ActionConfig, type ActionKind, type AlertEvent, type AlertInput, type Condition } from '../contract/alerts.js';
import { listParam, safeIds } from '../store/id-list.js';

export interface AlertRecord {
  id: number;
  accountId: number;
  createdBy: number;
  name: string;
  condition: Condition;
  events: AlertEvent[];
  minRepeatSeconds: number;
  /** For: the condition holds this long before the start (0: at once). */
  forSeconds: number;
  /** Recover: the condition has not held for this long before the end (0: at once). */
  recoverSeconds: number;
  enabled: boolean;
  lastError: string;
  lastErrorAt: number | null;
  targets: number[];
  actions: { id: number; kind: ActionKind; config: ActionConfig }[];
}

interface AlertRow {
  id: number;
  account_id: number;
  created_by: number;
  name: string;
  condition_json: string;
  events_json: string;
  min_repeat_seconds: number;
  enabled: boolean;
  last_error: string;
  last_error_at: number | null;
}

export async function insertAlert(q: Queryable, accountId: number, userId: number, a: Required<AlertInput>): Promise<number> {
  const row = await q.one<{ id: number }>(
    `INSERT INTO alerts (account_id, created_by, name, condition_json, events_json, min_repeat_seconds, enabled, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [accountId, userId, a.Name, JSON.stringify(a.Condition), JSON.stringify(a.Events), a.MinRepeatSeconds, a.Enabled, Date.now()],
  );
  await writeChildren(q, row!.id, a);
  await writeHysteresis(q, row!.id, a);
  return row!.id;
}

/** For and Recover of an alert (migration 23): a table of its own; an alert without a row has the defaults. */
async function writeHysteresis(q: Queryable, id: number, a: Required<AlertInput>): Promise<void> {
  await q.run(
    `INSERT INTO alert_hysteresis (alert_id, for_seconds, recover_seconds) VALUES ($1, $2, $3)
     ON CONFLICT (alert_id) DO UPDATE SET for_seconds = excluded.for_seconds, recover_seconds = excluded.recover_seconds`,
    [id, a.ForSeconds, a.RecoverSeconds],
  );
}

export async function updateAlert(q: Queryable, id: number, a: Required<AlertInput>): Promise<void> {
  // A changed condition starts afresh on every target (the evaluator drops its windows too).
  await q.run('DELETE FROM alert_state WHERE alert_id = $1 AND (SELECT condition_json FROM alerts WHERE id = $1) <> $2', [id, JSON.stringify(a.Condition)]);
  await q.run(`UPDATE alerts SET name = $2, condition_json = $3, events_json = $4, min_repeat_seconds = $5, enabled = $6 WHERE id = $1`, [
    id,
    a.Name,
    JSON.stringify(a.Condition),
    JSON.stringify(a.Events),
    a.MinRepeatSeconds,
    a.Enabled,
  ]);
  await q.run('DELETE FROM alert_targets WHERE alert_id = $1', [id]);
  const kept = a.Targets.length ? a.Targets.map((t) => Math.trunc(Number(t))).join(',') : '-1';
  await q.run(`DELETE FROM alert_state WHERE alert_id = $1 AND session_id NOT IN (${kept})`, [id]);
  await writeTargets(q, id, a.Targets);
  await keepActions(q, id, a.Actions);
  await writeHysteresis(q, id, a);
}

/**
 * The edited alert's actions: an action given with its ActionID, or the same kind and
 * configuration as one it had, keeps its id, so notifications queued for it (a mail server
 * down, a webhook retrying) are still delivered; its configuration is updated in place. The
 * others are new rows; actions no longer listed are deleted with their waiting notifications.
 */
async function keepActions(q: Queryable, id: number, actions: Required<AlertInput>['Actions']): Promise<void> {
  const existing = await q.all<{ id: number; kind: ActionKind; config_json: string }>('SELECT id, kind, config_json FROM alert_actions WHERE alert_id = $1 ORDER BY id', [id]);
  const kept = new Set<number>();
  const added: typeof actions = [];
  for (const act of actions) {
    const config = JSON.stringify(act.Config);
    const free = existing.filter((e) => !kept.has(e.id) && e.kind === act.Kind);
    const match = (act.ActionID !== undefined ? free.find((e) => e.id === act.ActionID) : undefined) ?? free.find((e) => e.config_json === config);
    if (!match) {
      added.push(act);
      continue;
    }
    kept.add(match.id);
    if (match.config_json !== config) await q.run('UPDATE alert_actions SET config_json = $2 WHERE id = $1', [match.id, config]);
  }
  for (const e of existing) if (!kept.has(e.id)) await deleteAction(q, id, e.id);
  for (const act of added) await q.run('INSERT INTO alert_actions (alert_id, kind, config_json) VALUES ($1, $2, $3)', [id, act.Kind, JSON.stringify(act.Config)]);
}

async function writeTargets(q: Queryable, id: number, targets: number[]): Promise<void> {
  for (const t of new Set(targets)) await q.run('INSERT INTO alert_targets VALUES ($1, $2)', [id, t]);
}

async function writeChildren(q: Queryable, id: number, a: Required<AlertInput>): Promise<void> {
  await writeTargets(q, id, a.Targets);
  for (const act of a.Actions) await q.run('INSERT INTO alert_actions (alert_id, kind, config_json) VALUES ($1, $2, $3)', [id, act.Kind, JSON.stringify(act.Config)]);
}

export async function setTargets(q: Queryable, id: number, targets: number[], add: boolean): Promise<void> {
  for (const t of new Set(targets)) {
    if (add) await q.run('INSERT INTO alert_targets VALUES ($1, $2) ON CONFLICT DO NOTHING', [id, t]);
    else {
      await q.run('DELETE FROM alert_targets WHERE alert_id = $1 AND session_id = $2', [id, t]);
      await q.run('DELETE FROM alert_state WHERE alert_id = $1 AND session_id = $2', [id, t]);
    }
  }
}

export async function deleteAction(q: Queryable, alertId: number, actionId: number): Promise<void> {
  await q.run('DELETE FROM alert_actions WHERE alert_id = $1 AND id = $2', [alertId, actionId]);
  await q.run(`UPDATE notifications SET status = 'cancelled', done_at = $2 WHERE action_id = $1 AND status = 'pending'`, [actionId, Date.now()]);
}

export async function deleteAlert(q: Queryable, id: number): Promise<void> {
  await q.run('DELETE FROM alert_targets WHERE alert_id = $1', [id]);
  await q.run('DELETE FROM alert_actions WHERE alert_id = $1', [id]);
  await q.run('DELETE FROM alert_state WHERE alert_id = $1', [id]);
  await q.run('DELETE FROM alert_hysteresis WHERE alert_id = $1', [id]);
  await q.run(`UPDATE notifications SET status = 'cancelled', done_at = $2 WHERE alert_id = $1 AND status = 'pending'`, [id, Date.now()]);
  await q.run('DELETE FROM alerts WHERE id = $1', [id]);
}

/** Alerts of one account (undefined: every account, for the evaluator at start). */
export async function loadAlerts(q: Queryable, accountId?: number, alertId?: number): Promise<AlertRecord[]> {
  const where: string[] = [];
  const params: number[] = [];
  if (accountId !== undefined) where.push(`account_id = $${params.push(accountId)}`);
  if (alertId !== undefined) where.push(`id = $${params.push(alertId)}`);
  const rows = await q.all<AlertRow>(`SELECT * FROM alerts ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id`, params);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const targets = await q.all<{ alert_id: number; session_id: number }>(`SELECT * FROM alert_targets WHERE alert_id IN (${ids.join(',')}) ORDER BY session_id`);
  const actions = await q.all<{ id: number; alert_id: number; kind: ActionKind; config_json: string }>(`SELECT * FROM alert_actions WHERE alert_id IN (${ids.join(',')}) ORDER BY id`);
  const hysteresis = new Map(
    (await q.all<{ alert_id: number; for_seconds: number; recover_seconds: number }>(`SELECT * FROM alert_hysteresis WHERE alert_id IN (${ids.join(',')})`)).map((h) => [h.alert_id, h]),
  );
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    createdBy: r.created_by,
    name: r.name,
    condition: JSON.parse(r.condition_json) as Condition,
    events: JSON.parse(r.events_json) as AlertEvent[],
    minRepeatSeconds: r.min_repeat_seconds,
    forSeconds: hysteresis.get(r.id)?.for_seconds ?? DefaultForSeconds,
    recoverSeconds: hysteresis.get(r.id)?.recover_seconds ?? DefaultRecoverSeconds,
    enabled: r.enabled,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
    targets: targets.filter((t) => t.alert_id === r.id).map((t) => t.session_id),
    actions: actions.filter((a) => a.alert_id === r.id).map((a) => ({ id: a.id, kind: a.kind, config: JSON.parse(a.config_json) as ActionConfig })),
  }));
}

export const countAlerts = async (q: Queryable, accountId: number) =>
  (await q.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM alerts WHERE account_id = $1', [accountId]))!.n;

export interface StateRecord {
  alertId: number;
  sessionId: number;
  firing: boolean;
  since: number;
  notifiedStart: boolean;
}

export async function loadStates(q: Queryable): Promise<StateRecord[]> {
  const rows = await q.all<{ alert_id: number; session_id: number; firing: boolean; since: number; notified_start: boolean }>('SELECT * FROM alert_state');
  return rows.map((r) => ({ alertId: r.alert_id, sessionId: r.session_id, firing: r.firing, since: r.since, notifiedStart: r.notified_start }));
}

export async function writeState(q: Queryable, s: StateRecord): Promise<void> {
  await q.run(`INSERT INTO alert_state VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (alert_id, session_id) DO UPDATE SET firing = excluded.firing, since = excluded.since, notified_start = excluded.notified_start`, [s.alertId, s.sessionId, s.firing, s.since, s.notifiedStart]);
}

export interface NotificationRecord {
  id: number;
  alertId: number;
  actionId: number;
  sessionId: number;
  event: AlertEvent;
  variablesJson: string;
  attempts: number;
  expiresAt: number;
}

export interface NewNotification {
  alertId: number;
  actionId: number;
  sessionId: number;
  event: AlertEvent;
  variablesJson: string;
}

/**
 * Writes queued rows, ids given (the outbox numbers them before the store sees them), in one
 * statement (a flush can fire a thousand alerts at once). A row already there is kept as it
 * is: a replayed outbox must not queue a delivered notification again.
 */
export async function insertNotifications(q: Queryable, rows: OutboxNotification[]): Promise<void> {
  if (!rows.length) return;
  const params: (string | number)[] = [];
  const values = rows.map((r) => {
    const at = params.push(r.id, r.alertId, r.actionId, r.sessionId, r.event, r.variablesJson, r.createdAt, r.expiresAt);
    return `($${at - 7}, $${at - 6}, $${at - 5}, $${at - 4}, $${at - 3}, $${at - 2}, 'pending', $${at - 1}, $${at}, $${at - 1})`;
  });
  await q.run(
    `INSERT INTO notifications (id, alert_id, action_id, session_id, event, variables_json, status, next_attempt_at, expires_at, created_at)
     VALUES ${values.join(', ')} ON CONFLICT (id) DO NOTHING`,
    params,
  );
}

/** PostgreSQL: `n` new notification ids from the table's sequence, which every replica shares. */
export async function nextNotificationIds(q: Queryable, n: number): Promise<number[]> {
  if (n === 0) return [];
  const rows = await q.all<{ id: number }>(`SELECT nextval('notification_id_seq')::BIGINT AS id FROM generate_series(1, $1::INTEGER)`, [n]);
  return rows.map((r) => Number(r.id));
}

/** DuckDB: the highest notification id in the store (ids are given in memory from there on). */
export async function maxNotificationId(q: Queryable): Promise<number> {
  return (await q.one<{ id: number }>('SELECT coalesce(max(id), 0)::BIGINT AS id FROM notifications'))!.id;
}

export async function dueNotifications(q: Queryable, now: number, limit: number): Promise<NotificationRecord[]> {
  const rows = await q.all<{ id: number; alert_id: number; action_id: number; session_id: number; event: AlertEvent; variables_json: string; attempts: number; expires_at: number }>(
    `SELECT id, alert_id, action_id, session_id, event, variables_json, attempts, expires_at FROM notifications
     WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY next_attempt_at, id LIMIT $2`,
    [now, limit],
  );
  return rows.map((r) => ({ id: r.id, alertId: r.alert_id, actionId: r.action_id, sessionId: r.session_id, event: r.event, variablesJson: r.variables_json, attempts: r.attempts, expiresAt: r.expires_at }));
}

export async function nextAttemptAt(q: Queryable): Promise<number | undefined> {
  const r = await q.one<{ t: number | null }>(`SELECT min(next_attempt_at) AS t FROM notifications WHERE status = 'pending'`);
  return r?.t ?? undefined;
}

/** Delivered rows, in one statement (a flush can fire a thousand alerts), and their alerts' errors cleared. */
export async function markSent(q: Queryable, sent: { n: NotificationRecord; answer: string }[], now: number): Promise<void> {
  if (!sent.length) return;
  const params: (string | number)[] = [now];
  const values = sent.map(({ n, answer }) => {
    const at = params.push(n.id, answer);
    return `($${at - 1}::BIGINT, $${at}::VARCHAR)`;
  });
  await q.run(
    `UPDATE notifications SET status = 'sent', attempts = attempts + 1, answer = v.answer, done_at = $1
     FROM (VALUES ${values.join(', ')}) v(id, answer) WHERE notifications.id = v.id`,
    params,
  );
  const alerts = [...new Set(sent.map((x) => x.n.alertId))];
  await q.run(`UPDATE alerts SET last_error = '', last_error_at = NULL WHERE id IN (${alerts.map(Number).join(',')}) AND last_error <> ''`);
}

/** A failed attempt: again at `retryAt`, or given up (failed) when that is past the expiry. */
export async function markFailedAttempt(q: Queryable, n: NotificationRecord, answer: string, now: number, retryAt: number): Promise<void> {
  const giveUp = retryAt > n.expiresAt;
  await q.run(
    `UPDATE notifications SET status = $2, attempts = attempts + 1, answer = $3, next_attempt_at = $4, done_at = $5 WHERE id = $1`,
    [n.id, giveUp ? 'failed' : 'pending', answer, retryAt, giveUp ? now : null],
  );
  const text = giveUp ? `Gave up after ${n.attempts + 1} attempts: ${answer}` : `Attempt ${n.attempts + 1} failed, retrying: ${answer}`;
  await q.run('UPDATE alerts SET last_error = $2, last_error_at = $3 WHERE id = $1', [n.alertId, text.slice(0, 2000), now]);
}

export async function pendingByAlert(q: Queryable, accountId: number): Promise<Map<number, number>> {
  const rows = await q.all<{ alert_id: number; n: number }>(
    `SELECT n.alert_id, count(*)::INTEGER AS n FROM notifications n JOIN alerts a ON a.id = n.alert_id
     WHERE a.account_id = $1 AND n.status = 'pending' GROUP BY n.alert_id`,
    [accountId],
  );
  return new Map(rows.map((r) => [r.alert_id, r.n]));
}

/** The newest delivered notification's answer per alert (an export's path, a webhook's reply). */
export async function lastAnswers(q: Queryable, accountId: number, alertId?: number): Promise<Map<number, string>> {
  const rows = await q.all<{ alert_id: number; answer: string }>(
    `SELECT n.alert_id, arg_max(n.answer, n.id) AS answer FROM notifications n JOIN alerts a ON a.id = n.alert_id
     WHERE a.account_id = $1 AND n.status = 'sent'${alertId === undefined ? '' : ' AND n.alert_id = $2'} GROUP BY n.alert_id`,
    alertId === undefined ? [accountId] : [accountId, alertId],
  );
  return new Map(rows.map((r) => [r.alert_id, r.answer]));
}

export interface NotificationView {
  id: number;
  actionId: number;
  sessionId: number;
  event: string;
  status: string;
  attempts: number;
  answer: string;
  createdAt: number;
  doneAt: number | null;
}

export async function recentNotifications(q: Queryable, alertId: number, limit = 50): Promise<NotificationView[]> {
  const rows = await q.all<{ id: number; action_id: number; session_id: number; event: string; status: string; attempts: number; answer: string; created_at: number; done_at: number | null }>(
    `SELECT id, action_id, session_id, event, status, attempts, answer, created_at, done_at FROM notifications WHERE alert_id = $1 ORDER BY id DESC LIMIT $2`,
    [alertId, limit],
  );
  return rows.map((r) => ({ id: r.id, actionId: r.action_id, sessionId: r.session_id, event: r.event, status: r.status, attempts: r.attempts, answer: r.answer, createdAt: r.created_at, doneAt: r.done_at }));
}

/** Whether an enabled alert watches the target (HasAlert). */
export async function isWatched(q: Queryable, sessionId: number): Promise<boolean> {
  return (await watchedSessions(q, [sessionId])).has(sessionId);
}

/** Which of the sessions an enabled alert watches, in one statement. */
export async function watchedSessions(q: Queryable, sessionIds: number[]): Promise<Set<number>> {
  const safe = safeIds(sessionIds);
  if (!safe.length) return new Set();
  const rows = await q.all<{ id: number }>(
    `SELECT DISTINCT t.session_id AS id FROM alert_targets t JOIN alerts a ON a.id = t.alert_id
     WHERE t.session_id IN (SELECT unnest($1::INTEGER[])) AND a.enabled`,
    [listParam(safe)],
  );
  return new Set(rows.map((r) => Number(r.id)));
}
