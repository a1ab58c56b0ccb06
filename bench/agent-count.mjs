// Counts, on the agent's side, the rounds and probes (hop samples) the engine hands to the
// agent program: AgentProgram's round handler is wrapped (one counter increment per round).
// Used by bench/agents-child.mjs, and preloaded into `dist/agent/cli.js run` by
// bench/agent-count-preload.mjs, so that CPU per 1,000 probes is set against probes the agent
// made, not against what the server had committed by then (which lags).
import { writeHeapSnapshot } from 'node:v8';
import { AgentProgram } from '../dist/agent/program.js';
import { memory } from './memory.mjs';

export function countAgentRounds() {
  const counts = {
    rounds: 0,
    probes: 0,
    reset() {
      counts.rounds = 0;
      counts.probes = 0;
    },
  };
  const proto = AgentProgram.prototype;
  const original = proto.onRound;
  if (typeof original !== 'function') throw new Error('AgentProgram has no onRound: bench/agent-count.mjs needs updating');
  proto.onRound = function (traceId, round) {
    counts.rounds++;
    counts.probes += round.hops.length;
    return original.call(this, traceId, round);
  };
  return counts;
}

/** Answers the parent's 'count' messages with the counts and this process's memory. */
export function answerCounts(counts) {
  process.on('message', (m) => {
    if (m === 'count') process.send({ rounds: counts.rounds, probes: counts.probes, memory: memory() });
    // Diagnosis (BENCH_HEAP_SNAPSHOT): a heap snapshot of the agent, written where asked.
    if (m?.t === 'heapSnapshot') process.send({ file: writeHeapSnapshot(m.file) });
  });
}

