// Issue 16 follow-up: rounds that overlap must not run past the target. engine-loss (netns)
// at a 10 ms interval with a 400 ms timeout saw rounds started over 1 s after the start report
// a hop past the target. Cause: ~40 rounds are in flight at once, all started before the first
// one (waiting 400 ms for the silent hop) taught the trace the path length, so they probe up
// to maxTtl. When one of them lost its probe at the target's TTL (5) and the next TTL reached
// the target, the path length was set to 6; rounds started then probed 6 again, and each
// one delivered with the same pattern set it back to 6: the wrong length fed itself for a while.
// The known length now stays when the probe at that TTL was lost (not answered by a router):
// a later TTL reaching the target says that probe was lost, not that the path grew.
import { afterEach, describe, expect, it } from 'vitest';
import type { PacketType, SimScenario, SimulatedEngine, TraceHandle } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { collectRounds, hopStats } from '../netns/rounds.js';

const { createSimulatedEngine } = engine;

let sim: SimulatedEngine | undefined;
const open: TraceHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.stop()));
  await sim?.shutdown();
  sim = undefined;
});

// Topology id 119 (addresses only): the shape of test/netns/scenarios/lossy-silent.json.
const lossySilent = (seed: number): SimScenario => ({
  name: 'overshoot-119',
  seed,
  hops: [
    { v4: '10.251.119.2', rttMs: 0.1 },
    { silent: true, rttMs: 0.2 },
    { v4: '10.251.119.18', rttMs: 0.3, lossPercent: 30 },
    { v4: '10.251.119.26', rttMs: 0.4 },
  ],
  target: { v4: '10.251.119.34', rttMs: 0.5 },
});

describe('overlapping rounds on a lossy path with a silent hop', () => {
  // Seeds whose loss pattern ran rounds past the target after 1 s before the fix (8 of 30 tried).
  const runs: [PacketType, number][] = [['ICMP', 3], ['ICMP', 12], ['ICMP', 24], ['ICMP', 25], ['UDP', 3], ['UDP', 24], ['TCP', 12], ['TCP', 25]];
  for (const [packetType, seed] of runs) {
    it(`${packetType}, seed ${seed}: no round past the target once the path is known (10 ms interval, 400 ms timeout)`, async () => {
      sim = createSimulatedEngine({ scenarios: [lossySilent(seed)] });
      const h = sim.startTrace({ target: '10.251.119.34', packetType, intervalSeconds: 0.01, timeoutMs: 400, maxTtl: 8, reverseDns: false });
      open.push(h);
      const rounds = await collectRounds(h, 600);
      const known = rounds[0].time + 1000;
      const late = rounds.filter((r) => r.time > known);
      expect(late.length).toBeGreaterThan(400);
      expect(late.filter((r) => r.hops.length > 5).map((r) => ({ t: r.time - rounds[0].time, hops: r.hops.length }))).toEqual([]);
      // The target hop's loss is the loss of its own probes (30% at router 3, no more).
      const s = hopStats(late).get(5)!;
      expect(Math.abs(s.loss - 0.3)).toBeLessThan(0.1);
    });
  }
});
