// The 'serve' side of the trace link: runs every trace's rounds (TraceLoops) on a prober and
// talks to the main thread's probe pool over a MessagePort until that port closes. The probe
// worker serves on the raw sockets; the simulated engine serves in-process on a simulated
// network (engine/sim/sim-engine.ts), so the link and its protocol are the same for both.
import type { MessagePort } from 'node:worker_threads';
import { EngineError } from '../errors.js';
import type { Prober } from './prober.js';
import type { ProbeTaskResult, TraceCommand } from './protocol.js';
import { TraceLoops } from './trace-loops.js';

export function serveTraces(prober: Prober, port: MessagePort): Promise<ProbeTaskResult> {
  return new Promise((resolve) => {
    const loops = new TraceLoops(prober, port);
    port.on('message', (cmd: TraceCommand) => loops.handle(cmd));
    port.once('close', () => {
      loops.closeAll();
      resolve({ ok: true });
    });
  });
}

/** A task's failure as the link reports it (EngineError codes kept; anything else a SocketError). */
export function probeFailure(err: unknown): ProbeTaskResult {
  if (err instanceof EngineError) return { ok: false, code: err.code, message: err.message };
  return { ok: false, code: 'SocketError', message: err instanceof Error ? err.message : String(err) };
}
