// The server's one door to the engine, so tests can swap the prober for a simulation. A process
// has one engine (the raw sockets belong to one probe worker per process): buildApp picks it
// (AppOptions.engine, or HOPWATCH_ENGINE) and everything here goes to that one.
import { createSimulatedEngine, loadScenarioPaths, rawEngine, type TraceEngine, type TraceHandle, type TraceOptions } from '../engine/index.js';
import type { Config } from './config.js';

export { EngineError } from '../engine/index.js';
export type { StartTrace } from '../agent/runtime.js';
export type { TraceEngine } from '../engine/index.js';

let current: TraceEngine = rawEngine;

/** Makes `engine` the one the server's traces, probe checks and shutdown use. */
export function useEngine(engine: TraceEngine): void {
  current = engine;
}

export const startTrace = (options: TraceOptions): TraceHandle => current.startTrace(options);
export const checkProbePermission = (): Promise<void> => current.checkProbePermission();
export const shutdownEngine = (): Promise<void> => current.shutdown();

/** The engine the configuration asks for: the raw sockets, or the simulated network in real time. */
export function engineFor(config: Pick<Config, 'engine' | 'simScenarios'>): TraceEngine {
  if (config.engine === 'raw') return rawEngine;
  return createSimulatedEngine({ scenarios: loadScenarioPaths(config.simScenarios), clock: 'real' });
}
