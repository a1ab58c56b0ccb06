// A trace run by another Hopwatch appliance (packet type ptTraceViaRemoteServer), seen here
// as an ordinary TraceHandle: the agent runtime hands its rounds to ingest like the engine's.
// It signs in to the other appliance, starts the target there, and every interval reads the
// samples that arrived since the last read (SamplesReport), grouped by time into rounds:
// the other appliance's rounds mirrored into this one. Pause, resume, interval, final hop
// only and close go to the same target there. The other appliance traces with its own
// first configuration (its engine settings) from its Local Machine.
import { EventEmitter } from 'node:events';
import { isIP } from 'node:net';
import { LatencyCode, resolveTraceOptions } from '../../engine/index.js';
import type { HopReply, ResolvedTraceOptions, TraceHandle, TraceHop, TraceOptions, TraceRound } from '../../engine/index.js';
import { RemoteHopwatch, RemoteServerError, type RemoteSample, type RemoteServerAccess } from './client.js';
import { RemoteServerAccessKey, type WithRemoteServerAccess } from './settings.js';

/** How often the samples are read at most (the trace interval, but not more often than this). */
const MinPollMs = 1000;
/** How long stop() waits for the target there to be closed. */
const StopWaitMs = 2000;

export class RemoteServerTrace extends EventEmitter implements TraceHandle {
  readonly options: ResolvedTraceOptions;
  address: string | null;
  state: TraceHandle['state'] = 'starting';

  private remote!: RemoteHopwatch;
  private remoteId: number | null = null;
  /** Time (ms) of the newest sample mirrored: the next read starts after it. */
  private since: number | null = null;
  private roundIndex = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private remoteFinalHopOnly = false;
  private readonly lastAddress = new Map<number, string>();
  /** Commands to the other appliance, one at a time in order (pause before resume). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(input: TraceOptions, access: RemoteServerAccess) {
    super();
    // Only the target, interval and final hop only apply: the other appliance's configuration does the rest.
    this.options = resolveTraceOptions({ target: input.target, intervalSeconds: input.intervalSeconds, finalHopOnly: input.finalHopOnly });
    this.address = isIP(this.options.target) ? this.options.target : null;
    // Started on the next tick, so that the caller can attach listeners first (a bad address fails there too).
    setImmediate(() => void this.start(access));
  }

  private async start(access: RemoteServerAccess): Promise<void> {
    try {
      if (!access.address || !access.userName || !access.password) {
        throw new RemoteServerError('address', 'The remote server address, user name or password is not set (Settings, the configuration\'s Engine page).');
      }
      this.remote = new RemoteHopwatch(access);
      const id = await this.remote.newTarget(this.options.target, this.options.intervalSeconds);
      if (this.state === 'stopped') {
        await this.remote.close(id).catch(() => undefined);
        return;
      }
      this.remoteId = id;
      // Samples from now on: the target there is new, so everything it has is ours.
      if (this.options.finalHopOnly) await this.syncFinalHopOnly();
      if (this.state === 'paused') await this.remote.pause(id);
      else this.state = 'running';
      this.schedule();
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.state = 'stopped';
    clearTimeout(this.timer);
    const error = err instanceof Error ? err : new RemoteServerError('refused', String(err));
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.state !== 'running') return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => this.schedule());
    }, Math.max(MinPollMs, this.options.intervalSeconds * 1000));
    this.timer.unref?.();
  }

  /** Reads what arrived since the last read and emits it as rounds. A failed read is tried again next time. */
  private async poll(): Promise<void> {
    if (this.remoteId === null || this.state !== 'running') return;
    let samples: RemoteSample[];
    try {
      samples = await this.remote.samples(this.remoteId, this.since === null ? null : this.since + 1);
    } catch (err) {
      // The target there was closed by someone else: this trace cannot go on.
      if (err instanceof RemoteServerError && err.problem === 'refused' && /\(404\)/.test(err.message)) this.fail(err);
      return;
    }
    if (this.state !== 'running') return;
    for (const round of this.rounds(samples)) {
      this.emit('round', round);
    }
  }

  /** Samples grouped by time into rounds, hops in TTL order; the other appliance's own stop/start marks are left out (this trace marks its own). */
  private rounds(samples: RemoteSample[]): TraceRound[] {
    const byTime = new Map<number, RemoteSample[]>();
    for (const s of samples) {
      const t = Date.parse(s.Time);
      if (!Number.isFinite(t)) continue;
      this.since = Math.max(this.since ?? t, t);
      if (s.Status === 'stop/start') continue;
      byTime.set(t, [...(byTime.get(t) ?? []), s]);
    }
    const out: TraceRound[] = [];
    for (const [time, hops] of [...byTime].sort((a, b) => a[0] - b[0])) {
      hops.sort((a, b) => a.Hop - b.Hop);
      const mirrored = hops.map((s, i) => this.hopOf(s, i === hops.length - 1));
      for (const h of mirrored) {
        if (!h.address) continue;
        const previous = this.lastAddress.get(h.ttl);
        if (previous && previous !== h.address) this.emit('routeChange', { time, ttl: h.ttl, previous, current: h.address });
        this.lastAddress.set(h.ttl, h.address);
      }
      const last = mirrored[mirrored.length - 1];
      const reachedTarget = last.reply === 'echoReply';
      if (reachedTarget && last.address && last.address !== this.address) {
        const previous = this.address;
        this.address = last.address;
        this.emit('targetResolved', last.address, previous);
      }
      out.push({ time, index: this.roundIndex++, target: this.address ?? this.options.target, reachedTarget, hops: mirrored });
    }
    return out;
  }

  private hopOf(s: RemoteSample, last: boolean): TraceHop {
    const address = s.IP || null;
    let rtt: number;
    let reply: HopReply;
    if (s.Status === 'ok' && typeof s.LatencyMs === 'number') {
      rtt = s.LatencyMs;
      // The last hop that answered is the target when it is the address traced (or the name's).
      reply = last && (this.address === null || address === this.address) ? 'echoReply' : 'timeExceeded';
    } else if (s.Status === 'not participating') {
      rtt = LatencyCode.NotParticipating;
      reply = 'notParticipating';
    } else {
      rtt = LatencyCode.Timeout;
      reply = 'timeout';
    }
    return { ttl: s.Hop, address: s.Status === 'ok' ? address : null, name: null, rtt, reply };
  }

  private marker(marker: 'stop' | 'start'): void {
    if (!this.lastAddress.size) return;
    const ttls = [...this.lastAddress.keys()].sort((a, b) => a - b);
    const max = ttls[ttls.length - 1];
    const hops: TraceHop[] = Array.from({ length: max }, (_, i) => ({
      ttl: i + 1,
      address: this.lastAddress.get(i + 1) ?? null,
      name: null,
      rtt: LatencyCode.StopStart,
      reply: 'stopStart',
    }));
    this.emit('round', { time: Date.now(), index: this.roundIndex++, target: this.address ?? this.options.target, reachedTarget: false, marker, hops });
  }

  /** Runs a command to the other appliance after the earlier ones; a failure ends the trace with its reason. */
  private command(op: (id: number) => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      if (this.remoteId === null) return;
      try {
        await op(this.remoteId);
      } catch (err) {
        if (this.state !== 'stopped') this.fail(err);
      }
    });
  }

  pause(): void {
    if (this.state !== 'running' && this.state !== 'starting') return;
    const wasRunning = this.state === 'running';
    this.state = 'paused';
    clearTimeout(this.timer);
    if (wasRunning) {
      this.marker('stop');
      this.command((id) => this.remote.pause(id));
    }
  }

  resume(): void {
    if (this.state !== 'paused') return;
    if (this.remoteId === null) {
      // Still starting: start() goes on running.
      this.state = 'starting';
      return;
    }
    this.state = 'running';
    this.marker('start');
    // What the other appliance measured while paused here is not mirrored: read from now on.
    this.since = Math.max(this.since ?? 0, Date.now());
    this.command((id) => this.remote.resume(id));
    this.schedule();
  }

  setInterval(seconds: number): void {
    this.options.intervalSeconds = seconds;
    this.command((id) => this.remote.setInterval(id, Math.round(seconds * 1000)));
    this.schedule();
  }

  setFinalHopOnly(on: boolean): void {
    this.options.finalHopOnly = on;
    this.queue = this.queue.then(() => this.syncFinalHopOnly().catch((err) => this.fail(err)));
  }

  private async syncFinalHopOnly(): Promise<void> {
    if (this.remoteId === null || this.remoteFinalHopOnly === this.options.finalHopOnly) return;
    await this.remote.toggleFinalHop(this.remoteId);
    this.remoteFinalHopOnly = !this.remoteFinalHopOnly;
  }

  /** The other appliance resolves the name; here: the address its rounds reached. */
  async reResolve(): Promise<string> {
    return this.address ?? this.options.target;
  }

  /** Rounds arrive complete from the other appliance: nothing is pending here. */
  async waitingTtls(): Promise<number[]> {
    return [];
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    const wasRunning = this.state === 'running';
    this.state = 'stopped';
    clearTimeout(this.timer);
    if (wasRunning) this.marker('stop');
    // Closing the target there is a courtesy: a server shutting down (or an appliance that no
    // longer answers) does not wait for it longer than StopWaitMs.
    const closeThere = (async () => {
      await this.polling;
      await this.queue;
      if (this.remoteId !== null) await this.remote.close(this.remoteId).catch(() => undefined);
      await this.remote?.signOut();
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closeThere, new Promise((r) => (timer = setTimeout(r, StopWaitMs)))]);
    clearTimeout(timer);
  }
}

/** A StartTrace that runs the traces whose options carry a remote-server access there, the others on `engine`. */
export function startWithRemoteServers(engine: (options: TraceOptions) => TraceHandle): (options: TraceOptions) => TraceHandle {
  return (options) => {
    const access = (options as TraceOptions & WithRemoteServerAccess)[RemoteServerAccessKey];
    return access ? new RemoteServerTrace(options, access) : engine(options);
  };
}
