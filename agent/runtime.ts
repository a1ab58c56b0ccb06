// The agent runtime: runs engine traces on behalf of a server and hands their rounds to a
// sink. The server starts one in-process as the built-in "Local Machine" agent (ID -1);
// the remote collector CLI will run the same runtime behind a network link.
import { startTrace } from '../engine/index.js';
import type { RouteChange, TraceHandle, TraceOptions, TraceRound } from '../engine/index.js';

export interface AgentTraceSpec {
  /** The server's id for this trace (the session id). */
  traceId: number;
  target: string;
  intervalMs: number;
  finalHopOnly: boolean;
  /** Engine settings of the trace's configuration (packet type, timeout, sizes...). */
  engine?: Omit<TraceOptions, 'target' | 'intervalSeconds' | 'finalHopOnly'>;
  /** Start paused (a paused session after a server restart). */
  paused?: boolean;
}

/**
 * Where rounds go. `round` resolves once the server has committed the samples (the Local
 * Machine), or returns nothing when it only takes the round over (a remote agent's batch: no
 * promise per round to make and collect).
 */
export interface AgentSink {
  round(traceId: number, round: TraceRound): Promise<void> | void;
  routeChange(traceId: number, change: RouteChange): void;
  targetResolved(traceId: number, address: string): void;
  traceError(traceId: number, error: Error): void;
}

export type StartTrace = (options: TraceOptions) => TraceHandle;

export class AgentRuntime {
  private readonly traces = new Map<number, TraceHandle>();
  /** Per trace id, the end of the starts and stops asked for so far (see run). */
  private readonly turns = new Map<number, Promise<void>>();
  /**
   * Per trace id, the newest round time its traces emitted, kept over a start again (run) so the
   * new trace starts after the stopped one's stop marker, never in its millisecond (TraceOptions.startAfter).
   */
  private readonly lastTimes = new Map<number, number>();

  constructor(
    private readonly sink: AgentSink,
    private readonly start: StartTrace = startTrace,
  ) {}

  has(traceId: number): boolean {
    return this.traces.has(traceId);
  }

  get size(): number {
    return this.traces.size;
  }

  /**
   * Starts a trace; a trace with the same id is stopped first. Starts and stops of one id run one
   * after another: two starts that overlapped (an assignment on a new connection while the old
   * one's was still stopping a trace) both found no trace, both started one, and the first kept
   * sending rounds for the session unstopped, twice the samples.
   */
  run(spec: AgentTraceSpec): Promise<TraceHandle> {
    return this.inTurn(spec.traceId, async () => {
      await this.stopNow(spec.traceId);
      return this.startNow(spec);
    });
  }

  private startNow(spec: AgentTraceSpec): TraceHandle {
    const handle = this.start({
      ...spec.engine,
      target: spec.target,
      intervalSeconds: spec.intervalMs / 1000,
      finalHopOnly: spec.finalHopOnly,
      startAfter: this.lastTimes.get(spec.traceId),
    });
    const id = spec.traceId;
    handle.on('round', (round) => {
      const last = this.lastTimes.get(id);
      if (last === undefined || round.time > last) this.lastTimes.set(id, round.time);
      // A failed commit is reported by the sink itself; the trace goes on.
      try {
        this.sink.round(id, round)?.catch((err: Error) => this.sink.traceError(id, err));
      } catch (err) {
        this.sink.traceError(id, err as Error);
      }
    });
    handle.on('routeChange', (change) => this.sink.routeChange(id, change));
    handle.on('targetResolved', (address) => this.sink.targetResolved(id, address));
    handle.on('error', (err) => {
      this.traces.delete(id);
      this.sink.traceError(id, err);
    });
    this.traces.set(id, handle);
    if (spec.paused) handle.pause();
    return handle;
  }

  pause(traceId: number): void {
    this.traces.get(traceId)?.pause();
  }

  resume(traceId: number): void {
    this.traces.get(traceId)?.resume();
  }

  setInterval(traceId: number, intervalMs: number): void {
    this.traces.get(traceId)?.setInterval(intervalMs / 1000);
  }

  setFinalHopOnly(traceId: number, on: boolean): void {
    this.traces.get(traceId)?.setFinalHopOnly(on);
  }

  /** TTLs whose newest probe is still out (Pending); [] for a trace not running here. */
  async waitingTtls(traceId: number): Promise<number[]> {
    return (await this.traces.get(traceId)?.waitingTtls()) ?? [];
  }

  async reResolve(traceId: number): Promise<string | undefined> {
    return this.traces.get(traceId)?.reResolve();
  }

  stop(traceId: number): Promise<void> {
    return this.inTurn(traceId, async () => {
      await this.stopNow(traceId);
      this.lastTimes.delete(traceId);
    });
  }

  /** Runs `op` after the operations on this trace id already asked for. */
  private inTurn<T>(traceId: number, op: () => Promise<T>): Promise<T> {
    const result = (this.turns.get(traceId) ?? Promise.resolve()).then(op);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(traceId, settled);
    void settled.then(() => {
      if (this.turns.get(traceId) === settled) this.turns.delete(traceId);
    });
    return result;
  }

  private async stopNow(traceId: number): Promise<void> {
    const handle = this.traces.get(traceId);
    if (!handle) return;
    this.traces.delete(traceId);
    await handle.stop();
  }

  async stopAll(): Promise<void> {
    const ids = [...this.traces.keys()];
    await Promise.all(ids.map((id) => this.stop(id)));
  }
}
