// One running trace: resolves the target, has the probe worker run its rounds (one per
// interval; the worker schedules them: engine/probe/trace-loops.ts), and turns the reported
// rounds into TraceRounds (hop names from the reverse DNS cache) and events. A round starts
// at each interval tick whatever earlier rounds still wait for: rounds of one trace overlap
// when the timeout is longer than the interval, and arrive in start order (issue 16).
import { EventEmitter } from 'node:events';
import { EngineError } from '../errors.js';
import { LatencyCode } from '../latency-codes.js';
import type { RoundReport, TraceSpec } from '../probe/protocol.js';
import type { ResolvedTraceOptions, TraceEvents, TraceHandle, TraceHop, TraceOptions, TraceRound } from '../types.js';
import { allocateFlowId, releaseFlowId } from './flow-ids.js';
import { destinationPort, probeProtocol, resolveTraceOptions } from './options.js';
import type { TraceClient } from './probe-pool.js';
import { resolveTarget, systemResolveName, type NameResolver } from './resolve-target.js';
import { ReverseDnsCache, sharedReverseDns } from './reverse-dns.js';
import { sharedHopOwners, type HopOwnerDatabase } from './hop-owners.js';
import { rawBackend, type TraceBackend } from './trace-backend.js';

/**
 * A newest time further than this ahead of the wall clock means the clock stepped back (an
 * agent without a battery clock set by NTP late): markers and rounds then go by the clock, as
 * if nothing was emitted yet, rather than waiting for it to catch up.
 */
const CLOCK_STEP_MS = 1000;

export class TraceSession extends EventEmitter implements TraceHandle, TraceClient {
  readonly options: ResolvedTraceOptions;
  address: string | null = null;
  state: TraceHandle['state'] = 'starting';

  private family: 4 | 6 = 4;
  private source = '';
  private readonly flowId = allocateFlowId();
  private roundIndex = 0;
  /** The worker's trace id, once its rounds run. */
  private roundsId: number | null = null;
  /** What the rounds showed of the path, for the stop/start marker rounds. */
  private pathLength: number | null = null;
  private readonly lastAddress = new Map<number, string>();
  /**
   * The newest time emitted (or options.startAfter). Markers are placed after it, so no two of
   * the trace's rounds share a millisecond: the server takes a round in the millisecond of one
   * it has as that round again (a resent batch), and dropped a marker or the round beside it.
   */
  private lastTime: number;
  private readonly names: ReverseDnsCache | null;
  private readonly owners: HopOwnerDatabase | null;
  private readonly resolveName: NameResolver;

  /** backend: the raw sockets, or a simulated network (engine/sim/sim-engine.ts). */
  constructor(input: TraceOptions, private readonly backend: TraceBackend = rawBackend) {
    super();
    this.options = resolveTraceOptions(input);
    this.resolveName = input.resolveName ?? systemResolveName;
    this.lastTime = input.startAfter ?? -Infinity;
    this.owners = this.options.hopOwners ? sharedHopOwners() : null;
    this.names = !this.options.reverseDns ? null : input.reverseLookup ? new ReverseDnsCache(input.reverseLookup) : sharedReverseDns();
    // Start on the next tick so that the caller can attach listeners first.
    setImmediate(() => void this.start());
  }

  private async start(): Promise<void> {
    try {
      await this.resolve();
    } catch (err) {
      return this.fail(err);
    }
    // Paused (or stopped) while the target was resolving: rounds begin at resume().
    if (this.state === 'stopped' || this.state === 'paused' || this.address === null) return;
    this.state = 'running';
    this.beginRounds();
  }

  /** Hands the trace to the probe worker, which runs its rounds from now on. */
  private beginRounds(): void {
    if (this.address === null || this.roundsId !== null) return;
    const o = this.options;
    const spec: TraceSpec = {
      family: this.family,
      protocol: probeProtocol(o.packetType),
      destination: this.address,
      source: this.source,
      sourceInterface: o.sourceInterface,
      flowId: this.flowId,
      destinationPort: destinationPort(o, this.flowId),
      packetSize: o.packetSize,
      dontFragment: !o.allowFragmentation,
      timeoutMs: o.timeoutMs,
      interHopDelayMs: o.interHopDelayMs,
      intervalMs: o.intervalSeconds * 1000,
      firstTtl: o.firstTtl,
      maxTtl: o.maxTtl,
      finalHopOnly: o.finalHopOnly,
      dscp: o.dscp,
      ...this.notBefore(),
    };
    this.roundsId = this.backend.link.startTraceRounds(spec, this);
  }

  private async resolve(): Promise<string> {
    const { address, family } = await resolveTarget(this.options.target, this.options.family, this.resolveName);
    const source = await this.backend.sourceAddressFor(address, family, this.options.sourceInterface);
    const previous = this.address;
    this.family = family;
    this.source = source;
    if (this.roundsId !== null) this.backend.link.sendTraceCommand({ op: 'retarget', id: this.roundsId, family, destination: address, source });
    if (address !== previous) {
      this.address = address;
      if (previous !== null) {
        this.pathLength = null;
        this.lastAddress.clear();
      }
      this.emit('targetResolved', address, previous);
    }
    return address;
  }

  /** A round the worker finished (TraceClient). */
  onRound(report: RoundReport): void {
    if (this.state === 'stopped' || report.target !== this.address) return;
    this.pathLength = report.pathLength;
    for (const h of report.hops) if (h.address !== null) this.lastAddress.set(h.ttl, h.address);
    const round: TraceRound = {
      time: report.time,
      index: this.roundIndex++,
      target: report.target,
      reachedTarget: report.reachedTarget,
      hops: report.hops.map((h) => {
        const hop: TraceHop = { ...h, name: h.address && this.names ? this.names.nameOf(h.address) : null };
        const owner = h.address && this.owners ? this.owners.lookup(h.address) : null;
        if (owner) hop.owner = owner;
        return hop;
      }),
    };
    for (const change of report.routeChanges) this.emit('routeChange', { time: report.time, ...change });
    if (report.time > this.lastTime) this.lastTime = report.time;
    this.emit('round', round);
  }

  /** The worker dropped the trace (TraceClient). */
  onError(error: EngineError): void {
    this.roundsId = null;
    this.fail(error);
  }

  /** shutdownEngine() under a running trace (TraceClient): it just stops. */
  onShutdown(): void {
    this.roundsId = null;
    this.state = 'stopped';
    releaseFlowId(this.flowId);
  }

  private fail(err: unknown): void {
    const error = err instanceof Error ? err : new EngineError('SocketError', String(err));
    void this.stop();
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  /**
   * A stop marker goes a millisecond after now, after every round started so far (one started
   * this millisecond may still be in flight); a start marker now, and the rounds the resume
   * starts after it (notBefore). Both after the newest time emitted.
   */
  private emitMarker(marker: 'stop' | 'start'): void {
    if (this.address === null) return;
    const now = this.backend.wallMs();
    this.lastTime = Math.max(marker === 'stop' ? now + 1 : now, this.newest(now) + 1);
    const hops = this.pathLength !== null
      ? Array.from({ length: this.pathLength - this.options.firstTtl + 1 }, (_, i) => this.options.firstTtl + i)
      : [];
    this.emit('round', {
      time: this.lastTime,
      index: this.roundIndex++,
      target: this.address,
      reachedTarget: false,
      marker,
      hops: hops.map((ttl) => {
        const address = this.lastAddress.get(ttl) ?? null;
        return { ttl, address, name: address && this.names ? this.names.nameOf(address) : null, rtt: LatencyCode.StopStart, reply: 'stopStart' };
      }),
    } satisfies TraceRound);
  }

  /** The worker's notBefore: no round in the millisecond of the newest time emitted. */
  private notBefore(): { notBefore?: number } {
    const newest = this.newest(this.backend.wallMs());
    return Number.isFinite(newest) ? { notBefore: newest + 1 } : {};
  }

  /** The newest time emitted, or -Infinity when the wall clock stepped back under it (CLOCK_STEP_MS). */
  private newest(now: number): number {
    return this.lastTime - now > CLOCK_STEP_MS ? -Infinity : this.lastTime;
  }

  pause(): void {
    if (this.state !== 'running' && this.state !== 'starting') return;
    this.state = 'paused';
    if (this.roundsId !== null) this.backend.link.sendTraceCommand({ op: 'pause', id: this.roundsId });
    this.emitMarker('stop');
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.emitMarker('start');
    if (this.roundsId !== null) this.backend.link.sendTraceCommand({ op: 'resume', id: this.roundsId, ...this.notBefore() });
    // Paused before the rounds began: begin them now (or start() will, once resolved).
    else this.beginRounds();
  }

  setInterval(seconds: number): void {
    if (!(seconds > 0 && seconds <= 86400)) throw new EngineError('BadOptions', 'intervalSeconds must be above 0 and at most 86400');
    this.options.intervalSeconds = seconds;
    if (this.roundsId !== null) this.backend.link.sendTraceCommand({ op: 'interval', id: this.roundsId, intervalMs: seconds * 1000 });
  }

  setFinalHopOnly(on: boolean): void {
    this.options.finalHopOnly = on;
    if (this.roundsId !== null) this.backend.link.sendTraceCommand({ op: 'finalHopOnly', id: this.roundsId, on });
  }

  async waitingTtls(): Promise<number[]> {
    const id = this.roundsId;
    if (id === null || this.state === 'stopped') return [];
    return this.backend.link.traceWaiting(id);
  }

  async reResolve(): Promise<string> {
    return this.resolve();
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    const wasActive = this.state === 'running';
    this.state = 'stopped';
    if (wasActive) this.emitMarker('stop');
    const id = this.roundsId;
    this.roundsId = null;
    // The flow id stays reserved until no round of this trace is in flight.
    if (id !== null) await this.backend.link.stopTraceRounds(id);
    releaseFlowId(this.flowId);
  }

  override on<E extends keyof TraceEvents>(event: E, listener: TraceEvents[E]): this {
    return super.on(event, listener);
  }
  override off<E extends keyof TraceEvents>(event: E, listener: TraceEvents[E]): this {
    return super.off(event, listener);
  }
  override once<E extends keyof TraceEvents>(event: E, listener: TraceEvents[E]): this {
    return super.once(event, listener);
  }
}
