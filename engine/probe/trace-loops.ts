// The rounds of every trace, scheduled inside the probe worker. Why here and not on the main
// thread: a round per Piscina task cost a task message in and out per round, and the main
// thread's dispatching capped the engine near 4,000 rounds/s. Here a round is a timer tick and
// a few sendto() calls; finished rounds go to the main thread together, at most about once
// per DELIVERY_WINDOW_MS, however many traces finished (see deliver()).
import type { MessagePort } from 'node:worker_threads';
import { EngineError, type EngineErrorCode } from '../errors.js';
import { PathState, targetTtlOf } from '../trace/path-state.js';
import { withPathMtu } from './path-mtu.js';
import type { NativeFlow, NativeRound, ProbeClock, Ticker, TimerRef } from './network.js';
import type { Prober, RoundFailed } from './prober.js';
import { probeSeqAt, type ProbeOutcome, type RoundReport, type TraceCommand, type TraceMessage, type TraceSpec } from './protocol.js';

/**
 * Finished rounds reach the main thread at most once per this many ms (see deliver()). Every
 * held millisecond is delay a viewer sees (HostUpdated within 100 ms of a round, issue 20): at
 * 100 ms (until 2026-11-25) 10 targets at 1 s gave HostUpdated p50 150 ms on a quiet machine.
 * At 20 ms, 1,000 traces at 1 s still cost at most about 50 messages a second.
 */
export const DELIVERY_WINDOW_MS = 20;
/**
 * The window when every held round comes from a fast trace (an interval below
 * FAST_INTERVAL_MS): such a trace ends a round in about every 20 ms window, so at 20 ms it cost
 * the main thread a message (a wake-up) per round. Its rounds come in bursts about every
 * 100 ms instead; slower traces keep 20 ms (LiveShare's delay goal concerns 1 s traces). See
 * docs/engine.md (Threads) for the figures and what it costs: after pause() or stop(), the
 * rounds held then still arrive (up to 5 at a 20 ms interval).
 */
export const FAST_DELIVERY_WINDOW_MS = 100;
/**
 * Traces faster than 20 rounds a second are fast. At 50 ms and slower a 20 ms window already
 * holds at most one round, so pause() is followed by at most the round in flight
 * (test/netns/engine-route.test.ts); a 100 ms window would hold two there.
 */
const FAST_INTERVAL_MS = 50;
/**
 * A round whose end is in doubt waits for the next round (PathState.undecided) only at intervals
 * up to this: the wait is about one interval. Slower traces deliver it undecided, as before
 * (a phantom hop past the target until the target answers at its own TTL).
 */
const HOLD_MAX_INTERVAL_MS = 10_000;
/** Held rounds wait at most this long after the window for a round start to carry them. */
const DELIVERY_GRACE_MS = 10;

/**
 * At most this many probes of one trace in flight: probe numbers are 16 bits (1..0xfffe), so
 * rounds that overlap must never reuse a number still waiting. Only a timeout thousands of
 * times the interval reaches it; a tick that would pass it is skipped.
 */
export const MAX_PROBES_IN_FLIGHT = 0x7fff;

/** A round of a trace that started and is not delivered yet. */
export interface LoopRound {
  /** Wall ms when the round started: its samples' time, however late it ends. */
  time: number;
  target: string;
  probeCount: number;
  /** Set when every probe of it is answered or timed out. */
  probes: ProbeOutcome[] | null;
  /** The prober's outcomes as they fill in (a sent probe reads 'timeout' until answered). */
  live: ProbeOutcome[] | null;
  /** Native rounds: the round's serial in its flow's reports. */
  serial?: number;
}

interface Loop {
  id: number;
  /** Replaced, never edited: a round in flight keeps the settings it started with. */
  spec: Readonly<TraceSpec>;
  path: PathState;
  /**
   * 'stopping': stop was asked while a round was in flight; acknowledged when it ends.
   * 'removed': gone (its ticker is closed); a round still in flight ends unheard.
   */
  state: 'running' | 'paused' | 'stopping' | 'removed';
  /** A one-off start: the first round after start, resume or an interval change. */
  timer: TimerRef | null;
  /**
   * The steady cadence: a repeating timer of the clock (raw: the rawsock addon's), armed when a round starts
   * other than by it. It calls the round straight from the loop: no Node timer object or
   * timer list per round. Closed when the trace goes.
   */
  ticker: Ticker;
  tickerArmed: boolean;
  /**
   * Rounds started and not yet delivered, oldest first. A round starts every interval whatever
   * earlier rounds still wait for (a silent hop, a timeout above the interval); each round's
   * probes are matched to it by probe number (prober.ts). Rounds are delivered in the order they
   * started: one that ends before an older one waits for it (at most the timeout).
   */
  rounds: LoopRound[];
  /** Probes of the rounds in flight (see MAX_PROBES_IN_FLIGHT). */
  probesInFlight: number;
  onFailed: RoundFailed;
  lastRoundStart: number;
  /** Wall ms before which no round starts (TraceSpec.notBefore; a resume's moves it). */
  notBefore: number;
  nextSeq: number;
  /**
   * The network runs this trace's rounds itself (the addon: no JavaScript per round); null:
   * the prober runs them. Rounds still come back here, in reports, and go through the same
   * path state and delivery.
   */
  native: NativeFlow | null;
  /** Native: the TTL list the flow has (nextTtls() hands out the same array while the path stays). */
  nativeTtls: readonly number[] | null;
  /** Native: rounds in flight by serial. */
  nativeRounds: Map<number, LoopRound>;
}

export class TraceLoops {
  private readonly loops = new Map<number, Loop>();
  private outbox: RoundReport[] = [];
  /** Wall ms of the last message of rounds to the main thread (a cheap clock; steps are handled). */
  private lastDelivery = -Infinity;
  private flushTimer: TimerRef | null = null;
  private flushAt = 0;
  /** The outbox holds a round of a trace that is not fast (see FAST_DELIVERY_WINDOW_MS). */
  private outboxSlow = false;
  /** Rounds of a native report are being applied: one delivery after them all. */
  private batching = false;
  /** The network's clock: real time, or a simulation's virtual time. */
  private readonly clock: ProbeClock;

  constructor(private readonly prober: Prober, private readonly port: Pick<MessagePort, 'postMessage'>) {
    this.clock = prober.network.clock;
    prober.network.native?.onReports((reports) => this.onNativeReports(reports));
  }

  handle(cmd: TraceCommand): void {
    if (cmd.op === 'start') return this.start(cmd.id, cmd.spec);
    const loop = this.loops.get(cmd.id);
    if (cmd.op === 'waiting') {
      if (loop?.native) this.takeNative(loop, true);
      return this.post({ op: 'waiting', id: cmd.id, req: cmd.req, ttls: loop ? waitingTtls(loop.rounds) : [] });
    }
    if (!loop) {
      // Already gone (failed, or never started): a stop is still answered.
      if (cmd.op === 'stop') this.post({ op: 'stopped', id: cmd.id });
      return;
    }
    switch (cmd.op) {
      case 'retarget': {
        // The way to the new address may have another MTU.
        let spec: TraceSpec;
        try {
          spec = withPathMtu({ ...loop.spec, family: cmd.family, destination: cmd.destination, source: cmd.source }, this.prober.network);
        } catch (err) {
          return this.fail(loop, err);
        }
        if (cmd.destination !== loop.spec.destination) loop.path.reset();
        const probesChange = cmd.family !== loop.spec.family || cmd.destination !== loop.spec.destination || cmd.source !== loop.spec.source;
        loop.spec = spec;
        if (loop.native && probesChange) {
          try {
            loop.native.configure(spec);
          } catch (err) {
            return this.fail(loop, err);
          }
          this.syncTtls(loop);
        }
        return;
      }
      case 'interval': {
        loop.spec = { ...loop.spec, intervalMs: cmd.intervalMs };
        // The new cadence counts from the last round's start (rounds in flight go on).
        if (loop.native) loop.lastRoundStart = loop.native.lastStart();
        this.clearTimer(loop);
        if (loop.state === 'running') this.schedule(loop, loop.lastRoundStart + cmd.intervalMs);
        // A round held for the next one goes now when the new interval is too long to wait for.
        this.settle(loop);
        return;
      }
      case 'finalHopOnly':
        loop.spec = { ...loop.spec, finalHopOnly: cmd.on };
        loop.path.setFinalHopOnly(cmd.on);
        this.syncTtls(loop);
        return;
      case 'pause':
        if (loop.state !== 'running') return;
        loop.state = 'paused';
        this.clearTimer(loop);
        // What the flow ended and holds goes now, not a window later.
        if (loop.native) this.takeNative(loop, false);
        // A round held for the next one (settle()) goes too: no next round starts while paused.
        this.settle(loop);
        if (loop.native) this.flush();
        return;
      case 'resume':
        if (loop.state !== 'paused') return;
        loop.state = 'running';
        // Rounds still in flight from before the pause end on their own.
        if (cmd.notBefore !== undefined) loop.notBefore = cmd.notBefore;
        this.schedule(loop, Math.max(this.clock.wallMs(), loop.notBefore));
        return;
      case 'stop':
        this.clearTimer(loop);
        // Every round the flow started is known here before deciding (its ticker is stopped).
        if (loop.native) this.takeNative(loop, false);
        if (loop.state === 'removed') return;
        if (loop.rounds.length > 0) {
          // Its probes' flow id must stay reserved until its rounds end (late replies). A round
          // that ended and was held (settle()) is dropped now.
          loop.state = 'stopping';
          this.settle(loop);
        } else {
          this.remove(loop);
          this.post({ op: 'stopped', id: loop.id });
        }
        return;
    }
  }

  /** The port closed (engine shutdown): drop every trace. */
  closeAll(): void {
    for (const loop of [...this.loops.values()]) this.remove(loop);
    this.outbox = [];
    this.outboxSlow = false;
    if (this.flushTimer) this.clock.clearTimer(this.flushTimer);
    this.flushTimer = null;
  }

  private start(id: number, requested: TraceSpec): void {
    if (this.loops.has(id)) return;
    let spec: TraceSpec;
    try {
      spec = withPathMtu(requested, this.prober.network);
    } catch (err) {
      const code: EngineErrorCode = err instanceof EngineError ? err.code : 'SocketError';
      return this.post({ op: 'error', id, code, message: err instanceof Error ? err.message : String(err) });
    }
    let ticker: Ticker;
    try {
      ticker = this.clock.ticker(() => this.tick(loop));
    } catch (err) {
      return this.post({ op: 'error', id, code: 'SocketError', message: err instanceof Error ? err.message : String(err) });
    }
    const loop: Loop = {
      id,
      spec,
      path: new PathState({ firstTtl: spec.firstTtl, maxTtl: spec.maxTtl, finalHopOnly: spec.finalHopOnly }),
      state: 'running',
      timer: null,
      ticker,
      tickerArmed: false,
      rounds: [],
      probesInFlight: 0,
      onFailed: (err) => this.fail(loop, err),
      lastRoundStart: 0,
      notBefore: spec.notBefore ?? 0,
      nextSeq: 1,
      native: null,
      nativeTtls: null,
      nativeRounds: new Map(),
    };
    this.loops.set(id, loop);
    const native = this.prober.network.native;
    if (native?.supports(spec)) {
      try {
        loop.native = native.open(id, spec);
      } catch (err) {
        return this.fail(loop, err);
      }
    }
    this.run(loop);
  }

  /** A one-off start at `at`; that round starts the ticker again. */
  private schedule(loop: Loop, at: number): void {
    this.clearTimer(loop);
    loop.timer = this.clock.setTimer(() => {
      loop.timer = null;
      this.run(loop, false);
    }, Math.max(0, at - this.clock.wallMs()));
  }

  private clearTimer(loop: Loop): void {
    if (loop.timer) this.clock.clearTimer(loop.timer);
    loop.native?.stop();
    if (loop.tickerArmed) loop.ticker.stop();
    loop.timer = null;
    loop.tickerArmed = false;
  }

  /** The trace is gone: its timers too (a closed ticker must never be used again). */
  private remove(loop: Loop): void {
    if (loop.state === 'removed') return;
    this.clearTimer(loop);
    loop.ticker.close();
    loop.native?.close();
    loop.state = 'removed';
    this.loops.delete(loop.id);
  }

  /** The cadence: a round every interval, whatever rounds are still in flight. */
  private tick(loop: Loop): void {
    this.run(loop, true);
  }

  private run(loop: Loop, byTicker = false): void {
    if (loop.state !== 'running') return;
    // Not in the millisecond of the session's last marker (a timer may fire a little early).
    if (!byTicker && this.clock.wallMs() < loop.notBefore) return this.schedule(loop, loop.notBefore);
    if (loop.native) {
      if (this.flushTimer && this.windowPassed(this.clock.wallMs())) this.flush();
      this.syncTtls(loop);
      // The flow's own timer runs the rounds from here on (each on the grid of this one).
      const interval = loop.spec.intervalMs;
      loop.native.run(interval, interval < FAST_INTERVAL_MS ? FAST_DELIVERY_WINDOW_MS : DELIVERY_WINDOW_MS);
      return;
    }
    if (!byTicker) {
      loop.ticker.start(loop.spec.intervalMs, loop.spec.intervalMs);
      loop.tickerArmed = true;
    }
    // Held rounds ride on this wake-up when their window has passed (see deliver()).
    if (this.flushTimer && this.windowPassed(this.clock.wallMs())) this.flush();
    const time = this.clock.wallMs();
    loop.lastRoundStart = time;
    const ttls = loop.path.nextTtls();
    // Probe numbers of the rounds in flight must stay unique (MAX_PROBES_IN_FLIGHT).
    if (loop.probesInFlight + ttls.length > MAX_PROBES_IN_FLIGHT) return;
    const seqStart = loop.nextSeq;
    loop.nextSeq = probeSeqAt(seqStart, ttls.length);
    const spec = loop.spec;
    const round: LoopRound = { time, target: spec.destination, probeCount: ttls.length, probes: null, live: null };
    loop.rounds.push(round);
    loop.probesInFlight += ttls.length;
    try {
      // May end the round before it returns (replies already queued): see Prober.sent().
      round.live = this.prober.runRound({ spec, ttls, seqStart }, (probes) => this.ended(loop, round, probes), loop.onFailed);
    } catch (err) {
      this.fail(loop, err);
    }
  }

  private ended(loop: Loop, round: LoopRound, probes: ProbeOutcome[]): void {
    if (loop.state === 'removed') return;
    round.probes = probes;
    loop.probesInFlight -= round.probeCount;
    this.settle(loop);
  }

  /** The TTLs of the flow's next rounds, when the path changed them (native rounds). */
  private syncTtls(loop: Loop): void {
    if (!loop.native) return;
    const ttls = loop.path.nextTtls();
    if (ttls === loop.nativeTtls) return;
    loop.native.ttls(ttls);
    loop.nativeTtls = ttls;
  }

  /** Reports of native flows: rounds that started and rounds that ended, in start order per flow. */
  private onNativeReports(reports: { id: number; rounds: NativeRound[] }[]): void {
    this.batching = true;
    try {
      for (const report of reports) {
        const loop = this.loops.get(report.id);
        if (loop) this.applyNative(loop, report.rounds);
      }
    } finally {
      this.batching = false;
    }
    // The addon already held these rounds for their window (rawsock.c, maybe_deliver): they
    // go now, with whatever else is held.
    this.flush();
  }

  /** The flow's rounds up to now, without waiting for its next report (stop, waiting). */
  private takeNative(loop: Loop, live: boolean): void {
    const rounds = loop.native!.take(live);
    this.batching = true;
    try {
      this.applyNative(loop, rounds);
    } finally {
      this.batching = false;
    }
    if (this.outbox.length > 0) this.deliver();
  }

  private applyNative(loop: Loop, rounds: NativeRound[]): void {
    if (loop.state === 'removed') return;
    for (const r of rounds) {
      let round = loop.nativeRounds.get(r.serial);
      if (!round) {
        round = { time: r.time, target: r.target, probeCount: 0, probes: null, live: null, serial: r.serial };
        loop.rounds.push(round);
        loop.nativeRounds.set(r.serial, round);
      }
      if (r.live) round.live = r.live;
      if (r.outcomes) {
        round.probes = r.outcomes;
        loop.nativeRounds.delete(r.serial);
      }
    }
    this.settle(loop);
  }

  private settle(loop: Loop): void {
    // Deliver, in start order, every round whose probes all have an outcome.
    while (loop.rounds.length > 0 && loop.rounds[0].probes !== null) {
      const head = loop.rounds[0];
      // Stopping: rounds still in flight end unheard; a round of an address the trace no longer
      // probes says nothing about the new path.
      const heard = loop.state !== 'stopping' && head.target === loop.spec.destination;
      // A round whose end is in doubt (the target's probe lost, or a silent last router: see
      // PathState.undecided) waits for a later round to end and say where the target is.
      let hint: number | null = null;
      if (heard && loop.path.undecided(head.probes!, head.target)) {
        const later = laterTargetTtl(loop.rounds, head.target);
        if (later === undefined && loop.state === 'running' && loop.spec.intervalMs <= HOLD_MAX_INTERVAL_MS) break;
        hint = later ?? null;
      }
      const done = loop.rounds.shift()!;
      if (!heard) continue;
      const applied = loop.path.applyRound(done.probes!, done.target, hint);
      this.outbox.push({
        id: loop.id, time: done.time, target: done.target, reachedTarget: applied.reachedTarget, hops: applied.hops,
        routeChanges: applied.routeChanges, pathLength: loop.path.pathLength,
      });
      if (loop.spec.intervalMs >= FAST_INTERVAL_MS) this.outboxSlow = true;
      this.deliver();
    }
    this.syncTtls(loop);
    if (loop.state === 'stopping' && loop.rounds.length === 0) {
      this.remove(loop);
      this.post({ op: 'stopped', id: loop.id });
    }
  }

  private fail(loop: Loop, err: unknown): void {
    const stopping = loop.state === 'stopping';
    if (loop.state === 'removed') return;
    this.remove(loop);
    // A stop asked for while the round was in flight is answered as a stop.
    if (stopping) return this.post({ op: 'stopped', id: loop.id });
    const code: EngineErrorCode = err instanceof EngineError ? err.code : 'SocketError';
    this.post({ op: 'error', id: loop.id, code, message: err instanceof Error ? err.message : String(err) });
  }

  /**
   * Rounds go to the main thread at most about once per DELIVERY_WINDOW_MS: a round that ends
   * when nothing was delivered within the window goes at once. Rounds ending sooner are held
   * and go together with the first round that starts or ends after the window, or by a timer
   * DELIVERY_GRACE_MS after it when no round does (so at intervals below the window the timer
   * adds no wake-up of its own). Every message wakes the main thread, and every held round
   * delays its HostUpdated (the LiveShare goal is 100 ms from the round).
   */
  private deliver(): void {
    if (this.batching) return;
    const now = this.clock.wallMs();
    if (this.windowPassed(now)) return this.flush();
    const at = this.lastDelivery + this.window() + DELIVERY_GRACE_MS;
    // A slow trace's round came in while only fast ones were held: its shorter window counts.
    if (this.flushTimer && this.flushAt <= at) return;
    if (this.flushTimer) this.clock.clearTimer(this.flushTimer);
    this.flushAt = at;
    this.flushTimer = this.clock.setTimer(() => this.flush(), at - now);
  }

  /** The window of the rounds held now: 20 ms, or 100 ms when all come from fast traces. */
  private window(): number {
    return this.outboxSlow ? DELIVERY_WINDOW_MS : FAST_DELIVERY_WINDOW_MS;
  }

  /** The window since the last delivery has passed (or the wall clock stepped back). */
  private windowPassed(now: number): boolean {
    const elapsed = now - this.lastDelivery;
    return elapsed >= this.window() || elapsed < 0;
  }

  private flush(): void {
    if (this.flushTimer) this.clock.clearTimer(this.flushTimer);
    this.flushTimer = null;
    if (this.outbox.length === 0) return;
    const rounds = this.outbox;
    this.outbox = [];
    this.outboxSlow = false;
    this.lastDelivery = this.clock.wallMs();
    this.port.postMessage({ op: 'rounds', rounds } satisfies TraceMessage);
  }

  /** Control messages go after the rounds already finished, in order. */
  private post(msg: TraceMessage): void {
    this.flush();
    this.port.postMessage(msg);
  }
}

/**
 * Where rounds that ended after the first one met the target: the nearest TTL, null when none of
 * them did, undefined when none of them ended yet.
 */
function laterTargetTtl(rounds: readonly LoopRound[], target: string): number | null | undefined {
  let found: number | null | undefined;
  for (let i = 1; i < rounds.length; i++) {
    const r = rounds[i];
    if (r.probes === null || r.target !== target) continue;
    const ttl = targetTtlOf(r.probes, target);
    if (found === undefined || found === null) found = ttl;
    else if (ttl !== null && ttl < found) found = ttl;
  }
  return found;
}

/**
 * The TTLs whose newest probe has neither answered nor timed out (spec 2 latency code Pending):
 * for each TTL the newest round that probed it decides. A round that ended is final for its
 * TTLs (answered, timed out, or beyond the end of the path), even while it waits for an older
 * one to be delivered.
 */
export function waitingTtls(rounds: readonly LoopRound[]): number[] {
  const decided = new Set<number>();
  const waiting: number[] = [];
  for (let i = rounds.length - 1; i >= 0; i--) {
    const r = rounds[i];
    const outcomes = r.probes ?? r.live;
    if (!outcomes) continue;
    for (const o of outcomes) {
      if (decided.has(o.ttl)) continue;
      // Not sent yet (inter-hop delay) is not this TTL's newest probe: an older round decides.
      if (r.probes === null && o.kind === 'notSent') continue;
      decided.add(o.ttl);
      if (r.probes === null && o.kind === 'timeout') waiting.push(o.ttl);
    }
  }
  return waiting.sort((a, b) => a - b);
}
