// One running trace: resolves the target, runs one round per interval in the probe pool,
// turns results into TraceRounds (hops with names from the reverse DNS cache) and events.
// A round starts at each interval tick, or right after the previous round when that one
// took longer than the interval: rounds of one trace never overlap.
import { EventEmitter } from 'node:events';
import { EngineError } from '../errors.js';
import { LatencyCode } from '../latency-codes.js';
import type { ResolvedTraceOptions, TraceEvents, TraceHandle, TraceOptions, TraceRound } from '../types.js';
import { allocateFlowId, releaseFlowId } from './flow-ids.js';
import { destinationPort, probeProtocol, resolveTraceOptions } from './options.js';
import { PathState } from './path-state.js';
import { runRoundTask } from './probe-pool.js';
import { resolveTarget, systemResolveName, type NameResolver } from './resolve-target.js';
import { ReverseDnsCache, sharedReverseDns } from './reverse-dns.js';
import { sourceAddressFor } from './source-address.js';

export class TraceSession extends EventEmitter implements TraceHandle {
  readonly options: ResolvedTraceOptions;
  address: string | null = null;
  state: TraceHandle['state'] = 'starting';

  private family: 4 | 6 = 4;
  private source = '';
  private readonly flowId = allocateFlowId();
  private nextSeq = 1;
  private roundIndex = 0;
  private readonly path: PathState;
  private readonly names: ReverseDnsCache | null;
  private readonly resolveName: NameResolver;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private lastRoundStart = 0;

  constructor(input: TraceOptions) {
    super();
    this.options = resolveTraceOptions(input);
    this.resolveName = input.resolveName ?? systemResolveName;
    this.names = !this.options.reverseDns ? null : input.reverseLookup ? new ReverseDnsCache(input.reverseLookup) : sharedReverseDns();
    this.path = new PathState({ firstTtl: this.options.firstTtl, maxTtl: this.options.maxTtl, finalHopOnly: this.options.finalHopOnly });
    // Start on the next tick so that the caller can attach listeners first.
    setImmediate(() => void this.start());
  }

  private async start(): Promise<void> {
    try {
      await this.resolve();
    } catch (err) {
      return this.fail(err);
    }
    if (this.state !== 'starting') return;
    this.state = 'running';
    this.schedule(Date.now());
  }

  private async resolve(): Promise<string> {
    const { address, family } = await resolveTarget(this.options.target, this.options.family, this.resolveName);
    const source = await sourceAddressFor(address, family, this.options.sourceInterface);
    const previous = this.address;
    this.family = family;
    this.source = source;
    if (address !== previous) {
      this.address = address;
      if (previous !== null) this.path.reset();
      this.emit('targetResolved', address, previous);
    }
    return address;
  }

  private schedule(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inFlight = this.runRound().finally(() => { this.inFlight = null; });
    }, Math.max(0, at - Date.now()));
  }

  private async runRound(): Promise<void> {
    if (this.state !== 'running' || this.address === null) return;
    const time = Date.now();
    this.lastRoundStart = time;
    const ttls = this.path.nextTtls();
    const seqStart = this.nextSeq;
    this.nextSeq = ((this.nextSeq - 1 + ttls.length) % 0xfffe) + 1;
    const o = this.options;
    const target = this.address;
    let result;
    try {
      result = await runRoundTask({
        type: 'round',
        family: this.family,
        protocol: probeProtocol(o.packetType),
        destination: target,
        source: this.source,
        sourceInterface: o.sourceInterface,
        flowId: this.flowId,
        destinationPort: destinationPort(o, this.flowId),
        packetSize: o.packetSize,
        dontFragment: !o.allowFragmentation,
        timeoutMs: o.timeoutMs,
        interHopDelayMs: o.interHopDelayMs,
        ttls,
        seqStart,
      });
    } catch (err) {
      return this.fail(err);
    }
    if ((this.state as TraceHandle['state']) === 'stopped' || target !== this.address) return;
    const applied = this.path.applyRound(result.probes, target);
    const round: TraceRound = {
      time,
      index: this.roundIndex++,
      target,
      reachedTarget: applied.reachedTarget,
      hops: applied.hops.map((h) => ({ ...h, name: h.address && this.names ? this.names.nameOf(h.address) : null })),
    };
    for (const change of applied.routeChanges) this.emit('routeChange', { time, ...change });
    this.emit('round', round);
    if (this.state === 'running') this.schedule(time + o.intervalSeconds * 1000);
  }

  private fail(err: unknown): void {
    const error = err instanceof Error ? err : new EngineError('SocketError', String(err));
    void this.stop();
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  private emitMarker(marker: 'stop' | 'start'): void {
    if (this.address === null) return;
    const hops = this.path.nextTtls().length && this.path.pathLength !== null
      ? Array.from({ length: this.path.pathLength - this.options.firstTtl + 1 }, (_, i) => this.options.firstTtl + i)
      : [];
    this.emit('round', {
      time: Date.now(),
      index: this.roundIndex++,
      target: this.address,
      reachedTarget: false,
      marker,
      hops: hops.map((ttl) => {
        const address = this.path.addressAt(ttl);
        return { ttl, address, name: address && this.names ? this.names.nameOf(address) : null, rtt: LatencyCode.StopStart, reply: 'stopStart' };
      }),
    } satisfies TraceRound);
  }

  pause(): void {
    if (this.state !== 'running') return;
    this.state = 'paused';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.emitMarker('stop');
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.emitMarker('start');
    // A round still in flight reschedules itself when it completes.
    if (!this.inFlight) this.schedule(Date.now());
  }

  setInterval(seconds: number): void {
    if (!(seconds > 0 && seconds <= 86400)) throw new EngineError('BadOptions', 'intervalSeconds must be above 0 and at most 86400');
    this.options.intervalSeconds = seconds;
    if (this.timer && this.state === 'running') this.schedule(this.lastRoundStart + seconds * 1000);
  }

  setFinalHopOnly(on: boolean): void {
    this.options.finalHopOnly = on;
    this.path.setFinalHopOnly(on);
  }

  async reResolve(): Promise<string> {
    return this.resolve();
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    const wasActive = this.state === 'running';
    this.state = 'stopped';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (wasActive) this.emitMarker('stop');
    await this.inFlight;
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
