// Piscina task module of the probe pool: the one thread of the process that owns the raw
// sockets. Two tasks: 'check' (open the sockets: is CAP_NET_RAW there?) and 'serve', the
// long-lived task that runs every trace's rounds (engine/probe/trace-loops.ts) and talks to
// the main thread over the MessagePort it carries, until that port closes.
import { Prober } from './prober.js';
import { rawsock } from './rawsock.js';
import type { ProbeTask, ProbeTaskResult } from './protocol.js';
import { probeFailure, serveTraces } from './serve.js';
import { rawNetwork } from './sockets.js';

/** The probe worker's thread name, so that per-thread tools (top -H, bench:engine) tell it apart. */
export const PROBE_THREAD_NAME = 'hopwatch-probe';

const prober = new Prober(rawNetwork);
try {
  rawsock().setThreadName(PROBE_THREAD_NAME);
} catch {
  // No addon: every task reports that itself.
}

export default async function probeTask(task: ProbeTask): Promise<ProbeTaskResult> {
  try {
    if (task.type === 'serve') return await serveTraces(prober, task.port);
    prober.open();
    return { ok: true };
  } catch (err) {
    return probeFailure(err);
  }
}
