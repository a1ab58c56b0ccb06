// The probe pool: Piscina with exactly one worker thread, which owns the raw sockets (one per
// process) and schedules the rounds of every trace itself. While traces exist, one long-lived
// 'serve' task holds a MessagePort: trace commands go in, batches of finished rounds come out.
// The link closes when the last trace has stopped, so an idle engine keeps no process alive.
// Atomics are disabled so the worker's event loop keeps serving socket events and the port.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { EngineError, type EngineErrorCode } from '../errors.js';
import type { ProbeTask, ProbeTaskResult, RoundReport, TraceCommand, TraceMessage, TraceSpec } from '../probe/protocol.js';

/** A trace session as the pool sees it. */
export interface TraceClient {
  onRound(report: RoundReport): void;
  /** The trace cannot go on (the worker dropped it). */
  onError(error: EngineError): void;
  /** The engine was shut down under a running trace. */
  onShutdown(): void;
}

interface Link {
  port: MessagePort;
  clients: Map<number, TraceClient>;
  stopWaiters: Map<number, () => void>;
}

let pool: Piscina<ProbeTask, ProbeTaskResult> | null = null;
let link: Link | null = null;
let nextTraceId = 1;

function probePool(): Piscina<ProbeTask, ProbeTaskResult> {
  pool ??= new Piscina<ProbeTask, ProbeTaskResult>({
    filename: new URL('../probe/worker.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    // The serve task plus permission checks.
    concurrentTasksPerWorker: 16,
    idleTimeout: Infinity,
    atomics: 'disabled',
    recordTiming: false,
  });
  return pool;
}

function openLink(): Link {
  if (link) return link;
  const { port1, port2 } = new MessageChannel();
  const l: Link = { port: port1, clients: new Map(), stopWaiters: new Map() };
  link = l;
  port1.on('message', (msg: TraceMessage) => dispatch(l, msg));
  const lost = (message: string) => {
    if (link !== l) return;
    link = null;
    port1.close();
    for (const resolve of l.stopWaiters.values()) resolve();
    const clients = [...l.clients.values()];
    l.clients.clear();
    for (const c of clients) c.onError(new EngineError('SocketError', message));
  };
  probePool()
    .run({ type: 'serve', port: port2 }, { transferList: [port2] })
    .then(
      (r) => lost(r.ok ? 'The probe worker stopped' : r.message),
      (err) => lost(`The probe worker stopped: ${err instanceof Error ? err.message : String(err)}`),
    );
  return l;
}

function dispatch(l: Link, msg: TraceMessage): void {
  if (msg.op === 'rounds') {
    for (const r of msg.rounds) l.clients.get(r.id)?.onRound(r);
  } else if (msg.op === 'error') {
    const client = l.clients.get(msg.id);
    l.clients.delete(msg.id);
    client?.onError(new EngineError(msg.code, msg.message));
  } else {
    const resolve = l.stopWaiters.get(msg.id);
    l.stopWaiters.delete(msg.id);
    l.clients.delete(msg.id);
    resolve?.();
    closeLinkIfIdle(l);
  }
}

function closeLinkIfIdle(l: Link): void {
  if (link !== l || l.clients.size > 0 || l.stopWaiters.size > 0) return;
  link = null;
  l.port.close();
}

/** Starts running a trace's rounds in the probe worker; returns its id for the calls below. */
export function startTraceRounds(spec: TraceSpec, client: TraceClient): number {
  const l = openLink();
  const id = nextTraceId++;
  l.clients.set(id, client);
  l.port.postMessage({ op: 'start', id, spec } satisfies TraceCommand);
  return id;
}

export function sendTraceCommand(cmd: Exclude<TraceCommand, { op: 'start' | 'stop' }>): void {
  if (link?.clients.has(cmd.id)) link.port.postMessage(cmd);
}

/** Stops a trace; resolves once none of its rounds is in flight any more. */
export function stopTraceRounds(id: number): Promise<void> {
  const l = link;
  if (!l || !l.clients.has(id)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    l.stopWaiters.set(id, resolve);
    l.port.postMessage({ op: 'stop', id } satisfies TraceCommand);
  });
}

/** Opens the raw sockets; rejects with EngineError NoRawSocketPermission when CAP_NET_RAW is missing. */
export async function checkProbePermission(): Promise<void> {
  const r = await probePool().run({ type: 'check' });
  if (!r.ok) throw new EngineError(r.code as EngineErrorCode, r.message);
}

/** Stops the probe worker (closing its sockets); running traces stop. A later trace starts a new one. */
export async function closeProbePool(): Promise<void> {
  const l = link;
  link = null;
  if (l) {
    l.port.close();
    for (const resolve of l.stopWaiters.values()) resolve();
    const clients = [...l.clients.values()];
    l.clients.clear();
    for (const c of clients) c.onShutdown();
  }
  const p = pool;
  pool = null;
  if (p) await p.destroy();
}
