// The agent's engine: the raw sockets on the agent's own thread (no probe worker: the agent's
// main thread has little else to do, and the worker's isolate would cost ~12 MB of RSS), or
// (HOPWATCH_ENGINE=simulated, for tests without root) the simulated network of
// HOPWATCH_SIM_SCENARIOS, as the server chooses its own.
import { createInThreadRawEngine, createSimulatedEngine, loadScenarioPaths, type TraceEngine } from '../engine/index.js';

export function agentEngine(env: NodeJS.ProcessEnv = process.env): TraceEngine {
  if ((env.HOPWATCH_ENGINE ?? 'raw') !== 'simulated') return createInThreadRawEngine();
  const paths = (env.HOPWATCH_SIM_SCENARIOS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return createSimulatedEngine({ scenarios: loadScenarioPaths(paths), clock: 'real' });
}
