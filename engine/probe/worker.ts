// Piscina task module of the probe pool: the one thread of the process that owns the raw sockets
// and owns the raw sockets. Each task is one trace round (or a permission check); many run
// concurrently in this thread.
import { EngineError } from '../errors.js';
import { Prober } from './prober.js';
import type { ProbeTask, ProbeTaskResult } from './protocol.js';

const prober = new Prober();

export default async function probeTask(task: ProbeTask): Promise<ProbeTaskResult> {
  try {
    if (task.type === 'check') {
      prober.open();
      return { ok: true };
    }
    return await prober.runRound(task);
  } catch (err) {
    if (err instanceof EngineError) return { ok: false, code: err.code, message: err.message };
    return { ok: false, code: 'SocketError', message: err instanceof Error ? err.message : String(err) };
  }
}
