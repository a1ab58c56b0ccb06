// A child of bench/agents.mjs: runs its share of the remote agents (the real AgentProgram:
// spool, link, acknowledgements; rounds from bench/synthetic-engine.mjs, or with BENCH_STREAM_ENGINE=simulated
// from one simulated engine per process) so that
// the 200-agent figure measures the server, not one bench event loop. Driven over IPC:
//   parent -> {t:'start', creds, work, scenario, engine}  child -> {t:'started', ms}
//   parent -> {t:'measure'}                        (resets the counters and the loop monitor)
//   parent -> {t:'report'}                         child -> {t:'report', loop, rounds, probes}
//   parent -> {t:'links'}                          child -> {t:'links', links: [{agentId, connectedAt}]}
//                                                  (when each agent's link last opened, for failover times)
//   parent -> {t:'stop'}                           (stops the programs and exits)
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createSimulatedEngine } from '../dist/engine/index.js';
import { createSyntheticEngine } from './synthetic-engine.mjs';
import { AgentProgram } from '../dist/agent/program.js';
import { AgentState } from '../dist/agent/state.js';
import { countAgentRounds } from './agent-count.mjs';

const counts = countAgentRounds();
const programs = [];
let loop;
/** agentId -> when its link last opened (the program's 'connected to' line). */
const connectedAt = new Map();

process.on('message', async (m) => {
  if (m.t === 'start') {
    const t0 = performance.now();
    const engine = m.engine === 'simulated' ? createSimulatedEngine({ scenarios: [m.scenario], clock: 'real' }) : createSyntheticEngine(m.scenario);
    for (const creds of m.creds) {
      connectedAt.set(creds.agentId, 0);
      const log = (line) => {
        if (line.startsWith('connected to')) connectedAt.set(creds.agentId, Date.now());
      };
      const p = new AgentProgram(creds, { state: new AgentState(join(m.work, `agent-${creds.agentId}`)), engine, mode: 2, log });
      programs.push(p);
      await p.start();
    }
    process.send({ t: 'started', ms: performance.now() - t0 });
  } else if (m.t === 'measure') {
    loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    counts.reset();
  } else if (m.t === 'report') {
    loop?.disable();
    const ms = (ns) => ns / 1e6;
    process.send({
      t: 'report',
      loop: loop ? { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) } : null,
      rounds: counts.rounds,
      probes: counts.probes,
    });
  } else if (m.t === 'links') {
    process.send({ t: 'links', links: [...connectedAt].map(([agentId, at]) => ({ agentId, connectedAt: at })) });
  } else if (m.t === 'stop') {
    await Promise.allSettled(programs.map((p) => p.stop()));
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
