// The agent's engine: the raw sockets on the agent's own thread (no probe worker: the agent's
// main thread has little else to do, and the worker's isolate would cost ~12 MB of RSS), or
// (HOPWATCH_ENGINE=simulated, for tests without root) the simulated network of
// HOPWATCH_SIM_SCENARIOS, as the server chooses its own.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInThreadRawEngine, createSimulatedEngine, loadScenarioFile, type SimScenario, type TraceEngine } from '../engine/index.js';

const LOOPBACK: SimScenario = { name: 'loopback', hops: [], target: { v4: '127.0.0.1', v6: '::1', rttMs: 0.05 } };

export function agentEngine(env: NodeJS.ProcessEnv = process.env): TraceEngine {
  if ((env.HOPWATCH_ENGINE ?? 'raw') !== 'simulated') return createInThreadRawEngine();
  const paths = (env.HOPWATCH_SIM_SCENARIOS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const files = paths.flatMap((p) =>
    statSync(p).isDirectory() ? readdirSync(p).filter((f) => /\.(ya?ml|json)$/.test(f)).sort().map((f) => join(p, f)) : [p]);
  return createSimulatedEngine({ scenarios: files.length ? files.map(loadScenarioFile) : [LOOPBACK], clock: 'real' });
}
