// The raw sockets served on the calling thread instead of the probe worker. For a process whose
// main thread does little besides tracing (the agent: a link and a spool), the worker's own V8
// isolate is ~12 MB of RSS for no gain. Timing does not suffer: send times are taken by the
// addon right before sendto and receive times are the kernel's stamps, so a busy event loop
// delays when a round is reported, not what it measured. The server keeps the worker: its main
// thread runs the console, the hub and DuckDB.
import type { MessagePort } from 'node:worker_threads';
import type { RoundsHost } from '../trace/probe-pool.js';
import { Prober } from './prober.js';
import type { ProbeTaskResult } from './protocol.js';
import { probeFailure, serveTraces } from './serve.js';
import { rawNetwork } from './sockets.js';

export class InThreadRawHost implements RoundsHost {
  /** One prober per link: its sockets are closed when the last trace stops. */
  async serve(port: MessagePort): Promise<ProbeTaskResult> {
    const prober = new Prober(rawNetwork);
    try {
      return await serveTraces(prober, port);
    } catch (err) {
      return probeFailure(err);
    } finally {
      prober.close();
    }
  }

  async check(): Promise<ProbeTaskResult> {
    const prober = new Prober(rawNetwork);
    try {
      prober.open();
      return { ok: true };
    } catch (err) {
      return probeFailure(err);
    } finally {
      prober.close();
    }
  }

  // Closing the link's port ends serve() and closes its sockets.
  async destroy(): Promise<void> {}
}
