// The server's one door to the engine, so tests can swap the prober for a simulation.
export { startTrace, shutdownEngine, checkProbePermission, EngineError } from '../engine/index.js';
export type { StartTrace } from '../agent/runtime.js';
