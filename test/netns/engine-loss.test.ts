// ICMP, UDP and TCP traces (run at once, so they also prove replies never mix between
// traces) through a chain with a silent router (hop 2) and 30% loss injected at router 3.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketType, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { parseScenario } from './scenario.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds, hopStats } from './rounds.js';

const { startTrace, shutdownEngine, LatencyCode } = engine;

// 600 rounds: the tolerance is then about 6.4 standard deviations of a binomial(600, 0.3)
// proportion, so nine comparisons a run do not fail by chance (at 150 rounds it was 3.3, and
// a full run failed once at 0.127).
const ROUNDS = 600;
const INJECTED = 0.3;
const TOLERANCE = 0.12;
// 400 ms: about 40 rounds overlap at the 10 ms interval, all started before the first one
// taught the trace the path length (see test/sim/overshoot.test.ts for what that exposed).
const TIMEOUT_MS = 400;

describe.skipIf(!asRoot)('engine on a lossy chain with a silent router', () => {
  let topo: Topology;
  const results = new Map<PacketType, TraceRound[]>();

  beforeAll(async () => {
    topo = buildTopology(parseScenario(readFileSync(new URL('./scenarios/lossy-silent.json', import.meta.url), 'utf8')));
    const types: PacketType[] = ['ICMP', 'UDP', 'TCP'];
    const handles = types.map((packetType) =>
      startTrace({ target: topo.target.v4, packetType, intervalSeconds: 0.01, timeoutMs: TIMEOUT_MS, maxTtl: 8, reverseDns: false }));
    try {
      const all = await Promise.all(handles.map((h) => collectRounds(h, ROUNDS, 120_000)));
      types.forEach((t, i) => results.set(t, all[i]));
    } finally {
      await Promise.all(handles.map((h) => h.stop()));
    }
  });

  afterAll(async () => {
    topo?.destroy();
    await shutdownEngine();
  });

  for (const type of ['ICMP', 'UDP', 'TCP'] as const) {
    describe(type, () => {
      it('reports the hop addresses in order and reaches the target', () => {
        const stats = hopStats(results.get(type)!);
        expect(stats.get(1)!.address).toBe(topo.hop(1).v4);
        expect(stats.get(3)!.address).toBe(topo.hop(3).v4);
        expect(stats.get(4)!.address).toBe(topo.hop(4).v4);
        expect(stats.get(5)!.address).toBe(topo.target.v4);
        // Rounds that started while the path was still being discovered (they overlap at a
        // 10 ms interval) may run past the target: when the probe at TTL 5 is lost and the one
        // at TTL 6 arrives, the path briefly looks one hop longer. Once the path is known
        // (well after the first round's 400 ms timeout) no round may overshoot.
        const rounds = results.get(type)!;
        const known = rounds[0].time + 1000;
        expect(rounds.filter((r) => r.time > known && r.hops.length > 5)).toEqual([]);
        expect(results.get(type)!.filter((r) => r.reachedTarget).length).toBeGreaterThan(ROUNDS / 2);
      });

      it('shows the silent router as timeouts while later hops answer', () => {
        const rounds = results.get(type)!;
        const stats = hopStats(rounds);
        expect(stats.get(2)!.lost).toBe(stats.get(2)!.sent);
        expect(stats.get(2)!.address).toBeNull();
        for (const r of rounds) {
          const hop2 = r.hops.find((h) => h.ttl === 2);
          if (hop2) expect(hop2.rtt).toBe(LatencyCode.Timeout);
        }
        expect(stats.get(3)!.sent - stats.get(3)!.lost).toBeGreaterThan(ROUNDS / 2);
      });

      it('measures the injected loss at and after the lossy router, none before', () => {
        const stats = hopStats(results.get(type)!);
        expect(stats.get(1)!.lost).toBe(0);
        for (const ttl of [3, 4, 5]) {
          const s = stats.get(ttl)!;
          expect(s.sent).toBeGreaterThanOrEqual(ROUNDS - 2);
          expect(Math.abs(s.loss - INJECTED)).toBeLessThanOrEqual(TOLERANCE);
        }
      });

      it('gives latencies in float milliseconds', () => {
        for (const r of results.get(type)!) {
          for (const h of r.hops) if (h.reply !== 'timeout') expect(h.rtt).toBeGreaterThan(0), expect(h.rtt).toBeLessThan(TIMEOUT_MS);
        }
      });
    });
  }
});
