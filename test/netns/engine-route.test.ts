// Route change mid-run (ICMP, UDP, TCP over IPv4 and IPv6), the IPv6 path, pause/resume
// markers and the interval change, on a chain with an alternate router at hop 2.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketType, RouteChange, TraceHandle, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { parseScenario } from './scenario.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds, hopStats, nextRouteChange } from './rounds.js';

const { startTrace, shutdownEngine, LatencyCode } = engine;

const TYPES: PacketType[] = ['ICMP', 'UDP', 'TCP'];

describe.skipIf(!asRoot)('engine route change and IPv6 path', () => {
  let topo: Topology;
  const before = new Map<string, TraceRound[]>();
  const changes = new Map<string, RouteChange>();
  const handles: TraceHandle[] = [];

  beforeAll(async () => {
    topo = buildTopology(parseScenario(readFileSync(new URL('./scenarios/route-change.json', import.meta.url), 'utf8')));
    const runs: { key: string; h: TraceHandle }[] = [];
    for (const family of [4, 6] as const) {
      for (const packetType of TYPES) {
        const target = family === 4 ? topo.target.v4 : topo.target.v6;
        const h = startTrace({ target, packetType, intervalSeconds: 0.05, timeoutMs: 200, maxTtl: 8, reverseDns: false });
        handles.push(h);
        runs.push({ key: `${packetType}/v${family}`, h });
      }
    }
    const firsts = await Promise.all(runs.map((r) => collectRounds(r.h, 5)));
    runs.forEach((r, i) => before.set(r.key, firsts[i]));
    const changed = runs.map((r) => nextRouteChange(r.h));
    topo.changeRoute();
    const got = await Promise.all(changed);
    runs.forEach((r, i) => changes.set(r.key, got[i]));
  });

  afterAll(async () => {
    await Promise.all(handles.map((h) => h.stop()));
    topo?.destroy();
    await shutdownEngine();
  });

  for (const family of [4, 6] as const) {
    for (const type of TYPES) {
      const key = `${type}/v${family}`;
      const pick = (a: { v4: string; v6: string }) => (family === 4 ? a.v4 : a.v6);
      it(`${key}: hop addresses in order up to the target`, () => {
        const stats = hopStats(before.get(key)!);
        expect([...stats.values()].map((s) => s.address)).toEqual([pick(topo.hop(1)), pick(topo.hop(2)), pick(topo.hop(3)), pick(topo.target)]);
        expect(before.get(key)!.every((r) => r.reachedTarget)).toBe(true);
      });
      it(`${key}: reports the route change at hop 2`, () => {
        const c = changes.get(key)!;
        expect(c.ttl).toBe(2);
        expect(c.previous).toBe(pick(topo.hop(2)));
        expect(c.current).toBe(pick(topo.alternateHop()));
      });
    }
  }

  it('pauses and resumes with stop/start markers, and changes its interval', async () => {
    const h = startTrace({ target: topo.target.v4, intervalSeconds: 0.05, timeoutMs: 200, reverseDns: false });
    handles.push(h);
    await collectRounds(h, 2);
    const markers: TraceRound[] = [];
    h.on('round', (r) => { if (r.marker) markers.push(r); });
    h.pause();
    expect(h.state).toBe('paused');
    expect(markers[0].marker).toBe('stop');
    expect(markers[0].hops.length).toBe(4);
    expect(markers[0].hops.every((x) => x.rtt === LatencyCode.StopStart)).toBe(true);
    let during = 0;
    const count = (r: TraceRound) => { if (!r.marker) during++; };
    h.on('round', count);
    await new Promise((r) => setTimeout(r, 300));
    expect(during).toBeLessThanOrEqual(1); // at most the round that was in flight
    h.off('round', count);
    h.setInterval(0.2);
    h.resume();
    expect(markers[1].marker).toBe('start');
    const rounds = await collectRounds(h, 3);
    expect(rounds[2].time - rounds[1].time).toBeGreaterThanOrEqual(150);
    await h.stop();
    expect(h.state).toBe('stopped');
  });
});
