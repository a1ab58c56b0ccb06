// Probes larger than the MTU (ids 23): every link of the chain has an MTU of 1280. With
// allowFragmentation the engine sends each probe as fragments and every hop and the target
// answer; without it the trace fails at start with an error naming the size and the MTU.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketType } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds, hopStats } from './rounds.js';

const { startTrace, shutdownEngine, EngineError } = engine;

const MTU = 1280;

describe.skipIf(!asRoot)('engine: probes larger than the MTU', () => {
  let topo: Topology;
  beforeAll(() => {
    topo = buildTopology({ id: 23, routers: 2, mtu: MTU });
  });
  afterAll(async () => {
    topo?.destroy();
    await shutdownEngine();
  });

  const target = (family: 4 | 6) => (family === 4 ? topo.target.v4 : topo.target.v6);
  const hops = (family: 4 | 6) => [1, 2, 3].map((k) => (family === 4 ? topo.hop(k).v4 : topo.hop(k).v6));
  const trace = async (family: 4 | 6, packetType: PacketType, extra: object) => {
    const h = startTrace({ target: target(family), packetType, intervalSeconds: 0.05, timeoutMs: 500, maxTtl: 6, reverseDns: false, ...extra });
    try { return await collectRounds(h, 4); } finally { await h.stop(); }
  };

  for (const [family, type] of [[4, 'ICMP'], [6, 'ICMP'], [4, 'UDP'], [6, 'UDP']] as const) {
    it(`${type} over IPv${family}: packetSize 3000 with fragmentation allowed gets answers from every hop`, async () => {
      const rounds = await trace(family, type, { packetSize: 3000, allowFragmentation: true });
      expect(rounds.every((r) => r.reachedTarget)).toBe(true);
      const stats = [...hopStats(rounds).values()];
      expect(stats.map((s) => s.address)).toEqual(hops(family));
      expect(stats.map((s) => s.lost)).toEqual([0, 0, 0]);
    });
  }

  for (const family of [4, 6] as const) {
    it(`ICMP over IPv${family}: packetSize 3000 without fragmentation fails at start, naming size and MTU`, async () => {
      const error = await trace(family, 'ICMP', { packetSize: 3000 }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect((error as InstanceType<typeof EngineError>).code).toBe('BadOptions');
      expect((error as InstanceType<typeof EngineError>).message).toMatch(/packetSize 3000/);
      expect((error as InstanceType<typeof EngineError>).message).toMatch(new RegExp(`MTU of ${MTU} bytes`));
      expect((error as InstanceType<typeof EngineError>).message).toMatch(/allow fragmentation or use a packetSize of at most/);
    });
  }

  for (const family of [4, 6] as const) {
    it(`ICMP over IPv${family}: the largest probe that fits the MTU goes out whole, without fragmentation`, async () => {
      // IPv6 probes carry the same transport bytes as IPv4 ones behind a header 20 bytes longer.
      const rounds = await trace(family, 'ICMP', { packetSize: family === 4 ? MTU : MTU - 20 });
      expect(rounds.every((r) => r.reachedTarget)).toBe(true);
      expect([...hopStats(rounds).values()].map((s) => s.address)).toEqual(hops(family));
    });
  }
});
