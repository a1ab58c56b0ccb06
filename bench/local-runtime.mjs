// A child of bench/agents.mjs: the Local Machine's share of tracing, alone in a process: the
// same AgentRuntime and engine as the server's Local Machine (argv[5]: simulated, the scenario
// file in argv[2], or raw: the server's raw engine, probing in its worker thread) running
// argv[3] targets to argv[4] at 1 s with a sink that only counts hop samples. It answers the parent's 'count'
// (IPC) with the probes so far and its memory, so the parent can set its CPU time against the
// remote agent process's for the same work.
import { AgentRuntime } from '../dist/agent/runtime.js';
import { agentEngine } from '../dist/agent/engine-choice.js';
import { rawEngine } from '../dist/engine/index.js';
import { memory } from './memory.mjs';

const [, , scenarioFile, count, target, engineKind = 'simulated'] = process.argv;
process.env.HOPWATCH_ENGINE = engineKind;
process.env.HOPWATCH_SIM_SCENARIOS = scenarioFile;
// The agent probes on its own thread; the server's Local Machine in the probe worker.
const engine = engineKind === 'raw' ? rawEngine : agentEngine();
let rounds = 0;
let probes = 0;
const runtime = new AgentRuntime(
  {
    round: async (_id, r) => {
      rounds++;
      probes += r.hops.length;
    },
    routeChange: () => undefined,
    targetResolved: () => undefined,
    traceError: (_id, e) => console.error(e.message),
  },
  (o) => engine.startTrace(o),
);
for (let i = 0; i < Number(count); i++) await runtime.run({ traceId: i + 1, target, intervalMs: 1000 });
process.on('message', (m) => {
  if (m === 'count') process.send({ rounds, probes, memory: memory() });
});
process.on('SIGTERM', () => void runtime.stopAll().finally(() => process.exit(0)));
