// An engine as a value: what the server and the agent runtime need to run traces, so that
// they can be handed the raw sockets (rawEngine, what users run) or a simulated network
// (createSimulatedEngine in engine/sim/sim-engine.ts) without knowing which.
import { InThreadRawHost } from './probe/in-thread-host.js';
import { RoundsLink, checkProbePermission, closeProbePool } from './trace/probe-pool.js';
import { sourceAddressFor } from './trace/source-address.js';
import type { TraceBackend } from './trace/trace-backend.js';
import { TraceSession } from './trace/trace-session.js';
import type { TraceHandle, TraceOptions } from './types.js';

export interface TraceEngine {
  readonly kind: 'raw' | 'simulated';
  /** See startTrace in engine/index.ts. */
  startTrace(options: TraceOptions): TraceHandle;
  /** Rejects with EngineError NoRawSocketPermission when the engine cannot probe. */
  checkProbePermission(): Promise<void>;
  /** Stops running traces quietly and releases the sockets (or the simulation). */
  shutdown(): Promise<void>;
}

export const rawEngine: TraceEngine = {
  kind: 'raw',
  startTrace: (options) => new TraceSession(options),
  checkProbePermission,
  shutdown: closeProbePool,
};

/**
 * The raw sockets on the calling thread, without the probe worker (engine/probe/in-thread-host.ts):
 * for a process that does little besides tracing, the agent. One such engine per process.
 */
export function createInThreadRawEngine(): TraceEngine {
  const link = new RoundsLink(new InThreadRawHost());
  const backend: TraceBackend = { link, sourceAddressFor, wallMs: () => Date.now() };
  return {
    kind: 'raw',
    startTrace: (options) => new TraceSession(options, backend),
    checkProbePermission: () => link.checkProbePermission(),
    shutdown: () => link.close(),
  };
}
