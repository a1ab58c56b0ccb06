// Evaluation at ingest (issue 22 item 3): each flush's committed samples of a session go to
// the alerts that watch it, nothing else: no timer per target. Each (alert, target) keeps a
// window of its hop's last N samples; every sample that enters it is one evaluation, and a
// change of the answer is a start or end event. The evaluator is synchronous and keeps no
// I/O: it returns what happened (events and state changes) and the service queues them.
import { isWindowSample, holds, SampleWindow, type WindowFigures } from './conditions.js';
import type { AlertRecord, StateRecord } from './repository.js';
import type { AlertEvent } from '../contract/alerts.js';

export interface CommittedSamples {
  time: ArrayLike<number>;
  hop: ArrayLike<number>;
  latency: ArrayLike<number>;
}

export interface Happening {
  alert: AlertRecord;
  sessionId: number;
  event: AlertEvent;
  /** The time of the sample that decided it (epoch ms). */
  time: number;
  figures: WindowFigures;
  /** The hop the window is on (the target's hop number for hop 0). */
  hop: number;
  /** The start of the condition's window (epoch ms): its oldest sample, or when the agent went away. */
  from: number;
  /** Start/end pairs held back by the minimum repeat since the last message (said in this one). */
  flapped: number;
}

interface Track {
  window: SampleWindow;
  firing: boolean;
  since: number;
  /** The start was notified (a stale start was not, so neither is its end). */
  notifiedStart: boolean;
  /** Last notification time of holds / notHolds (for the minimum repeat time). */
  lastRepeat: number;
  /** The target's hop number (for hop 0 conditions). */
  targetHop: number;
  /** The condition the window was filled for (JSON). */
  condition: string;
  /** Not firing: when the condition began to hold without a break (For counts from here). */
  holdingSince: number | undefined;
  /** Firing: when the condition stopped holding without a break (Recover counts from here). */
  clearSince: number | undefined;
  /** Sample time of the last start sent: a new start waits the minimum repeat from it. */
  lastStartSent: number;
  /** Firing with its start held back by the minimum repeat: sent once that time has passed. */
  startHeld: boolean;
  /** Start/end pairs held back since the last message. */
  flapped: number;
}

/** A route change's data file covers the five minutes before it (it has no sample window). */
export const RouteChangeSpanMs = 5 * 60_000;

export interface EvaluatorOptions {
  /** Samples older than this (ms before now) change the state but notify nothing: backfill. */
  maxStaleMs: number;
  now?: () => number;
}

export class AlertEvaluator {
  private readonly bySession = new Map<number, AlertRecord[]>();
  private readonly tracks = new Map<string, Track>();
  private readonly restored = new Map<string, StateRecord>();
  /** The agentOffline alerts: decided by the agent link and one periodic check, not samples. */
  private readonly agentAlerts = new Map<number, AlertRecord>();
  /** Evaluation cost since start, for the benchmark and /metrics. */
  evaluations = 0;
  busyNs = 0n;

  constructor(private readonly opts: EvaluatorOptions) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** Replaces every alert (at start) with their stored states. */
  load(alerts: AlertRecord[], states: StateRecord[]): void {
    this.bySession.clear();
    this.tracks.clear();
    for (const s of states) this.restored.set(`${s.alertId}:${s.sessionId}`, s);
    for (const a of alerts) this.put(a);
  }

  /**
   * The sessions came to this replica (issue 43, ingest takeover): their tracks start again
   * from the states the store holds (another replica evaluated them meanwhile).
   */
  restore(sessionIds: number[], states: StateRecord[]): void {
    const ids = new Set(sessionIds);
    for (const key of [...this.tracks.keys()]) if (ids.has(Number(key.split(':')[1]))) this.tracks.delete(key);
    for (const [key, r] of [...this.restored]) if (ids.has(r.sessionId)) this.restored.delete(key);
    for (const s of states) if (ids.has(s.sessionId)) this.restored.set(`${s.alertId}:${s.sessionId}`, s);
  }

  /**
   * Adds or replaces one alert. Windows and states of targets it still watches with the same
   * condition carry on (adding a target must not start the others again); the rest start empty.
   */
  put(alert: AlertRecord): void {
    this.unwatch(alert.id);
    const same = JSON.stringify(alert.condition);
    for (const [key, t] of this.tracks) {
      const [a, s] = key.split(':').map(Number);
      if (a === alert.id && (t.condition !== same || !alert.targets.includes(s))) this.tracks.delete(key);
    }
    if (!alert.enabled) return;
    if (alert.condition.Kind === 'agentOffline') this.agentAlerts.set(alert.id, alert);
    for (const s of alert.targets) {
      const list = this.bySession.get(s) ?? [];
      list.push(alert);
      this.bySession.set(s, list);
    }
  }

  remove(alertId: number): void {
    this.unwatch(alertId);
    for (const key of this.tracks.keys()) if (key.startsWith(`${alertId}:`)) this.tracks.delete(key);
    for (const key of this.restored.keys()) if (key.startsWith(`${alertId}:`)) this.restored.delete(key);
  }

  /** Drops the alert from the target index. */
  private unwatch(alertId: number): void {
    this.agentAlerts.delete(alertId);
    for (const [s, list] of this.bySession) {
      const kept = list.filter((a) => a.id !== alertId);
      if (kept.length) this.bySession.set(s, kept);
      else this.bySession.delete(s);
    }
  }

  /** Whether any alert watches the target (HasAlert on its rows). */
  watches(sessionId: number): boolean {
    return this.bySession.has(sessionId);
  }

  /** Targets on which the alert's condition holds now. */
  firingTargets(alertId: number): number[] {
    const out: number[] = [];
    for (const [key, t] of this.tracks) if (t.firing && key.startsWith(`${alertId}:`)) out.push(Number(key.split(':')[1]));
    for (const [key, s] of this.restored) if (s.firing && key.startsWith(`${alertId}:`) && !this.tracks.has(key)) out.push(s.sessionId);
    return out.sort((a, b) => a - b);
  }

  private track(alert: AlertRecord, sessionId: number): Track {
    const key = `${alert.id}:${sessionId}`;
    let t = this.tracks.get(key);
    if (!t) {
      const r = this.restored.get(key);
      this.restored.delete(key);
      t = {
        window: new SampleWindow(alert.condition.Samples || 1),
        firing: r?.firing ?? false,
        since: r?.since ?? 0,
        notifiedStart: r?.notifiedStart ?? false,
        lastRepeat: -Infinity,
        targetHop: 0,
        condition: JSON.stringify(alert.condition),
        holdingSince: undefined,
        clearSince: undefined,
        // A stored start that was sent counts from when it began (a restart must not send another soon after).
        lastStartSent: r?.notifiedStart ? r.since : -Infinity,
        startHeld: false,
        flapped: 0,
      };
      this.tracks.set(key, t);
    }
    return t;
  }

  /**
   * A flush committed these samples of the session. Returns the events to notify and the
   * states that changed (to store).
   */
  committed(sessionId: number, s: CommittedSamples): { happenings: Happening[]; states: StateRecord[] } {
    const alerts = this.bySession.get(sessionId);
    if (!alerts) return { happenings: [], states: [] };
    const started = process.hrtime.bigint();
    const happenings: Happening[] = [];
    const states: StateRecord[] = [];
    const now = this.now();
    let rounds: { time: number; hop: number; latency: number }[] | undefined;
    for (const alert of alerts) {
      const c = alert.condition;
      if (c.Kind === 'routeChanged' || c.Kind === 'agentOffline') continue;
      const t = this.track(alert, sessionId);
      if (c.Hop === 0) {
        // The target is the last hop of each round: samples of a round share its time.
        rounds ??= lastHopOfRounds(s);
        for (const r of rounds) {
          t.targetHop = r.hop;
          if (isWindowSample(r.latency)) this.step(alert, sessionId, t, r.time, r.latency, now, happenings, states);
        }
      } else {
        for (let i = 0; i < s.time.length; i++) {
          if (s.hop[i] !== c.Hop || !isWindowSample(s.latency[i])) continue;
          this.step(alert, sessionId, t, s.time[i], s.latency[i], now, happenings, states);
        }
      }
    }
    this.busyNs += process.hrtime.bigint() - started;
    return { happenings, states };
  }

  /** A hop of a watched target changed its address: routeChanged conditions notify. */
  routeChanged(sessionId: number, hop: number, time: number): Happening[] {
    const out: Happening[] = [];
    for (const alert of this.bySession.get(sessionId) ?? []) {
      if (alert.condition.Kind !== 'routeChanged') continue;
      const t = this.track(alert, sessionId);
      if (alert.events.includes('start') && time - t.lastRepeat >= alert.minRepeatSeconds * 1000) {
        t.lastRepeat = time;
        out.push({ alert, sessionId, event: 'start', time, figures: t.window.figures(), hop, from: t.window.oldestTime() ?? time - RouteChangeSpanMs, flapped: 0 });
      }
    }
    return out;
  }

  /** Whether any agentOffline alert is watching (the periodic check runs only then). */
  get watchesAgents(): boolean {
    return this.agentAlerts.size > 0;
  }

  /** The targets the agentOffline alerts watch (the service looks up their agents). */
  agentWatchedTargets(): number[] {
    const out = new Set<number>();
    for (const a of this.agentAlerts.values()) for (const s of a.targets) out.add(s);
    return [...out];
  }

  /**
   * Decides every agentOffline condition now: it holds on a target whose agent has been away
   * (offlineSince answers when it went, undefined while connected) for more than OfflineSeconds.
   * Called when an agent connects or goes, and by the one periodic check. `only`: the targets
   * of one agent.
   */
  checkAgents(now: number, offlineSince: (sessionId: number) => number | undefined, only?: Set<number>): { happenings: Happening[]; states: StateRecord[] } {
    const started = process.hrtime.bigint();
    const happenings: Happening[] = [];
    const states: StateRecord[] = [];
    for (const alert of this.agentAlerts.values()) {
      for (const sessionId of alert.targets) {
        if (only && !only.has(sessionId)) continue;
        const since = offlineSince(sessionId);
        const t = this.track(alert, sessionId);
        // Once firing it holds until the agent is back (a restart, which restarts the count, must not end it).
        const h = since !== undefined && (t.firing || now - since >= alert.condition.OfflineSeconds! * 1000);
        this.evaluations++;
        this.decide(alert, sessionId, t, h, now, now, since ?? now, happenings, states);
      }
    }
    this.busyNs += process.hrtime.bigint() - started;
    return { happenings, states };
  }

  /** When the next agentOffline condition starts to hold (epoch ms), undefined: none is coming. */
  nextAgentDue(offlineSince: (sessionId: number) => number | undefined): number | undefined {
    let due: number | undefined;
    for (const alert of this.agentAlerts.values()) {
      for (const sessionId of alert.targets) {
        const since = offlineSince(sessionId);
        if (since === undefined || this.tracks.get(`${alert.id}:${sessionId}`)?.firing) continue;
        const at = since + alert.condition.OfflineSeconds! * 1000;
        if (due === undefined || at < due) due = at;
      }
    }
    return due;
  }

  private step(alert: AlertRecord, sessionId: number, t: Track, time: number, latency: number, now: number, out: Happening[], states: StateRecord[]): void {
    t.window.push(latency, time);
    this.evaluations++;
    const h = holds(alert.condition, t.window);
    if (h === undefined) return;
    this.decide(alert, sessionId, t, this.withHysteresis(alert, t, h, time), time, now, t.window.oldestTime() ?? time, out, states);
  }

  /**
   * Whether the alert fires, from whether its condition holds now (Prometheus' `for` and
   * `keep_firing_for`): not firing, it starts once the condition has held ForSeconds without a
   * break (0: at once); firing, it ends once the condition has not held for RecoverSeconds
   * without a break (0: at once). Sample time counts, so a backlog decides as it would have live.
   */
  private withHysteresis(alert: AlertRecord, t: Track, h: boolean, time: number): boolean {
    if (!t.firing) {
      if (!h) {
        t.holdingSince = undefined;
        return false;
      }
      t.holdingSince ??= time;
      return time - t.holdingSince >= alert.forSeconds * 1000;
    }
    if (h) {
      t.clearSince = undefined;
      return true;
    }
    t.clearSince ??= time;
    return time - t.clearSince < alert.recoverSeconds * 1000;
  }

  /**
   * One evaluation's answer (after For/Recover): start or end on a change, holds / notHolds at
   * most once per repeat time. A start within the minimum repeat of the last start sent is held
   * back (so is its end): such pairs are counted and said in the next message ("flapped 3
   * times"); one that is still firing once that time has passed is sent then.
   */
  private decide(alert: AlertRecord, sessionId: number, t: Track, h: boolean, time: number, now: number, from: number, out: Happening[], states: StateRecord[]): void {
    const fresh = time >= now - this.opts.maxStaleMs;
    const hop = alert.condition.Hop || t.targetHop;
    const repeatMs = alert.minRepeatSeconds * 1000;
    const emit = (event: AlertEvent) => {
      if (!alert.events.includes(event)) return;
      out.push({ alert, sessionId, event, time, figures: t.window.figures(), hop, from, flapped: t.flapped });
      t.flapped = 0;
    };
    const sendStart = () => {
      t.notifiedStart = true;
      t.startHeld = false;
      t.lastStartSent = time;
      emit('start');
    };
    if (h && !t.firing) {
      t.firing = true;
      t.since = time;
      t.holdingSince = undefined;
      t.notifiedStart = false;
      t.startHeld = false;
      if (fresh && alert.events.includes('start')) {
        if (time - t.lastStartSent >= repeatMs) sendStart();
        else t.startHeld = true;
      }
      states.push({ alertId: alert.id, sessionId, firing: true, since: time, notifiedStart: t.notifiedStart });
    } else if (!h && t.firing) {
      t.firing = false;
      t.since = time;
      t.clearSince = undefined;
      if (t.notifiedStart) emit('end');
      else if (t.startHeld) t.flapped++;
      t.notifiedStart = false;
      t.startHeld = false;
      states.push({ alertId: alert.id, sessionId, firing: false, since: time, notifiedStart: false });
    } else if (h && t.startHeld && fresh && time - t.lastStartSent >= repeatMs) {
      // Held back by the minimum repeat and still firing: its start now.
      sendStart();
      states.push({ alertId: alert.id, sessionId, firing: true, since: t.since, notifiedStart: true });
    }
    // Each evaluation that holds (or not), at most once per minimum repeat time.
    const event: AlertEvent = h ? 'holds' : 'notHolds';
    if (!fresh || !alert.events.includes(event) || time - t.lastRepeat < repeatMs) return;
    t.lastRepeat = time;
    emit(event);
  }
}

/** For each round (samples sharing a time), the sample of its highest hop, in time order. */
export function lastHopOfRounds(s: CommittedSamples): { time: number; hop: number; latency: number }[] {
  const byTime = new Map<number, { time: number; hop: number; latency: number }>();
  for (let i = 0; i < s.time.length; i++) {
    const r = byTime.get(s.time[i]);
    if (!r || s.hop[i] > r.hop) byTime.set(s.time[i], { time: s.time[i], hop: s.hop[i], latency: s.latency[i] });
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}
