// The rounds of every trace, scheduled inside the probe worker. Why here and not on the main
// thread: a round per Piscina task cost a task message in and out per round, and the main
// thread's dispatching capped the engine near 4,000 rounds/s. Here a round is a timer and a
// few sendto() calls; finished rounds go to the main thread in one message per event-loop
// turn, however many traces finished in it.
import type { MessagePort } from 'node:worker_threads';
import { EngineError, type EngineErrorCode } from '../errors.js';
import { PathState } from '../trace/path-state.js';
import type { Prober } from './prober.js';
import { probeSeqAt, type RoundReport, type RoundResult, type TraceCommand, type TraceMessage, type TraceSpec } from './protocol.js';

interface Loop {
  id: number;
  spec: TraceSpec;
  path: PathState;
  /** 'stopping': stop was asked while a round was in flight; acknowledged when it ends. */
  state: 'running' | 'paused' | 'stopping';
  timer: NodeJS.Timeout | null;
  inFlight: boolean;
  lastRoundStart: number;
  nextSeq: number;
}

export class TraceLoops {
  private readonly loops = new Map<number, Loop>();
  private outbox: RoundReport[] = [];
  private flushQueued = false;

  constructor(private readonly prober: Prober, private readonly port: MessagePort) {}

  handle(cmd: TraceCommand): void {
    if (cmd.op === 'start') return this.start(cmd.id, cmd.spec);
    const loop = this.loops.get(cmd.id);
    if (!loop) {
      // Already gone (failed, or never started): a stop is still answered.
      if (cmd.op === 'stop') this.post({ op: 'stopped', id: cmd.id });
      return;
    }
    switch (cmd.op) {
      case 'retarget':
        if (cmd.destination !== loop.spec.destination) loop.path.reset();
        loop.spec.family = cmd.family;
        loop.spec.destination = cmd.destination;
        loop.spec.source = cmd.source;
        return;
      case 'interval':
        loop.spec.intervalMs = cmd.intervalMs;
        if (loop.timer && loop.state === 'running') this.schedule(loop, loop.lastRoundStart + cmd.intervalMs);
        return;
      case 'finalHopOnly':
        loop.spec.finalHopOnly = cmd.on;
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
        // A round still in flight schedules the next one when it ends.
        if (!loop.inFlight) this.schedule(loop, Date.now());
        return;
      case 'stop':
        this.clearTimer(loop);
        if (loop.inFlight) {
          // Its probes' flow id must stay reserved until the round ends (late replies).
          loop.state = 'stopping';
        } else {
          this.loops.delete(loop.id);
          this.post({ op: 'stopped', id: loop.id });
        }
        return;
    }
  }

  /** The port closed (engine shutdown): drop every trace. */
  closeAll(): void {
    for (const loop of this.loops.values()) this.clearTimer(loop);
    this.loops.clear();
    this.outbox = [];
  }

  private start(id: number, spec: TraceSpec): void {
    if (this.loops.has(id)) return;
    const loop: Loop = {
      id,
      spec,
      path: new PathState({ firstTtl: spec.firstTtl, maxTtl: spec.maxTtl, finalHopOnly: spec.finalHopOnly }),
      state: 'running',
      timer: null,
      inFlight: false,
      lastRoundStart: 0,
      nextSeq: 1,
    };
    this.loops.set(id, loop);
    this.run(loop);
  }

  private schedule(loop: Loop, at: number): void {
    this.clearTimer(loop);
    loop.timer = setTimeout(() => this.run(loop), Math.max(0, at - Date.now()));
  }

  private clearTimer(loop: Loop): void {
    if (loop.timer) clearTimeout(loop.timer);
    loop.timer = null;
  }

  private run(loop: Loop): void {
    loop.timer = null;
    if (loop.state !== 'running') return;
    const time = Date.now();
    loop.lastRoundStart = time;
    const ttls = loop.path.nextTtls();
    const seqStart = loop.nextSeq;
    loop.nextSeq = probeSeqAt(seqStart, ttls.length);
    const spec = loop.spec;
    const target = spec.destination;
    let pending: Promise<RoundResult>;
    try {
      pending = this.prober.runRound({ type: 'round', ...spec, ttls, seqStart });
    } catch (err) {
      return this.fail(loop, err);
    }
    loop.inFlight = true;
    pending.then((result) => this.ended(loop, target, time, result), (err) => this.fail(loop, err));
  }

  private ended(loop: Loop, target: string, time: number, result: RoundResult): void {
    loop.inFlight = false;
    if (loop.state === 'stopping') {
      this.loops.delete(loop.id);
      this.post({ op: 'stopped', id: loop.id });
      return;
    }
    // A round of an address the trace no longer probes says nothing about the new path.
    if (target === loop.spec.destination) {
      const applied = loop.path.applyRound(result.probes, target);
      this.outbox.push({
        id: loop.id, time, target, reachedTarget: applied.reachedTarget, hops: applied.hops,
        routeChanges: applied.routeChanges, pathLength: loop.path.pathLength,
      });
      if (!this.flushQueued) {
        this.flushQueued = true;
        setImmediate(() => this.flush());
      }
    }
    if (loop.state === 'running') this.schedule(loop, time + loop.spec.intervalMs);
  }

  private fail(loop: Loop, err: unknown): void {
    loop.inFlight = false;
    this.clearTimer(loop);
    this.loops.delete(loop.id);
    const code: EngineErrorCode = err instanceof EngineError ? err.code : 'SocketError';
    this.post({ op: 'error', id: loop.id, code, message: err instanceof Error ? err.message : String(err) });
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.outbox.length === 0) return;
    const rounds = this.outbox;
    this.outbox = [];
    this.port.postMessage({ op: 'rounds', rounds } satisfies TraceMessage);
  }

  /** Control messages go after the rounds already finished, in order. */
  private post(msg: TraceMessage): void {
    this.flush();
    this.port.postMessage(msg);
  }
}
