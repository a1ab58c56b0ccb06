// The probe pool: Piscina with exactly one worker thread, which owns the raw sockets (one per
// process) and runs many rounds at once (concurrentTasksPerWorker). Atomics are disabled so
// the worker's event loop keeps serving socket events between tasks.
import { Piscina } from 'piscina';
import { EngineError, type EngineErrorCode } from '../errors.js';
import type { ProbeTask, ProbeTaskResult, RoundResult, RoundTask } from '../probe/protocol.js';

const MAX_CONCURRENT_ROUNDS = 4096;
let pool: Piscina<ProbeTask, ProbeTaskResult> | null = null;

function probePool(): Piscina<ProbeTask, ProbeTaskResult> {
  pool ??= new Piscina<ProbeTask, ProbeTaskResult>({
    filename: new URL('../probe/worker.js', import.meta.url).href,
    minThreads: 1,
    maxThreads: 1,
    concurrentTasksPerWorker: MAX_CONCURRENT_ROUNDS,
    idleTimeout: Infinity,
    atomics: 'disabled',
  });
  return pool;
}

export async function runRoundTask(task: RoundTask): Promise<RoundResult> {
  const r = await probePool().run(task);
  if (!r.ok) throw new EngineError(r.code as EngineErrorCode, r.message);
  return r as RoundResult;
}

/** Opens the raw sockets; rejects with EngineError NoRawSocketPermission when CAP_NET_RAW is missing. */
export async function checkProbePermission(): Promise<void> {
  const r = await probePool().run({ type: 'check' });
  if (!r.ok) throw new EngineError(r.code as EngineErrorCode, r.message);
}

/** Stops the probe worker (closing its sockets). A later trace starts a new one. */
export async function closeProbePool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await p.destroy();
}
