// The trace engine's public API. It knows nothing of the server or the agent runtime.
import { TraceSession } from './trace/trace-session.js';
import type { TraceHandle, TraceOptions } from './types.js';

export type * from './types.js';
export { GenericPacketType } from './types.js';
export { LatencyCode, SpecialLatencyBase, isSpecialLatency, latencyDisplayText } from './latency-codes.js';
export { EngineError, NO_RAW_SOCKET_PERMISSION, type EngineErrorCode } from './errors.js';
export { checkProbePermission, closeProbePool as shutdownEngine } from './trace/probe-pool.js';
export { resolveTraceOptions } from './trace/options.js';
export { minimumPacketSize } from './codec/probe-packet.js';
// The network seam: the raw-socket engine as a value, and the simulated one (docs/engine.md).
export { createInThreadRawEngine, rawEngine, type TraceEngine } from './engine.js';
export { createSimulatedEngine, type SimulatedEngine, type SimulatedEngineOptions } from './sim/sim-engine.js';
export { parseScenario, loadScenarioFile, loadScenarioPaths, type SimScenario, type SimExpectation, type SimExpectedHop } from './sim/scenario.js';

/**
 * Starts a trace. Listen for 'round' (one per interval), 'routeChange', 'targetResolved'
 * and 'error' (the trace stopped, e.g. EngineError 'NoRawSocketPermission'). Options are
 * validated at once: bad options throw EngineError 'BadOptions'.
 */
export function startTrace(options: TraceOptions): TraceHandle {
  return new TraceSession(options);
}
