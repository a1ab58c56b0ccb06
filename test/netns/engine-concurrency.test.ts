// Many traces in the one probe worker at once (ICMP, UDP and TCP, IPv4 and IPv6) on a clean
// chain: every reply reaches its own trace, every round is complete; and the probe worker's
// link to the main thread holds the process only while traces exist.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketType, TraceHandle, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds } from './rounds.js';

const { startTrace, shutdownEngine } = engine;

const TYPES: PacketType[] = ['ICMP', 'UDP', 'TCP'];
const TRACES = 240;
const ROUNDS = 5;

describe.skipIf(!asRoot)('engine with many traces at once', () => {
  let topo: Topology;
  const runs: { family: 4 | 6; h: TraceHandle; rounds: TraceRound[] }[] = [];

  beforeAll(async () => {
    topo = buildTopology({ id: 14, routers: 3 });
    for (let i = 0; i < TRACES; i++) {
      const family = i % 2 === 0 ? 4 : 6;
      const target = family === 4 ? topo.target.v4 : topo.target.v6;
      const h = startTrace({ target, packetType: TYPES[i % 3], intervalSeconds: 0.05, maxTtl: 8, reverseDns: false });
      runs.push({ family, h, rounds: [] });
    }
    const all = await Promise.all(runs.map((r) => collectRounds(r.h, ROUNDS)));
    all.forEach((rounds, i) => { runs[i].rounds = rounds; });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(runs.map((r) => r.h.stop()));
    topo?.destroy();
    await shutdownEngine();
  });

  it('gives every trace complete rounds of its own path, with no reply lost or mixed up', () => {
    for (const { family, rounds } of runs) {
      const path = [1, 2, 3, 4].map((k) => (family === 4 ? topo.hop(k).v4 : topo.hop(k).v6));
      // Round 0 probes up to maxTtl at once; from round 1 on the path is known.
      for (const r of rounds.slice(1)) {
        expect(r.reachedTarget).toBe(true);
        expect(r.hops.map((h) => h.address)).toEqual(path);
        expect(r.hops.every((h) => typeof h.rtt === 'number' && h.rtt >= 0)).toBe(true);
      }
      expect(rounds.map((r) => r.index)).toEqual(rounds.map((_, i) => rounds[0].index + i));
    }
  });

  it('stops a trace with its round in flight and lets the process exit once no trace is left', () => {
    // No shutdownEngine(): the engine must not hold the process once its traces stopped.
    const script = `import('${new URL('../../dist/engine/index.js', import.meta.url).href}').then((m) => {
      const h = m.startTrace({ target: '${topo.target.v4}', intervalSeconds: 0.05, reverseDns: false });
      let n = 0;
      h.on('round', (r) => { if (!r.marker && ++n === 3) h.stop().then(() => console.log('stopped ' + h.state)); });
    })`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(out.trim()).toBe('stopped stopped');
  });

  it('stops running traces quietly on shutdownEngine()', async () => {
    const h = startTrace({ target: topo.target.v4, intervalSeconds: 0.05, reverseDns: false });
    const errors: Error[] = [];
    h.on('error', (e) => errors.push(e));
    await collectRounds(h, 2);
    await shutdownEngine();
    expect(h.state).toBe('stopped');
    expect(errors).toEqual([]);
    // A later trace starts a new probe worker.
    const again = startTrace({ target: topo.target.v4, intervalSeconds: 0.05, reverseDns: false });
    const rounds = await collectRounds(again, 2);
    expect(rounds[1].reachedTarget).toBe(true);
    await again.stop();
  });
});
