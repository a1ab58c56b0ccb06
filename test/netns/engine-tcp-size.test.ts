// TCP probes bigger than the bare headers (id 24): their SYNs carry data bytes, which a reset
// from a closed port acknowledges too (a SYN-ACK from an open one does not). Every size must
// still match each answer to its own probe: a reset read as "ack - 1" alone would belong to
// a later probe, or to none.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine } from '../support/built.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds, hopStats } from './rounds.js';

const { startTrace, shutdownEngine } = engine;

const OPEN_PORT = 8080;

describe.skipIf(!asRoot)('engine: TCP probes with data', () => {
  let topo: Topology;
  let listener: ChildProcess | undefined;
  beforeAll(async () => {
    topo = buildTopology({ id: 24, routers: 2, mtu: 1280 });
    // An open port on the target: its SYN-ACKs acknowledge the SYN alone.
    listener = spawn('ip', ['netns', 'exec', 'hw24-t', process.execPath, '-e',
      `require('net').createServer((s) => s.destroy()).listen(${OPEN_PORT}, '::', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      listener!.stdout!.once('data', () => resolve());
      listener!.once('exit', (code) => reject(new Error(`listener exited with ${code}`)));
    });
  });
  afterAll(async () => {
    listener?.kill();
    topo?.destroy();
    await shutdownEngine();
  });

  const target = (family: 4 | 6) => (family === 4 ? topo.target.v4 : topo.target.v6);
  const hops = (family: 4 | 6) => [1, 2, 3].map((k) => (family === 4 ? topo.hop(k).v4 : topo.hop(k).v6));

  // 41 and 100: one and 60 data bytes; 3000: fragmented (links have an MTU of 1280).
  const cases = [
    ...[41, 100, 3000].flatMap((size) => [4, 6].map((family) => ({ size, family: family as 4 | 6, port: 80, answer: 'reset' }))),
    ...[4, 6].map((family) => ({ size: 100, family: family as 4 | 6, port: OPEN_PORT, answer: 'SYN-ACK' })),
  ];
  for (const c of cases) {
    it(`IPv${c.family}, packetSize ${c.size}, ${c.answer} from port ${c.port}: every round reaches the target at hop 3`, async () => {
      const h = startTrace({
        target: target(c.family), packetType: 'TCP', tcpPort: c.port, packetSize: c.size, allowFragmentation: c.size > 1280,
        intervalSeconds: 0.05, timeoutMs: 500, maxTtl: 6, reverseDns: false,
      });
      const rounds = await collectRounds(h, 6).finally(() => h.stop());
      expect(rounds.every((r) => r.reachedTarget)).toBe(true);
      // The target answers at its own hop, never at a later one (a reset matched to the next probe).
      expect(rounds.every((r) => r.hops.length === 3)).toBe(true);
      const stats = [...hopStats(rounds).values()];
      expect(stats.map((s) => s.address)).toEqual(hops(c.family));
      expect(stats.map((s) => s.lost)).toEqual([0, 0, 0]);
    });
  }
});
