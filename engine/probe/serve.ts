// The 'serve' side of the trace link: runs every trace's rounds (TraceLoops) on a prober and
// talks to the main thread's probe pool over a MessagePort until that port closes. The probe
// worker serves on the raw sockets; the simulated engine serves in-process on a simulated
// network (engine/sim/sim-engine.ts), so the link and its protocol are the same for both.
import type { MessagePort } from 'node:worker_threads';
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
