// The rounds of every trace, scheduled inside the probe worker. Why here and not on the main
// thread: a round per Piscina task cost a task message in and out per round, and the main
// thread's dispatching capped the engine near 4,000 rounds/s. Here a round is a timer tick and
// a few sendto() calls; finished rounds go to the main thread together, at most about once
// per DELIVERY_WINDOW_MS, however many traces finished (see deliver()).
import type { MessagePort } from 'node:worker_threads';
import { EngineError, type EngineErrorCode } from '../errors.js';
import { PathState } from '../trace/path-state.js';
import { withPathMtu } from './path-mtu.js';
import type { ProbeClock, Ticker, TimerRef } from './network.js';
import type { Prober, RoundFailed } from './prober.js';
import { probeSeqAt, type ProbeOutcome, type RoundReport, type TraceCommand, type TraceMessage, type TraceSpec } from './protocol.js';

/**
 * Finished rounds reach the main thread at most once per this many ms (see deliver()). Every
 * held millisecond is delay a viewer sees (HostUpdated within 100 ms of a round, issue 20): at
 * 100 ms (until 2026-11-25) 10 targets at 1 s gave HostUpdated p50 150 ms on a quiet machine.
 * At 20 ms, 1,000 traces at 1 s still cost at most about 50 messages a second.
 */
export const DELIVERY_WINDOW_MS = 20;
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
  nextSeq: number;
}

export class TraceLoops {
  private readonly loops = new Map<number, Loop>();
  private outbox: RoundReport[] = [];
  /** Wall ms of the last message of rounds to the main thread (a cheap clock; steps are handled). */
  private lastDelivery = -Infinity;
  private flushTimer: TimerRef | null = null;
  /** The network's clock: real time, or a simulation's virtual time. */
  private readonly clock: ProbeClock;

  constructor(private readonly prober: Prober, private readonly port: Pick<MessagePort, 'postMessage'>) {
    this.clock = prober.network.clock;
  }

  handle(cmd: TraceCommand): void {
    if (cmd.op === 'start') return this.start(cmd.id, cmd.spec);
    const loop = this.loops.get(cmd.id);
    if (cmd.op === 'waiting') return this.post({ op: 'waiting', id: cmd.id, req: cmd.req, ttls: loop ? waitingTtls(loop.rounds) : [] });
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
        loop.spec = spec;
        return;
      }
      case 'interval': {
        loop.spec = { ...loop.spec, intervalMs: cmd.intervalMs };
        // The new cadence counts from the last round's start (rounds in flight go on).
        this.clearTimer(loop);
        if (loop.state === 'running') this.schedule(loop, loop.lastRoundStart + cmd.intervalMs);
        return;
      }
      case 'finalHopOnly':
        loop.spec = { ...loop.spec, finalHopOnly: cmd.on };
        loop.path.setFinalHopOnly(cmd.on);
        return;
      case 'pause':
        if (loop.state !== 'running') return;
        loop.state = 'paused';
        this.clearTimer(loop);
        return;
      case 'resume':
        if (loop.state !== 'paused') return;
        loop.state = 'running';
        // Rounds still in flight from before the pause end on their own.
        this.schedule(loop, this.clock.wallMs());
        return;
      case 'stop':
        this.clearTimer(loop);
        if (loop.rounds.length > 0) {
          // Its probes' flow id must stay reserved until its rounds end (late replies).
          loop.state = 'stopping';
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
      nextSeq: 1,
    };
    this.loops.set(id, loop);
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
    if (loop.tickerArmed) loop.ticker.stop();
    loop.timer = null;
    loop.tickerArmed = false;
  }

  /** The trace is gone: its timers too (a closed ticker must never be used again). */
  private remove(loop: Loop): void {
    if (loop.state === 'removed') return;
    this.clearTimer(loop);
    loop.ticker.close();
    loop.state = 'removed';
    this.loops.delete(loop.id);
  }

  /** The cadence: a round every interval, whatever rounds are still in flight. */
  private tick(loop: Loop): void {
    this.run(loop, true);
  }

  private run(loop: Loop, byTicker = false): void {
    if (loop.state !== 'running') return;
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
    // Deliver, in start order, every round whose probes all have an outcome.
    while (loop.rounds.length > 0 && loop.rounds[0].probes !== null) {
      const done = loop.rounds.shift()!;
      // Stopping: rounds still in flight end unheard; a round of an address the trace no longer
      // probes says nothing about the new path.
      if (loop.state === 'stopping' || done.target !== loop.spec.destination) continue;
      const applied = loop.path.applyRound(done.probes!, done.target);
      this.outbox.push({
        id: loop.id, time: done.time, target: done.target, reachedTarget: applied.reachedTarget, hops: applied.hops,
        routeChanges: applied.routeChanges, pathLength: loop.path.pathLength,
      });
      this.deliver();
    }
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
    const now = this.clock.wallMs();
    if (this.windowPassed(now)) return this.flush();
    this.flushTimer ??= this.clock.setTimer(() => this.flush(), this.lastDelivery + DELIVERY_WINDOW_MS - now + DELIVERY_GRACE_MS);
  }

  /** The window since the last delivery has passed (or the wall clock stepped back). */
  private windowPassed(now: number): boolean {
    const elapsed = now - this.lastDelivery;
    return elapsed >= DELIVERY_WINDOW_MS || elapsed < 0;
  }

  private flush(): void {
    if (this.flushTimer) this.clock.clearTimer(this.flushTimer);
    this.flushTimer = null;
    if (this.outbox.length === 0) return;
    const rounds = this.outbox;
    this.outbox = [];
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
