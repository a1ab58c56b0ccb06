// The durable notification queue: a notification is a row (table notifications) from the
// moment its event happened until it was delivered, or its retry time ran out. One timer for
// the whole queue (the earliest due row), not one per target or row. A failed attempt is
// retried with exponential backoff (1 s, 2 s, 4 s... at most MaxBackoffMs apart) until
// expiresAt; the failure shows on the alert (LastError) meanwhile and after giving up.
// Rows pending at a restart are sent after it.
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/db.js';
import * as repo from './repository.js';
import { ActionFailed, runAction, type ActionDeps } from './actions.js';
import type { NotificationVariables } from './templates.js';

export const MaxBackoffMs = 15_000;
const BatchSize = 50;

export const backoffMs = (attempts: number) => Math.min(MaxBackoffMs, 1000 * 2 ** Math.max(0, attempts - 1));

export interface QueueDeps {
  store: Store;
  log: FastifyBaseLogger;
  actions: ActionDeps;
  /** The alert and action of a notification (undefined: deleted since, the row is dropped). */
  lookup: (alertId: number, actionId: number) => { accountId: number; createdBy: number; kind: repo.AlertRecord['actions'][number]['kind']; config: repo.AlertRecord['actions'][number]['config'] } | undefined;
  /** Called after each delivery or failure (the console's alerts page and /metrics). */
  onResult?: (ok: boolean, n: repo.NotificationRecord, answer: string) => void;
}

export class NotificationQueue {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  delivered = 0;
  failedAttempts = 0;

  constructor(private readonly deps: QueueDeps) {}

  /** Something was queued or may be due: drain now (one drain at a time). */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.running = this.drain()
      .catch((err) => this.deps.log.error({ err }, 'notification queue: drain failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        } else void this.schedule();
      });
  }

  private async schedule(): Promise<void> {
    if (this.closed) return;
    const next = await this.deps.store.read((q) => repo.nextAttemptAt(q)).catch(() => undefined);
    if (next === undefined || this.closed || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, Math.max(0, next - Date.now()));
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const due = await this.deps.store.read((q) => repo.dueNotifications(q, Date.now(), BatchSize));
      if (!due.length) return;
      // Deliveries of one batch run together: one slow webhook does not hold the others.
      await Promise.all(due.map((n) => this.deliver(n)));
    }
  }

  private async deliver(n: repo.NotificationRecord): Promise<void> {
    const found = this.deps.lookup(n.alertId, n.actionId);
    if (!found) {
      await this.deps.store.run(`UPDATE notifications SET status = 'cancelled', done_at = $2 WHERE id = $1`, [n.id, Date.now()]);
      return;
    }
    const variables = JSON.parse(n.variablesJson) as NotificationVariables & { sampleTime: number };
    try {
      const answer = await runAction(this.deps.actions, found.kind, found.config, {
        accountId: found.accountId,
        alertId: n.alertId,
        createdBy: found.createdBy,
        sessionId: n.sessionId,
        time: variables.sampleTime,
        variables,
      });
      await this.deps.store.transaction((q) => repo.markSent(q, n, answer.slice(0, 2000), Date.now()));
      this.delivered++;
      this.deps.onResult?.(true, n, answer);
    } catch (err) {
      const answer = err instanceof ActionFailed ? err.message : `Unexpected: ${(err as Error).message}`;
      const permanent = err instanceof ActionFailed && err.permanent;
      const now = Date.now();
      const retryAt = permanent ? Infinity : now + backoffMs(n.attempts + 1);
      await this.deps.store.transaction((q) => repo.markFailedAttempt(q, n, answer.slice(0, 2000), now, Number.isFinite(retryAt) ? retryAt : n.expiresAt + 1));
      this.failedAttempts++;
      this.deps.log.warn({ alert: n.alertId, action: n.actionId, notification: n.id, attempt: n.attempts + 1 }, `notification failed: ${answer}`);
      this.deps.onResult?.(false, n, answer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
