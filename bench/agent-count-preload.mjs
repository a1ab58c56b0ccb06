// `node --import ./bench/agent-count-preload.mjs dist/agent/cli.js run` with an IPC channel:
// the agent answers 'count' with the probes it made (bench/agent-count.mjs) and its memory.
import { answerCounts, countAgentRounds } from './agent-count.mjs';

answerCounts(countAgentRounds());
