// What an action does with one notification (the queue calls it; "Send test" too). Each
// answers the text it got back (the SMTP server's reply, the webhook's status, never its body) or
// throws ActionFailed with it, which the queue retries.
import type { FastifyBaseLogger } from 'fastify';
import type { ActionKind, ActionConfig, CommentActionConfig, EmailActionConfig, ExportActionConfig, LogActionConfig, SummaryActionConfig, WebhookActionConfig } from '../contract/alerts.js';
import type { DomainEventBus } from '../events.js';
import type { Store } from '../store/db.js';
import type { SendMail } from '../mail/transport.js';
import type { Config } from '../config.js';
import { insertComment } from '../comments/repository.js';
import { findUserById } from '../users/repository.js';
import { principalOf } from '../account/principal.js';
import { addHost, removeFromSummary } from '../summaries/service.js';
import { HttpError } from '../http/errors.js';
import { writeDataFile } from '../datafiles/export.js';
import { DataFileExtension } from '../datafiles/format.js';
import { accountFolder, ExportMinRepeatSeconds, ExportTooLarge, exportedRecently, noteExported, withoutExportDir, writeWithinQuota } from './export-quota.js';
import { mailOf, substitute, summaryLine, webhookBody, type NotificationVariables } from './templates.js';
import { outboundPolicy, OutboundFailed, OutboundRefused, sendOutbound, type OutboundAnswer } from '../http/outbound-address.js';

export class ActionFailed extends Error {
  /** Retrying cannot help (a bad address, a summary that is gone): give up at once. */
  constructor(message: string, readonly permanent = false) {
    super(message);
  }
}

export interface ActionDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
  log: FastifyBaseLogger;
  sendMail: SendMail;
}

export interface ActionContext {
  accountId: number;
  alertId: number;
  /** The user whose rights the comment and summary actions use (the alert's author). */
  createdBy: number;
  sessionId: number;
  time: number;
  /** The start of the condition's window (epoch ms): the export action's range is from..time. */
  from?: number;
  variables: NotificationVariables;
  /** The queued notification (none for Send test): webhooks name it in NotificationHeader. */
  notificationId?: number;
}

/** The export action's file limit when its MaxSamples is not given. */
export const DefaultExportSamples = 200_000;

/** "alert-12_target-34_start_20261125-021500.pp2": ids and the time, nothing a user typed. */
export function exportFileName(alertId: number, sessionId: number, event: string, time: number): string {
  const when = new Date(time).toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `alert-${alertId}_target-${sessionId}_${event.replace(/[^A-Za-z]/g, '')}_${when}${DataFileExtension}`;
}

export const WebhookTimeoutMs = 10_000;

/**
 * The header naming the notification a webhook call delivers: the same on every attempt and
 * after a restart (delivery is at least once), so a receiver can drop a repeat.
 */
export const NotificationHeader = 'x-hopwatch-notification';

async function webhook(config: Config, c: WebhookActionConfig, v: NotificationVariables, notificationId?: number): Promise<string> {
  const body = c.Method === 'GET' ? undefined : webhookBody(c.Format, c.Template, v);
  let answer: OutboundAnswer;
  try {
    // The one address policy (refused addresses, HOPWATCH_WEBHOOK_ALLOW) and the one way out: docs/security.md.
    answer = await sendOutbound(c.Url, {
      method: c.Method,
      headers: { 'content-type': 'application/json', 'user-agent': 'Hopwatch-alerts', ...(c.Headers ?? {}), ...(notificationId !== undefined ? { [NotificationHeader]: String(notificationId) } : {}) },
      body,
      timeoutMs: WebhookTimeoutMs,
    }, outboundPolicy(config));
  } catch (err) {
    // A refused address stays refused until the operator changes the allow list: no retries.
    if (err instanceof OutboundRefused) throw new ActionFailed(err.message, true);
    if (err instanceof OutboundFailed) throw new ActionFailed(`${c.Method} ${safeUrl(c.Url)} failed: ${err.message}`);
    throw err;
  }
  // The status alone: the body (and the sender's own reason text) could carry what an internal service said.
  const text = `${answer.status} ${answer.reason}`.trim();
  const ok = answer.status >= 200 && answer.status < 300;
  // 4xx but 408 and 429 will not get better by retrying.
  if (!ok) throw new ActionFailed(text, answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429);
  return text;
}

/** The URL without its query and user info (tokens often live there), for answers and logs. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(bad URL)';
  }
}

export async function runAction(deps: ActionDeps, kind: ActionKind, config: ActionConfig, ctx: ActionContext): Promise<string> {
  const v = ctx.variables;
  switch (kind) {
    case 'email': {
      const c = config as EmailActionConfig;
      const m = mailOf(v, c.Subject);
      try {
        const r = await deps.sendMail({ to: c.To.split(',').map((s) => s.trim()).filter(Boolean), ...m });
        return r.response;
      } catch (err) {
        throw new ActionFailed((err as Error).message);
      }
    }
    case 'webhook':
      return webhook(deps.config, config as WebhookActionConfig, v, ctx.notificationId);
    case 'comment': {
      const c = config as CommentActionConfig;
      const text = substitute(c.Text || 'Alert "$alert" $eventWords: $condition (loss $loss%, latency $latency ms)', v).slice(0, 1000);
      const id = await deps.store.transaction(async (q) => {
        const alive = await q.one('SELECT id FROM sessions WHERE id = $1 AND account_id = $2', [ctx.sessionId, ctx.accountId]);
        if (!alive) throw new ActionFailed(`Target ${ctx.sessionId} no longer exists.`, true);
        return insertComment(q, { sessionId: ctx.sessionId, whenMs: ctx.time, text, type: 0, extraAttributesJson: JSON.stringify({ alertId: ctx.alertId }) }, ctx.createdBy);
      });
      deps.events.emit('CommentChanged', ctx.accountId, ctx.sessionId, ctx.time, id);
      return `Comment ${id} added: ${text}`;
    }
    case 'summary': {
      const c = config as SummaryActionConfig;
      const user = await deps.store.read((q) => findUserById(q, ctx.createdBy));
      if (!user) throw new ActionFailed('The user who made this alert no longer exists.', true);
      const sdeps = { store: deps.store, events: deps.events, config: deps.config };
      const args = { host: String(ctx.sessionId), summaryId: c.SummaryID };
      try {
        const s = c.Mode === 'add' ? await addHost(sdeps, principalOf(user), args) : await removeFromSummary(sdeps, principalOf(user), args);
        return `Target ${ctx.sessionId} ${c.Mode === 'add' ? 'added to' : 'removed from'} summary "${s.Name}".`;
      } catch (err) {
        if (err instanceof HttpError) throw new ActionFailed(err.message, true);
        throw err;
      }
    }
    case 'export': {
      const c = config as ExportActionConfig;
      const user = await deps.store.read((q) => findUserById(q, ctx.createdBy));
      if (!user) throw new ActionFailed('The user who made this alert no longer exists.', true);
      const root = deps.config.alertExportDir;
      const name = exportFileName(ctx.alertId, ctx.sessionId, v.event, ctx.time);
      // What users see: relative to the export folder (the server's own path is the operator's).
      const shown = `${accountFolder(ctx.accountId)}/${name}`;
      // Flapping starts and ends (or a rule stored before the minimum repeat) write one file per ExportMinRepeatSeconds.
      const ago = exportedRecently(root, ctx.alertId, ctx.sessionId, Date.now());
      if (ago !== undefined) return `Not written: this alert wrote this target's data file ${ago} s ago (at most one every ${ExportMinRepeatSeconds} s).`;
      const from = Math.min(ctx.from ?? ctx.time, ctx.time);
      try {
        // With the author's rights, like the comment and summary actions; within the account's quota.
        const quota = { maxBytes: deps.config.alertExportMaxBytes, maxFiles: deps.config.alertExportMaxFiles };
        const { result: written, pruned } = await writeWithinQuota(root, ctx.accountId, quota, name, (path) =>
          writeDataFile(deps.store, principalOf(user), { ID: String(ctx.sessionId), BeginTime: Math.floor(from), EndTime: Math.ceil(ctx.time), MaxSamples: c.MaxSamples ?? DefaultExportSamples }, path),
        );
        noteExported(root, ctx.alertId, ctx.sessionId, Date.now());
        if (pruned.length) deps.log.info({ alert: ctx.alertId, account: ctx.accountId, pruned }, 'alerts: oldest exports deleted to stay within the account\'s export quota');
        return `Data file written: ${shown} (${written.samples} samples${written.cut ? ', cut at MaxSamples' : ''}${pruned.length ? `; ${pruned.length} older deleted for the export quota` : ''})`;
      } catch (err) {
        // A target that is gone will not come back, nor a file larger than the quota; a full or unwritable disk may be fixed meanwhile.
        if (err instanceof HttpError) throw new ActionFailed(`Could not export: ${err.message}`, true);
        if (err instanceof ExportTooLarge) throw new ActionFailed(`Could not write ${shown}: ${err.message}`, true);
        throw new ActionFailed(`Could not write ${shown}: ${withoutExportDir((err as Error).message, root)}`);
      }
    }
    case 'log': {
      const c = config as LogActionConfig;
      const line = c.Text ? substitute(c.Text, v) : summaryLine(v);
      deps.log.warn({ alert: ctx.alertId, target: ctx.sessionId, event: v.event }, line);
      return `Logged: ${line}`;
    }
  }
}
