// Alerts (issue 22, docs/alerts.md): one function per operation for the REST routes and the
// alerts pages, and the wiring of evaluation at ingest commit to the notification queue.
import type { FastifyBaseLogger } from 'fastify';
import { dirname, join } from 'node:path';
import { Claim } from '../contract/account.js';
import { ActionKinds, AlertEvents, DefaultForSeconds, DefaultRecoverSeconds, MaxHysteresisSeconds, WebhookFormats, type ActionConfig, type ActionKind, type ActionTestResult, type AlertDto, type AlertInput } from '../contract/alerts.js';
import { LocalMachineAgentId, LocalMachineAgentName } from '../contract/sessions.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, notFound, tooManyRequests } from '../http/errors.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { Queryable, Store } from '../store/db.js';
import type { SendMail } from '../mail/transport.js';
import { conditionProblem, describeCondition, type WindowFigures } from './conditions.js';
import { AlertEvaluator, type Happening } from './evaluator.js';
import { ActionFailed, runAction, type ActionDeps } from './actions.js';
import { ExportMinRepeatSeconds } from './export-quota.js';
import { NotificationQueue } from './queue.js';
import { AgentPresence } from './agent-presence.js';
import { Outbox, type OutboxNotification } from './outbox.js';
import { StageTimes } from './stage-times.js';
import * as repo from './repository.js';
import { templateProblem, type NotificationVariables } from './templates.js';
import { publicUrlInForce } from '../settings/public-url.js';
import { dialectOf, list } from '../store/dialect.js';
import type { Leadership } from '../cluster/leadership.js';
import { ClaimMs } from './queue.js';

/** Per account: plenty for any network, and a bound on what one account makes the server hold. */
export const MaxAlertsPerAccount = 10_000;
export const MaxTargetsPerAlert = 1_000;
export const MaxActionsPerAlert = 20;
export const AlertNameMaxLength = 200;
export const MaxTestsPerMinute = 20;
/** The outbox journal's directory, beside the database file. */
export const OutboxDir = 'alerts-outbox';
/** Watched targets' names are read again this often, and used at most NamesKeptMs after reading. */
const NamesRefreshMs = 30_000;
const NamesKeptMs = 90_000;

export interface AlertServiceDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
  log: FastifyBaseLogger;
  sendMail: SendMail;
  /**
   * Several replicas on one PostgreSQL (issue 43 item 2): the leader retries due notifications
   * and decides agent-offline alerts; each replica delivers the rows its own events made.
   */
  leadership?: Pick<Leadership, 'kind' | 'isLeader' | 'onChange' | 'listen'>;
}

/** Several replicas: an alert changed on one is read again by every other (each evaluates the samples it ingests). */
export const AlertsChannel = 'hopwatch_alerts';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

export class AlertService {
  readonly evaluator: AlertEvaluator;
  readonly queue: NotificationQueue;
  private readonly actionDeps: ActionDeps;
  /** Every alert by id (the queue looks actions up here; deleted ones are gone). */
  private readonly alerts = new Map<number, repo.AlertRecord>();
  /** Writes of events and states, in order, so a start is stored before its end. */
  private writing: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  private readonly waitingHappenings: Happening[] = [];
  private readonly waitingStates: repo.StateRecord[] = [];
  notificationsQueued = 0;
  private namesTimer: NodeJS.Timeout | undefined;
  /** The journal notifications and states are written to before delivery (set at start). */
  private outbox: Outbox | undefined;
  /** PostgreSQL: the outbox is the notifications table, written in the event's transaction (no journal file). */
  private get journalInStore(): boolean {
    return dialectOf(this.deps.store) === 'postgres';
  }
  /** The DuckDB write of the last batch (settles on success and on failure). */
  private storing: Promise<void> = Promise.resolve();
  /**
   * DuckDB: notification ids are given here, before the store sees the row (from the stored
   * maximum; the outbox journal needs them first). PostgreSQL takes them from the table's
   * sequence in the write's transaction: every replica numbers from the same sequence.
   */
  private lastNotificationId = 0;
  /** How long each step from an event to its delivery took (ms), for the bench and the docs. */
  readonly stages = new StageTimes();
  /** The agentOffline condition's view of the agent links (set at start). */
  private presence: AgentPresence | undefined;

  constructor(private readonly deps: AlertServiceDeps) {
    this.evaluator = new AlertEvaluator({ maxStaleMs: deps.config.alertMaxStaleSeconds * 1000 });
    this.actionDeps = { store: deps.store, events: deps.events, config: deps.config, log: deps.log, sendMail: deps.sendMail };
    const leadership = deps.leadership;
    this.queue = new NotificationQueue({
      ...(leadership?.kind === 'postgres' ? { cluster: { leads: () => leadership.isLeader() } } : {}),
      store: deps.store,
      log: deps.log,
      actions: this.actionDeps,
      stages: this.stages,
      lookup: (alertId, actionId) => {
        const a = this.alerts.get(alertId);
        const act = a?.actions.find((x) => x.id === actionId);
        return a && act ? { accountId: a.accountId, createdBy: a.createdBy, kind: act.kind, config: act.config } : undefined;
      },
    });
  }

  /** Loads alerts and states, listens to ingest commits and route changes, sends what was pending. */
  async start(
    ingest: IngestPipeline,
    opts: {
      isAgentOnline?: (agentId: number) => boolean;
      /** Several replicas: agents coming and going on other replicas (server/cluster/presence.ts). */
      onClusterPresence?: (listener: (agentId: number, online: boolean) => void) => void;
      /** Several replicas: whether the leader knows who is linked yet (no agent is decided offline before). */
      clusterPresenceReady?: () => boolean;
      /** Several replicas: reads who is linked anywhere again (before a timed agent-offline decision). */
      refreshClusterPresence?: () => Promise<void>;
    } = {},
  ): Promise<void> {
    // What the outbox journal holds that the store may not (a crash before its DuckDB write).
    // On PostgreSQL there is no journal file: the event's transaction is the outbox (record).
    const { outbox, left } = this.journalInStore ? { outbox: undefined, left: [] } : Outbox.open(join(dirname(this.deps.store.path), OutboxDir));
    const [alerts, states] = await this.deps.store.transaction(async (q) => {
      const known = new Set((await repo.loadAlerts(q)).map((a) => a.id));
      for (const e of left) {
        for (const s of e.states) if (known.has(s.alertId)) await repo.writeState(q, s);
        await repo.insertNotifications(q, e.notifications.filter((n) => known.has(n.alertId)));
      }
      this.lastNotificationId = await repo.maxNotificationId(q);
      return [await repo.loadAlerts(q), await repo.loadStates(q)] as const;
    });
    outbox?.replayed();
    this.outbox = outbox;
    void this.refreshNames();
    this.namesTimer = setInterval(() => void this.refreshNames(), NamesRefreshMs);
    this.namesTimer.unref();
    for (const a of alerts) this.alerts.set(a.id, a);
    this.evaluator.load(alerts, states);
    ingest.onCommitted((sessionId, samples) => {
      const { happenings, states } = this.evaluator.committed(sessionId, samples);
      if (happenings.length || states.length) this.record(happenings, states);
    });
    this.deps.events.on('RouteChanged', (_accountId, sessionId, rowId) => {
      const hop = Number(rowId.split('_h_')[1] ?? 0);
      const happenings = this.evaluator.routeChanged(sessionId, hop, Date.now());
      if (happenings.length) this.record(happenings, []);
    });
    // A session that comes to this replica (its agent's link, or the Local Machine with
    // leadership) carries on from the alert states the store holds, not from this replica's
    // (an alert that fired on the replica before must not fire again here).
    ingest.onTakeOver?.(async (sessionIds) => {
      const states = await this.deps.store.read((q) => q.all<{ alert_id: number; session_id: number; firing: boolean; since: number; notified_start: boolean }>(
        'SELECT alert_id, session_id, firing, since, notified_start FROM alert_state WHERE session_id IN (SELECT unnest($1::INTEGER[]))',
        [list(sessionIds)],
      ));
      this.evaluator.restore(sessionIds, states.map((r) => ({ alertId: Number(r.alert_id), sessionId: Number(r.session_id), firing: r.firing, since: Number(r.since), notifiedStart: r.notified_start })));
    });
    const leadership = this.deps.leadership;
    leadership?.listen(AlertsChannel, (payload) => {
      const id = Number(payload);
      if (Number.isSafeInteger(id) && id > 0) this.reload(id, false).catch((err: Error) => this.deps.log.warn({ msg: err.message, alert: id }, 'alerts: could not read a changed alert'));
    });
    this.presence = new AgentPresence({
      store: this.deps.store,
      evaluator: this.evaluator,
      isOnline: opts.isAgentOnline ?? (() => false),
      record: (h, s) => this.record(h, s),
      leads: leadership ? () => leadership.isLeader() && (opts.clusterPresenceReady?.() ?? true) : undefined,
      refresh: opts.refreshClusterPresence,
    });
    leadership?.onChange((leader) => {
      if (!leader) return;
      // The new leader: the retries and the agent-offline decisions are its now (the latter once it knows who is linked).
      this.checkAgents();
      this.queue.kick();
    });
    this.deps.events.on('AgentConnection', (_accountId, agentId, online) => this.presence?.changed(agentId, online));
    opts.onClusterPresence?.((agentId, online) => this.presence?.changed(agentId, online));
    await this.presence.learnTargets();
    this.presence.check();
    this.queue.kick();
  }

  /** Decides the agent-offline alerts now (the cluster's presence was read). */
  checkAgents(): void {
    this.presence?.check();
  }

  async close(): Promise<void> {
    clearInterval(this.namesTimer);
    clearTimeout(this.namesSoonTimer);
    this.presence?.close();
    await this.writing;
    await this.storing;
    await this.queue.close();
    await this.outbox?.close();
  }

  /**
   * Queues one notification per action of each event and stores the states, without waiting
   * for the store's write lane (where an ingest flush may take seconds): everything one flush
   * (or several, while a batch is written) produced is written to the outbox journal
   * (fsynced), delivered at once, and written to DuckDB behind whatever the lane holds. A
   * crash before that DuckDB write is replayed from the journal at the next start.
   */
  private record(happenings: Happening[], states: repo.StateRecord[]): void {
    this.waitingHappenings.push(...happenings);
    this.waitingStates.push(...states);
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    const firedAt = performance.now();
    this.writing = this.writing
      .then(async () => {
        this.writeScheduled = false;
        const hs = this.waitingHappenings.splice(0);
        const ss = this.waitingStates.splice(0);
        const outbox = this.outbox;
        if (!outbox && !this.journalInStore) throw new Error('alerts: not started');
        const now = Date.now();
        const expiresAt = now + this.deps.config.alertRetryMinutes * 60_000;
        // Names come from the read connections: they do not wait for the write lane.
        const rows: OutboxNotification[] = [];
        const started = performance.now();
        this.stages.note('wait', started - firedAt);
        const notifying = hs.filter((h) => h.alert.actions.length);
        // Usually every name is in memory and no hop condition fired: no statement at all.
        const fresh = Date.now() - NamesKeptMs;
        const needsRead = notifying.some((h) => h.alert.condition.Hop || !((this.targetInfos.get(h.sessionId)?.at ?? 0) > fresh));
        await (needsRead ? this.deps.store.read.bind(this.deps.store) : (fn: (q: Queryable) => Promise<void>) => fn(this.deps.store))(async (q) => {
          await this.loadTargetInfos(q, notifying.map((h) => h.sessionId));
          const addresses = await this.hopAddresses(q, notifying);
          for (const h of notifying) {
            const v = await this.variables(q, h, addresses);
            const variablesJson = JSON.stringify({ ...v, sampleTime: h.time, windowFrom: h.from });
            for (const act of h.alert.actions) rows.push({ id: this.journalInStore ? 0 : ++this.lastNotificationId, alertId: h.alert.id, actionId: act.id, sessionId: h.sessionId, event: h.event, variablesJson, attempts: 0, expiresAt, createdAt: now });
          }
        });
        const prepared = performance.now();
        const write = (q: Queryable) =>
          (async () => {
            for (const s of ss) await repo.writeState(q, s);
            await repo.insertNotifications(q, rows);
          })();
        if (!outbox) {
          // PostgreSQL: the states and rows are committed in one transaction before anything is
          // delivered (no single write lane to wait behind; a second replica sees them at once).
          // Their ids come from the table's sequence and they are claimed by this replica, which
          // delivers them now: no other replica finds them due while it does (queue.ts).
          await this.deps.store.transaction(async (q) => {
            const ids = await repo.nextNotificationIds(q, rows.length);
            rows.forEach((r, i) => (r.id = ids[i]));
            for (const st of ss) await repo.writeState(q, st);
            await repo.insertNotifications(q, rows, Date.now() + ClaimMs);
          });
          const committed = performance.now();
          this.stages.note('names', prepared - started);
          this.stages.note('journal', committed - prepared);
          this.stages.note('store', 0);
          this.notificationsQueued += rows.length;
          this.queue.deliverNow(rows, committed);
          return;
        }
        const seq = await outbox.append(ss, rows);
        const journaled = performance.now();
        this.stages.note('names', prepared - started);
        this.stages.note('journal', journaled - prepared);
        // Called now, so the lane holds this write before any outcome of these deliveries.
        const stored = this.deps.store.transaction(write, { background: true });
        this.storing = stored.then(
          async () => {
            this.stages.note('store', performance.now() - journaled);
            await outbox.storedUpTo(seq);
          },
          (err) => {
            outbox.storeFailed();
            this.deps.log.error({ err }, 'alerts: could not store notifications (kept in the outbox journal for the next start)');
          },
        );
        this.notificationsQueued += rows.length;
        this.queue.deliverNow(rows, journaled);
      })
      .catch((err) => this.deps.log.error({ err }, 'alerts: could not queue notifications'));
  }

  /**
   * Reads the names of every watched target again, every NamesRefreshMs: an event then finds
   * its names in memory instead of reading them while ingest keeps DuckDB busy (a read took
   * 1.5 s under load in the bench). One statement per thousand targets; nothing without alerts.
   */
  private async refreshNames(): Promise<void> {
    const watched = new Set<number>();
    for (const a of this.alerts.values()) if (a.enabled && a.actions.length) for (const t of a.targets) watched.add(t);
    if (!watched.size) return;
    if (this.targetInfos.size + watched.size > 10_000) this.targetInfos.clear();
    await this.deps.store.read((q) => this.loadTargetInfos(q, watched, true)).catch((err) => this.deps.log.warn({ err }, 'alerts: could not read target names'));
  }

  /** After alerts changed: their new targets' names are read within a second (one read for many changes). */
  private namesSoon(): void {
    if (this.namesSoonTimer || !this.outbox) return;
    this.namesSoonTimer = setTimeout(() => {
      this.namesSoonTimer = undefined;
      void this.refreshNames();
    }, 1000);
    this.namesSoonTimer.unref();
  }

  private namesSoonTimer: NodeJS.Timeout | undefined;

  /** Target names and agents, refreshed every 30 s, used up to 90 s (a flush can fire many alerts of the same targets). */
  private readonly targetInfos = new Map<number, { host: string; agent: string; at: number }>();

  private async targetInfo(q: Queryable, sessionId: number): Promise<{ host: string; agent: string } | undefined> {
    await this.loadTargetInfos(q, [sessionId]);
    return this.targetInfos.get(sessionId);
  }

  /**
   * Reads the names of the targets not cached, in one statement per thousand: under load a
   * statement takes tens of milliseconds, and a flush can fire alerts on a hundred targets.
   */
  private async loadTargetInfos(q: Queryable, sessionIds: Iterable<number>, all = false): Promise<void> {
    const stale = Date.now() - NamesKeptMs;
    const missing = [...new Set(sessionIds)].filter((id) => all || !((this.targetInfos.get(id)?.at ?? 0) > stale));
    for (let i = 0; i < missing.length; i += 1000) {
      const ids = missing.slice(i, i + 1000);
      const rows = await q.all<{ id: number; target_name: string; target_ip: string; description: string; sentinel_id: number; agent: string | null }>(
        `SELECT s.id, s.target_name, s.target_ip, s.description, s.sentinel_id, a.name AS agent FROM sessions s LEFT JOIN agents a ON a.id = s.sentinel_id
         WHERE s.id IN (${ids.map((_, k) => `$${k + 1}`).join(', ')})`,
        ids,
      );
      if (this.targetInfos.size + rows.length > 10_000) this.targetInfos.clear();
      for (const s of rows) {
        this.targetInfos.set(s.id, {
          host: s.description || (s.target_name && s.target_name !== s.target_ip ? `${s.target_name} (${s.target_ip})` : s.target_ip),
          agent: s.sentinel_id === LocalMachineAgentId ? LocalMachineAgentName : (s.agent ?? `agent ${s.sentinel_id}`),
          at: Date.now(),
        });
      }
    }
  }

  /** The addresses of the hops that hop conditions name, in one statement ("session:hop" -> address). */
  private async hopAddresses(q: Queryable, hs: Happening[]): Promise<Map<string, string>> {
    const wanted = hs.filter((h) => h.alert.condition.Hop);
    const out = new Map<string, string>();
    for (let i = 0; i < wanted.length; i += 500) {
      const part = wanted.slice(i, i + 500);
      const rows = await q.all<{ session_id: number; hop: number; address: string }>(
        `SELECT session_id, hop, address FROM hosts WHERE ${part.map((_, k) => `(session_id = $${2 * k + 1} AND hop = $${2 * k + 2})`).join(' OR ')}`,
        part.flatMap((h) => [h.sessionId, h.hop]),
      );
      for (const r of rows) out.set(`${r.session_id}:${r.hop}`, r.address);
    }
    return out;
  }

  private async variables(q: Queryable, h: { alert: repo.AlertRecord; sessionId: number; event: Happening['event']; time: number; figures: WindowFigures; hop: number; flapped?: number }, addresses?: Map<string, string>): Promise<NotificationVariables> {
    const s = await this.targetInfo(q, h.sessionId);
    const host = s?.host ?? (h.sessionId ? `target ${h.sessionId}` : '(no target)');
    // Hop conditions name the hop's address (the target's is in its name).
    const hostAddr = !h.alert.condition.Hop
      ? undefined
      : addresses
        ? { address: addresses.get(`${h.sessionId}:${h.hop}`) ?? '' }
        : await q.one<{ address: string }>('SELECT address FROM hosts WHERE session_id = $1 AND hop = $2', [h.sessionId, h.hop]);
    // Settings > General > Public URL when the variable is not set (server/settings/public-url.ts).
    const base = await publicUrlInForce(q, this.deps.config);
    return {
      alert: h.alert.name,
      event: h.event,
      condition: describeCondition(h.alert.condition),
      host,
      hop: h.alert.condition.Hop === 0 ? `target (hop ${h.hop})` : `${h.hop}${hostAddr?.address ? ` (${hostAddr.address})` : ''}`,
      loss: fmt(h.figures.loss),
      latency: fmt(h.figures.latency, 2),
      jitter: fmt(h.figures.jitter, 2),
      mos: fmt(h.figures.mos, 2),
      time: new Date(h.time).toISOString(),
      agent: s?.agent ?? '',
      link: base ? `${base}/targets/${h.sessionId}` : '',
      flapped: String(h.flapped ?? 0),
    };
  }

  // ---- Operations (REST and the alerts pages) ----

  private toDto(a: repo.AlertRecord, pending: Map<number, number>, answers: Map<number, string>): AlertDto {
    return {
      AlertID: a.id,
      Name: a.name,
      Condition: a.condition,
      ConditionText: describeCondition(a.condition),
      Events: a.events,
      MinRepeatSeconds: a.minRepeatSeconds,
      ForSeconds: a.forSeconds,
      RecoverSeconds: a.recoverSeconds,
      Enabled: a.enabled,
      Targets: a.targets,
      Actions: a.actions.map((x) => ({ ActionID: x.id, Kind: x.kind, Config: x.config })),
      Firing: this.evaluator.firingTargets(a.id),
      Pending: pending.get(a.id) ?? 0,
      LastAnswer: answers.get(a.id) ?? '',
      LastError: a.lastError,
      LastErrorAt: a.lastErrorAt === null ? null : new Date(a.lastErrorAt).toISOString(),
    };
  }

  async listAlerts(p: Principal): Promise<AlertDto[]> {
    requireClaim(p, Claim.AlertsManagement);
    const [alerts, pending, answers] = await this.deps.store.read(
      async (q) => [await repo.loadAlerts(q, p.accountId), await repo.pendingByAlert(q, p.accountId), await repo.lastAnswers(q, p.accountId)] as const,
    );
    return alerts.map((a) => this.toDto(a, pending, answers));
  }

  async getAlert(p: Principal, id: number): Promise<AlertDto> {
    requireClaim(p, Claim.AlertsManagement);
    const [a, pending, answers] = await this.deps.store.read(
      async (q) => [(await repo.loadAlerts(q, p.accountId, id))[0], await repo.pendingByAlert(q, p.accountId), await repo.lastAnswers(q, p.accountId, id)] as const,
    );
    if (!a) throw notFound(`Alert ${id} not found.`);
    return this.toDto(a, pending, answers);
  }

  async notifications(p: Principal, id: number) {
    await this.getAlert(p, id);
    return this.deps.store.read((q) => repo.recentNotifications(q, id));
  }

  private async checkTargets(q: Queryable, accountId: number, targets: number[]): Promise<void> {
    if (targets.length > MaxTargetsPerAlert) throw badRequest(`An alert watches at most ${MaxTargetsPerAlert} targets.`);
    if (!targets.length) return;
    const ids = [...new Set(targets)];
    const found = await q.all<{ id: number }>(`SELECT id FROM sessions WHERE account_id = $1 AND id IN (${ids.map((i) => Number(i)).join(',')})`, [accountId]);
    const missing = ids.filter((i) => !found.some((f) => f.id === i));
    if (missing.length) throw notFound(`Target ${missing[0]} not found.`);
  }

  /** The input with defaults, or a 400 naming the first problem. */
  private checkInput(input: AlertInput): Required<AlertInput> {
    const name = input.Name?.trim();
    if (!name) throw badRequest('An alert needs a name.');
    if (name.length > AlertNameMaxLength) throw badRequest(`An alert name has at most ${AlertNameMaxLength} characters.`);
    const problem = conditionProblem(input.Condition);
    if (problem) throw badRequest(problem);
    // The agent link decides agentOffline: its window fields do not apply.
    const condition = input.Condition.Kind === 'agentOffline' ? { Kind: input.Condition.Kind, Hop: 0, Samples: 1, OfflineSeconds: input.Condition.OfflineSeconds } : input.Condition;
    if (!input.Events?.length || input.Events.some((e) => !AlertEvents.includes(e))) throw badRequest(`Events must list one or more of ${AlertEvents.join(', ')}.`);
    if ((input.Actions?.length ?? 0) > MaxActionsPerAlert) throw badRequest(`An alert has at most ${MaxActionsPerAlert} actions.`);
    for (const a of input.Actions ?? []) checkAction(a.Kind, a.Config);
    const minRepeat = input.MinRepeatSeconds ?? 300;
    if (!Number.isInteger(minRepeat) || minRepeat < 0 || minRepeat > 31 * 86_400) throw badRequest('MinRepeatSeconds must be a whole number of seconds from 0 to 2678400 (31 days).');
    // Refused rather than raised quietly: the saved rule then says what it does (docs/alerts.md "Export quota").
    if (minRepeat < ExportMinRepeatSeconds && (input.Actions ?? []).some((x) => x.Kind === 'export')) {
      throw badRequest(`An alert with an export action repeats at most every ${ExportMinRepeatSeconds} s (each repeat writes a data file): set MinRepeatSeconds to ${ExportMinRepeatSeconds} or more.`);
    }
    const forSeconds = input.ForSeconds ?? DefaultForSeconds;
    const recoverSeconds = input.RecoverSeconds ?? DefaultRecoverSeconds;
    for (const [name, v] of [['ForSeconds', forSeconds], ['RecoverSeconds', recoverSeconds]] as const) {
      if (!Number.isInteger(v) || v < 0 || v > MaxHysteresisSeconds) throw badRequest(`${name} must be a whole number of seconds from 0 to ${MaxHysteresisSeconds} (a day).`);
    }
    return {
      Name: name,
      Condition: condition,
      Events: [...new Set(input.Events)],
      MinRepeatSeconds: minRepeat,
      ForSeconds: forSeconds,
      RecoverSeconds: recoverSeconds,
      Enabled: input.Enabled ?? true,
      Targets: input.Targets ?? [],
      Actions: input.Actions ?? [],
    };
  }

  private async reload(id: number, tell = true): Promise<repo.AlertRecord | undefined> {
    // The other replicas read it again too (they hear it on the leader lease's connection).
    if (tell && this.deps.leadership?.kind === 'postgres') await this.deps.store.run('SELECT pg_notify($1, $2)', [AlertsChannel, String(id)]).catch(() => undefined);
    const [a] = await this.deps.store.read((q) => repo.loadAlerts(q, undefined, id));
    if (a) {
      this.alerts.set(id, a);
      this.evaluator.put(a);
      this.namesSoon();
    } else {
      this.alerts.delete(id);
      this.evaluator.remove(id);
    }
    if (this.presence) {
      await this.presence.learnTargets();
      this.presence.check();
    }
    return a;
  }

  private changed(accountId: number): void {
    // Rows show HasAlert: the grids read their rows again.
    this.deps.events.emit('SessionsChanged', accountId);
  }

  async createAlert(p: Principal, input: AlertInput): Promise<AlertDto> {
    requireClaim(p, Claim.AlertsManagement);
    const a = this.checkInput(input);
    const id = await this.deps.store.transaction(async (q) => {
      if ((await repo.countAlerts(q, p.accountId)) >= MaxAlertsPerAccount) throw conflict(`An account has at most ${MaxAlertsPerAccount} alerts: delete some first.`);
      await this.checkTargets(q, p.accountId, a.Targets);
      return repo.insertAlert(q, p.accountId, p.userId, a);
    });
    await this.reload(id);
    this.changed(p.accountId);
    return this.getAlert(p, id);
  }

  private async requireOwn(q: Queryable, p: Principal, id: number): Promise<void> {
    const row = await q.one('SELECT id FROM alerts WHERE id = $1 AND account_id = $2', [id, p.accountId]);
    if (!row) throw notFound(`Alert ${id} not found.`);
  }

  async updateAlert(p: Principal, id: number, input: AlertInput): Promise<AlertDto> {
    requireClaim(p, Claim.AlertsManagement);
    const a = this.checkInput(input);
    await this.deps.store.transaction(async (q) => {
      await this.requireOwn(q, p, id);
      await this.checkTargets(q, p.accountId, a.Targets);
      await repo.updateAlert(q, id, a);
    });
    await this.reload(id);
    this.changed(p.accountId);
    return this.getAlert(p, id);
  }

  async deleteAlert(p: Principal, id: number): Promise<void> {
    requireClaim(p, Claim.AlertsManagement);
    await this.deps.store.transaction(async (q) => {
      await this.requireOwn(q, p, id);
      await repo.deleteAlert(q, id);
    });
    await this.reload(id);
    this.changed(p.accountId);
  }

  async changeTargets(p: Principal, id: number, targets: number[], add: boolean): Promise<AlertDto> {
    requireClaim(p, Claim.AlertsManagement);
    await this.deps.store.transaction(async (q) => {
      await this.requireOwn(q, p, id);
      if (add) {
        await this.checkTargets(q, p.accountId, targets);
        const n = (await q.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM alert_targets WHERE alert_id = $1', [id]))!.n;
        if (n + targets.length > MaxTargetsPerAlert) throw badRequest(`An alert watches at most ${MaxTargetsPerAlert} targets.`);
      }
      await repo.setTargets(q, id, targets, add);
    });
    await this.reload(id);
    this.changed(p.accountId);
    return this.getAlert(p, id);
  }

  async deleteAction(p: Principal, actionId: number): Promise<AlertDto> {
    requireClaim(p, Claim.AlertsManagement);
    const alertId = await this.deps.store.transaction(async (q) => {
      const row = await q.one<{ alert_id: number }>('SELECT x.alert_id FROM alert_actions x JOIN alerts a ON a.id = x.alert_id WHERE x.id = $1 AND a.account_id = $2', [actionId, p.accountId]);
      if (!row) throw notFound(`Action ${actionId} not found.`);
      await repo.deleteAction(q, row.alert_id, actionId);
      return row.alert_id;
    });
    await this.reload(alertId);
    return this.getAlert(p, alertId);
  }

  /** Send test calls per user in the last minute: each sends mail or calls a URL the user names. */
  private readonly tests = new Map<number, number[]>();

  /** "Send test": runs the action once now, with sample figures, and answers what it got. */
  async testAction(p: Principal, kind: ActionKind, config: ActionConfig, targetId?: number): Promise<ActionTestResult> {
    requireClaim(p, Claim.AlertsManagement);
    checkAction(kind, config);
    const now = Date.now();
    const recent = (this.tests.get(p.userId) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= MaxTestsPerMinute) throw tooManyRequests(`At most ${MaxTestsPerMinute} tests a minute: try again shortly.`, 60);
    recent.push(now);
    this.tests.set(p.userId, recent);
    const sessionId = targetId ?? 0;
    if ((kind === 'comment' || kind === 'summary' || kind === 'export') && !targetId) throw badRequest('Testing this action needs a target (TargetID).');
    if (targetId) await this.deps.store.read((q) => this.checkTargets(q, p.accountId, [targetId]));
    const alert = { id: 0, name: 'Test alert', condition: { Kind: 'loss', Hop: 0, Samples: 10, Lost: 3 } } as repo.AlertRecord;
    const v = await this.deps.store.read((q) => this.variables(q, { alert, sessionId, event: 'start', time: Date.now(), figures: { loss: 30, latency: 12.34, jitter: 1.5, mos: 4.1, samples: 10 }, hop: 0 }));
    try {
      const now2 = Date.now();
      const answer = await runAction(this.actionDeps, kind, config, { accountId: p.accountId, alertId: 0, createdBy: p.userId, sessionId, time: now2, from: now2 - 5 * 60_000, variables: v });
      return { Ok: true, Answer: answer };
    } catch (err) {
      if (err instanceof ActionFailed) return { Ok: false, Answer: err.message };
      throw err;
    }
  }
}

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** A 400 for the first thing wrong with an action's configuration. */
export function checkAction(kind: ActionKind, config: ActionConfig): void {
  if (!ActionKinds.includes(kind)) throw badRequest(`Action Kind must be one of ${ActionKinds.join(', ')}.`);
  const c = (config ?? {}) as Record<string, unknown>;
  const text = (name: string, max: number) => {
    if (c[name] !== undefined && (typeof c[name] !== 'string' || (c[name] as string).length > max)) throw badRequest(`${name} must be text of at most ${max} characters.`);
  };
  switch (kind) {
    case 'email': {
      const to = typeof c.To === 'string' ? c.To.split(',').map((s) => s.trim()).filter(Boolean) : [];
      if (!to.length || to.length > 20 || to.some((a) => !/^[^\s@<>,;]+@[^\s@<>,;]+$/.test(a))) throw badRequest('An e-mail action needs To: one to 20 e-mail addresses separated by commas.');
      text('Subject', 300);
      return;
    }
    case 'webhook': {
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(c.Method as string)) throw badRequest('Webhook Method must be GET, POST, PUT, PATCH or DELETE.');
      let url: URL;
      try {
        url = new URL(String(c.Url));
      } catch {
        throw badRequest('Webhook Url must be an absolute http or https URL.');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('Webhook Url must be an absolute http or https URL.');
      if (String(c.Url).length > 2048) throw badRequest('Webhook Url has at most 2048 characters.');
      if (!WebhookFormats.includes(c.Format as never)) throw badRequest(`Webhook Format must be one of ${WebhookFormats.join(', ')}.`);
      const headers = c.Headers ?? {};
      if (typeof headers !== 'object' || Array.isArray(headers) || Object.keys(headers).length > 30) throw badRequest('Webhook Headers must be an object of at most 30 names and values.');
      for (const [k, val] of Object.entries(headers as Record<string, unknown>)) {
        if (!headerName.test(k) || typeof val !== 'string' || val.length > 4096 || /[\r\n\0]/.test(val)) throw badRequest(`Webhook header "${k.slice(0, 100)}" is not a valid header name and value.`);
      }
      if (c.Template !== undefined && typeof c.Template !== 'string') throw badRequest('Webhook Template must be JSON text.');
      // Blank: the preset's body; a custom webhook has none, so it needs its template (this was a 500, "Unexpected end of JSON input").
      const blank = c.Template === undefined || (c.Template as string).trim() === '';
      if (c.Format === 'custom' && c.Template !== undefined && blank) {
        throw badRequest('Webhook Template is empty: a custom webhook sends its JSON template as the body, e.g. {"text": "$alert $eventWords on $host"}; or choose a preset Format (slack, teams, discord, ntfy, gotify).');
      }
      if (!blank) {
        const problem = templateProblem(c.Template as string);
        if (problem) throw badRequest(problem);
      }
      return;
    }
    case 'comment':
      text('Text', 1000);
      return;
    case 'summary':
      if (!Number.isInteger(c.SummaryID) || (c.SummaryID as number) < 1) throw badRequest('A summary action needs SummaryID.');
      if (c.Mode !== 'add' && c.Mode !== 'remove') throw badRequest('A summary action needs Mode: add or remove.');
      return;
    case 'log':
      text('Text', 1000);
      return;
    case 'export':
      if (c.MaxSamples !== undefined && !(Number.isInteger(c.MaxSamples) && (c.MaxSamples as number) >= 1 && (c.MaxSamples as number) <= 5_000_000)) throw badRequest('An export action\'s MaxSamples must be a whole number from 1 to 5000000.');
      return;
  }
}
