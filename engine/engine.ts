// An engine as a value: what the server and the agent runtime need to run traces, so that
// they can be handed the raw sockets (rawEngine, what users run) or a simulated network
// (createSimulatedEngine in engine/sim/sim-engine.ts) without knowing which.
import { checkProbePermission, closeProbePool } from './trace/probe-pool.js';
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
