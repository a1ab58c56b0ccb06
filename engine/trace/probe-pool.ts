// The trace link: the main thread's side of the rounds. While traces exist, one long-lived
// 'serve' side (engine/probe/serve.ts) holds a MessagePort: trace commands go in, batches of
// finished rounds come out. The link closes when the last trace has stopped, so an idle engine
// keeps no process alive. Where the serve side runs is the RoundsHost's business: the probe
// worker on the raw sockets (below), the calling thread on the raw sockets (the agent:
// engine/probe/in-thread-host.ts), or in-process on a simulated network (engine/sim/).
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { EngineError, type EngineErrorCode } from '../errors.js';
import type { ProbeTask, ProbeTaskResult, RoundReport, TraceCommand, TraceMessage, TraceSpec } from '../probe/protocol.js';

/** A trace session as the link sees it. */
export interface TraceClient {
  onRound(report: RoundReport): void;
  /** The trace cannot go on (the serve side dropped it). */
  onError(error: EngineError): void;
  /** The engine was shut down under a running trace. */
  onShutdown(): void;
}

/** Where the serve side runs. */
export interface RoundsHost {
  /** Serves the traces of `port` until it closes (or the host dies: then it rejects or fails). */
  serve(port: MessagePort): Promise<ProbeTaskResult>;
  /** Opens the receive side once: can this host probe? */
  check(): Promise<ProbeTaskResult>;
  /** Stops the host; a later serve() or check() starts it again. */
  destroy(): Promise<void>;
}

interface Link {
  port: MessagePort;
  clients: Map<number, TraceClient>;
  stopWaiters: Map<number, () => void>;
  /** Questions of traceWaiting() by request number. */
  waitingAsks: Map<number, (ttls: number[]) => void>;
}

export class RoundsLink {
  private link: Link | null = null;
  private nextTraceId = 1;
  private nextWaitingReq = 1;

  constructor(private readonly host: RoundsHost) {}

  private openLink(): Link {
    if (this.link) return this.link;
    const { port1, port2 } = new MessageChannel();
    const l: Link = { port: port1, clients: new Map(), stopWaiters: new Map(), waitingAsks: new Map() };
    this.link = l;
    port1.on('message', (msg: TraceMessage) => this.dispatch(l, msg));
    const lost = (message: string) => {
      if (this.link !== l) return;
      this.link = null;
      port1.close();
      for (const resolve of l.stopWaiters.values()) resolve();
      answerWaiting(l);
      const clients = [...l.clients.values()];
      l.clients.clear();
      for (const c of clients) c.onError(new EngineError('SocketError', message));
    };
    this.host.serve(port2).then(
      (r) => lost(r.ok ? 'The probe worker stopped' : r.message),
      (err) => lost(`The probe worker stopped: ${err instanceof Error ? err.message : String(err)}`),
    );
    return l;
  }

  private dispatch(l: Link, msg: TraceMessage): void {
    if (msg.op === 'rounds') {
      for (const r of msg.rounds) l.clients.get(r.id)?.onRound(r);
    } else if (msg.op === 'waiting') {
      const answer = l.waitingAsks.get(msg.req);
      l.waitingAsks.delete(msg.req);
      answer?.(msg.ttls);
    } else if (msg.op === 'error') {
      const client = l.clients.get(msg.id);
      l.clients.delete(msg.id);
      client?.onError(new EngineError(msg.code, msg.message));
    } else {
      const resolve = l.stopWaiters.get(msg.id);
      l.stopWaiters.delete(msg.id);
      l.clients.delete(msg.id);
      resolve?.();
      this.closeLinkIfIdle(l);
    }
  }

  private closeLinkIfIdle(l: Link): void {
    if (this.link !== l || l.clients.size > 0 || l.stopWaiters.size > 0) return;
    this.link = null;
    l.port.close();
    answerWaiting(l);
  }

  /** Starts running a trace's rounds; returns its id for the calls below. */
  startTraceRounds(spec: TraceSpec, client: TraceClient): number {
    const l = this.openLink();
    const id = this.nextTraceId++;
    l.clients.set(id, client);
    l.port.postMessage({ op: 'start', id, spec } satisfies TraceCommand);
    return id;
  }

  sendTraceCommand(cmd: Exclude<TraceCommand, { op: 'start' | 'stop' }>): void {
    if (this.link?.clients.has(cmd.id)) this.link.port.postMessage(cmd);
  }

  /**
   * The TTLs of a trace whose newest probe has neither answered nor timed out (the Pending
   * code of spec 2), asked of the serve side: rounds it finished before answering come first.
   */
  traceWaiting(id: number): Promise<number[]> {
    const l = this.link;
    if (!l || !l.clients.has(id)) return Promise.resolve([]);
    const req = this.nextWaitingReq++;
    return new Promise<number[]>((resolve) => {
      l.waitingAsks.set(req, resolve);
      l.port.postMessage({ op: 'waiting', id, req } satisfies TraceCommand);
    });
  }

  /** Stops a trace; resolves once none of its rounds is in flight any more. */
  stopTraceRounds(id: number): Promise<void> {
    const l = this.link;
    if (!l || !l.clients.has(id)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      l.stopWaiters.set(id, resolve);
      l.port.postMessage({ op: 'stop', id } satisfies TraceCommand);
    });
  }

  /** Rejects with EngineError (NoRawSocketPermission on the raw sockets without CAP_NET_RAW). */
  async checkProbePermission(): Promise<void> {
    const r = await this.host.check();
    if (!r.ok) throw new EngineError(r.code as EngineErrorCode, r.message);
  }

  /** Stops the host; running traces stop quietly. A later trace starts it again. */
  async close(): Promise<void> {
    const l = this.link;
    this.link = null;
    if (l) {
      l.port.close();
      for (const resolve of l.stopWaiters.values()) resolve();
      answerWaiting(l);
      const clients = [...l.clients.values()];
      l.clients.clear();
      for (const c of clients) c.onShutdown();
    }
    await this.host.destroy();
  }
}

/**
 * The probe worker: Piscina with exactly one thread, which owns the raw sockets (one per
 * process). Atomics are disabled so the worker's event loop keeps serving socket events and
 * the port.
 */
class ProbeWorkerHost implements RoundsHost {
  private pool: Promise<Piscina<ProbeTask, ProbeTaskResult>> | null = null;

  // Piscina is loaded with the first trace: a process that never starts the worker (the
  // agent probes on its own thread) does not pay for the module.
  private probePool(): Promise<Piscina<ProbeTask, ProbeTaskResult>> {
    this.pool ??= import('piscina').then(
      ({ Piscina }) =>
        new Piscina<ProbeTask, ProbeTaskResult>({
          filename: new URL('../probe/worker.js', import.meta.url).href,
          minThreads: 1,
          maxThreads: 1,
          // The serve task plus permission checks.
          concurrentTasksPerWorker: 16,
          idleTimeout: Infinity,
          atomics: 'disabled',
          recordTiming: false,
        }),
    );
    return this.pool;
  }

  async serve(port: MessagePort): Promise<ProbeTaskResult> {
    return (await this.probePool()).run({ type: 'serve', port }, { transferList: [port] });
  }

  async check(): Promise<ProbeTaskResult> {
    return (await this.probePool()).run({ type: 'check' });
  }

  async destroy(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    if (p) await (await p).destroy();
  }
}

/** The link is gone: questions still open are answered with nothing waiting. */
function answerWaiting(l: Link): void {
  for (const answer of l.waitingAsks.values()) answer([]);
  l.waitingAsks.clear();
}

/** The raw-socket link of this process (the probe worker). */
export const rawLink = new RoundsLink(new ProbeWorkerHost());

/** Opens the raw sockets; rejects with EngineError NoRawSocketPermission when CAP_NET_RAW is missing. */
export function checkProbePermission(): Promise<void> {
  return rawLink.checkProbePermission();
}

/** Stops the probe worker (closing its sockets); running traces stop. A later trace starts a new one. */
export function closeProbePool(): Promise<void> {
  return rawLink.close();
}
