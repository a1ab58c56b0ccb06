// The durable notification queue: a notification is a line in the outbox journal from the
// moment its event happened (outbox.ts), then a row (table notifications) until it was
// delivered, or its retry time ran out; the first attempt does not wait for the row. One timer for
// the whole queue (the earliest due row), not one per target or row. A failed attempt is
// retried with exponential backoff (1 s, 2 s, 4 s... at most MaxBackoffMs apart) until
// expiresAt; the failure shows on the alert (LastError) meanwhile and after giving up.
// Rows pending at a restart are sent after it.
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/db.js';
import * as repo from './repository.js';
import { ActionFailed, runAction, type ActionDeps } from './actions.js';
import type { NotificationVariables } from './templates.js';
import type { StageTimes } from './stage-times.js';

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
  /** Where the delivery's duration is noted. */
  stages?: StageTimes;
  /**
   * Several replicas on one PostgreSQL (issue 43 item 2): a row is delivered by the replica that
   * claimed it in the database (its next attempt moved ClaimMs ahead: nobody else finds it due
   * meanwhile), and rows due again (retries, and those of a replica that died holding them) by
   * the leader only, which looks at least every PollMs. Unset: one process, as before.
   */
  cluster?: { leads: () => boolean };
}

/** How long a claimed row is the claimer's: longer than any action takes (a webhook gives up after 10 s, mail after 30 s). */
export const ClaimMs = 120_000;
/** The leader looks for due rows at least this often (rows another replica's attempts made due). */
export const PollMs = 5000;

export class NotificationQueue {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  /** Rows being delivered now (by deliverNow or a drain): never twice at once. */
  private readonly inFlight = new Set<number>();
  /** Rows this process finished lately: a drain that read them before their mark committed skips them. */
  private readonly recentlyDone = new Set<number>();
  delivered = 0;
  failedAttempts = 0;
  /** Outcomes waiting to be written: one transaction for all that ended meanwhile. */
  private readonly marks: { n: repo.NotificationRecord; answer: string; retryAt?: number; now: number }[] = [];
  private markWriting: Promise<void> = Promise.resolve();
  private markScheduled = false;

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

  /**
   * Delivers rows just queued without reading them back. They are in the outbox journal
   * (their DuckDB write may still wait behind an ingest flush): a crash meanwhile leaves them
   * pending for the next start. Failures are retried by the timer. `since`
   * (performance.now()) times the delivery for the stage figures.
   */
  deliverNow(rows: repo.NotificationRecord[], since = performance.now()): void {
    if (this.closed) return;
    void Promise.all(rows.map((n) => this.deliver(n, since))).finally(() => void this.schedule());
  }

  /** Writes an outcome together with the others that ended meanwhile (retryAt: a failed attempt). */
  private mark(m: { n: repo.NotificationRecord; answer: string; retryAt?: number; now: number }): Promise<void> {
    this.marks.push(m);
    if (!this.markScheduled) {
      this.markScheduled = true;
      this.markWriting = this.markWriting
        .then(async () => {
          this.markScheduled = false;
          const batch = this.marks.splice(0);
          await this.deps.store.transaction(async (q) => {
            await repo.markSent(q, batch.filter((x) => x.retryAt === undefined), Date.now());
            for (const x of batch) if (x.retryAt !== undefined) await repo.markFailedAttempt(q, x.n, x.answer, x.now, x.retryAt);
          }, { background: true });
        })
        .catch((err) => this.deps.log.error({ err }, 'notification queue: could not record outcomes'));
    }
    return this.markWriting;
  }

  private async schedule(): Promise<void> {
    if (this.closed) return;
    const cluster = this.deps.cluster;
    if (cluster && !cluster.leads()) return;
    const next = await this.deps.store.read((q) => repo.nextAttemptAt(q)).catch(() => undefined);
    const at = cluster ? Math.min(next ?? Infinity, Date.now() + PollMs) : next;
    if (at === undefined || this.closed || this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    const cluster = this.deps.cluster;
    for (;;) {
      if (this.closed || (cluster && !cluster.leads())) return;
      const now = Date.now();
      let due = (await this.deps.store.read((q) => repo.dueNotifications(q, now, BatchSize + this.inFlight.size))).filter((n) => !this.inFlight.has(n.id) && !this.recentlyDone.has(n.id));
      if (cluster && due.length) {
        // Only the rows this replica claimed: another may have claimed some since they were read.
        const claimed = await this.deps.store.read((q) => repo.claimNotifications(q, due.map((n) => n.id), now, now + ClaimMs));
        due = due.filter((n) => claimed.has(n.id));
      }
      if (!due.length) return;
      // Deliveries of one batch run together: one slow webhook does not hold the others.
      await Promise.all(due.map((n) => this.deliver(n)));
    }
  }

  private async deliver(n: repo.NotificationRecord, since?: number): Promise<void> {
    if (this.inFlight.has(n.id) || this.recentlyDone.has(n.id)) return;
    this.inFlight.add(n.id);
    let finished = false;
    try {
      finished = await this.attempt(n, since);
    } finally {
      this.inFlight.delete(n.id);
      if (finished) this.recentlyDone.add(n.id);
      // Ids only grow: the oldest ones are long marked in the store.
      if (this.recentlyDone.size > 20_000) for (const id of [...this.recentlyDone].slice(0, 10_000)) this.recentlyDone.delete(id);
    }
  }

  /** True when the row is done (sent, dropped or given up); false when it waits for a retry. */
  private async attempt(n: repo.NotificationRecord, since?: number): Promise<boolean> {
    const found = this.deps.lookup(n.alertId, n.actionId);
    if (!found) {
      await this.deps.store.run(`UPDATE notifications SET status = 'cancelled', done_at = $2 WHERE id = $1`, [n.id, Date.now()]);
      return true;
    }
    const variables = JSON.parse(n.variablesJson) as NotificationVariables & { sampleTime: number; windowFrom?: number };
    try {
      const answer = await runAction(this.deps.actions, found.kind, found.config, {
        accountId: found.accountId,
        alertId: n.alertId,
        createdBy: found.createdBy,
        sessionId: n.sessionId,
        time: variables.sampleTime,
        from: variables.windowFrom,
        variables,
        notificationId: n.id,
      });
      // The answer is in: what the bench calls delivered (the outcome's write follows).
      if (since !== undefined) this.deps.stages?.note('deliver', performance.now() - since);
      await this.mark({ n, answer: answer.slice(0, 2000), now: Date.now() });
      this.delivered++;
      this.deps.onResult?.(true, n, answer);
      return true;
    } catch (err) {
      const answer = err instanceof ActionFailed ? err.message : `Unexpected: ${(err as Error).message}`;
      const permanent = err instanceof ActionFailed && err.permanent;
      const now = Date.now();
      const retryAt = permanent ? Infinity : now + backoffMs(n.attempts + 1);
      await this.mark({ n, answer: answer.slice(0, 2000), now, retryAt: Number.isFinite(retryAt) ? retryAt : n.expiresAt + 1 });
      this.failedAttempts++;
      this.deps.log.warn({ alert: n.alertId, action: n.actionId, notification: n.id, attempt: n.attempts + 1 }, `notification failed: ${answer}`);
      this.deps.onResult?.(false, n, answer);
      return retryAt > n.expiresAt;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.markWriting;
  }
}
