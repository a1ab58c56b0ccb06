// An ICMP-blocking firewall at hop 1, an unreachable target, final-hop-only, DNS-name
// targets, and the missing-CAP_NET_RAW error.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketType } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { parseScenario } from './scenario.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, collectRounds, hopStats } from './rounds.js';

const { startTrace, shutdownEngine, LatencyCode, NO_RAW_SOCKET_PERMISSION } = engine;

describe.skipIf(!asRoot)('engine edge cases', () => {
  let topo: Topology;
  beforeAll(() => {
    topo = buildTopology(parseScenario(readFileSync(new URL('./scenarios/firewall-unreachable.json', import.meta.url), 'utf8')));
  });
  afterAll(async () => {
    topo?.destroy();
    await shutdownEngine();
  });

  const trace = async (target: string, packetType: PacketType, rounds = 4, extra = {}) => {
    const h = startTrace({ target, packetType, intervalSeconds: 0.05, timeoutMs: 200, maxTtl: 6, reverseDns: false, ...extra });
    try { return await collectRounds(h, rounds); } finally { await h.stop(); }
  };

  it('ICMP stops after the ICMP-blocking firewall at hop 1', async () => {
    const rounds = await trace(topo.hop(4).v4, 'ICMP');
    const stats = hopStats(rounds);
    expect(stats.get(1)!.address).toBe(topo.hop(1).v4);
    expect(stats.get(1)!.lost).toBe(0);
    expect(stats.get(2)!.lost).toBe(stats.get(2)!.sent);
    expect(rounds.some((r) => r.reachedTarget)).toBe(false);
  });

  for (const type of ['UDP', 'TCP'] as const) {
    it(`${type} passes the ICMP-blocking firewall and reaches the target`, async () => {
      const rounds = await trace(topo.hop(4).v4, type);
      expect(rounds.every((r) => r.reachedTarget)).toBe(true);
      expect([...hopStats(rounds).values()].map((s) => s.address)).toEqual([1, 2, 3, 4].map((k) => topo.hop(k).v4));
    });
  }

  for (const [family, type] of [[4, 'UDP'], [6, 'UDP'], [6, 'TCP']] as const) {
    it(`reports an unreachable target (${type}, IPv${family}) at the last router`, async () => {
      const rounds = await trace(family === 4 ? topo.target.v4 : topo.target.v6, type, 10, { intervalSeconds: 0.25 });
      // Linux rate-limits unreachable messages of a route (5 at once, then 1/s): some rounds see a timeout.
      expect(rounds.some((r) => r.reachedTarget)).toBe(false);
      const answered = rounds.find((r) => r.hops[r.hops.length - 1].reply !== 'timeout')!;
      const end = answered.hops[answered.hops.length - 1];
      expect(end.ttl).toBe(3);
      expect(end.reply).toBe('unreachable');
      expect(end.address).toBe(family === 4 ? topo.hop(3).v4 : topo.hop(3).v6);
    });
  }

  it('probes only the final hop when asked, others not participating', async () => {
    const rounds = await trace(topo.hop(4).v4, 'UDP', 4, { finalHopOnly: true });
    const last = rounds[3];
    expect(last.hops.map((h) => h.ttl)).toEqual([1, 2, 3, 4]);
    expect(last.hops.slice(0, 3).every((h) => h.rtt === LatencyCode.NotParticipating)).toBe(true);
    expect(last.hops[3].address).toBe(topo.hop(4).v4);
    expect(last.hops[3].rtt).toBeGreaterThan(0);
  });

  it('resolves a DNS-name target at start and again on request', async () => {
    let answer = topo.hop(4).v4;
    const h = startTrace({ target: 'target.hopwatch.test', packetType: 'TCP', intervalSeconds: 0.05, timeoutMs: 200, reverseDns: false,
      resolveName: async () => answer });
    const seen: string[] = [];
    h.on('targetResolved', (a) => seen.push(a));
    try {
      const first = await collectRounds(h, 2);
      expect(first[1].target).toBe(topo.hop(4).v4);
      answer = topo.hop(3).v4;
      expect(await h.reResolve()).toBe(topo.hop(3).v4);
      const later = await collectRounds(h, 2);
      expect(later[1].target).toBe(topo.hop(3).v4);
      expect(later[1].hops.length).toBe(3);
      expect(seen).toEqual([topo.hop(4).v4, topo.hop(3).v4]);
    } finally {
      await h.stop();
    }
  });

  it('fills hop names from the reverse DNS cache without delaying rounds', async () => {
    const rounds = await trace(topo.hop(4).v4, 'UDP', 6, {
      reverseDns: true,
      reverseLookup: async (a: string) => (a === topo.hop(1).v4 ? 'r1.hopwatch.test' : new Promise<null>(() => {})),
    });
    expect(rounds[5].hops[0].name).toBe('r1.hopwatch.test');
    expect(rounds[5].hops[1].name).toBeNull();
  });

  it('says how to fix a missing CAP_NET_RAW', () => {
    const hasSetpriv = spawnSync('sh', ['-c', 'command -v setpriv']).status === 0;
    expect(hasSetpriv).toBe(true);
    const script = `import('${new URL('../../dist/engine/index.js', import.meta.url).href}').then(async (m) => {
      try { await m.checkProbePermission(); console.log('OK'); } catch (e) { console.log(e.code + ': ' + e.message); }
      await m.shutdownEngine(); })`;
    const out = execFileSync('setpriv', ['--bounding-set', '-net_raw', '--inh-caps', '-net_raw', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.trim()).toBe(`NoRawSocketPermission: ${NO_RAW_SOCKET_PERMISSION}`);
    expect(NO_RAW_SOCKET_PERMISSION).toContain('setcap cap_net_raw+ep $(readlink -f $(which node))');
  });
});
