// Issue 16, items 2, 4 and 5 on the simulated network: MPLS label stacks that routers report in
// RFC 4884/4950 extensions reach each hop of a round (IPv4 and IPv6, every probe type); several
// hosts at one hop (per-packet ECMP) are one route, not a change per round; a translating
// device (NAT) on the way shows on the hops after it for UDP probes.
import { afterEach, describe, expect, it } from 'vitest';
import type { PacketType, SimScenario, SimulatedEngine, TraceHandle } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { collectRounds } from '../netns/rounds.js';
import type { RouteChange } from '../../engine/index.js';

const { createSimulatedEngine } = engine;

let sim: SimulatedEngine | undefined;
const open: TraceHandle[] = [];
function trace(scenarios: SimScenario[], options: Parameters<SimulatedEngine['startTrace']>[0]): TraceHandle {
  sim ??= createSimulatedEngine({ scenarios });
  const h = sim.startTrace({ reverseDns: false, intervalSeconds: 1, timeoutMs: 500, ...options });
  open.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.stop()));
  await sim?.shutdown();
  sim = undefined;
});

const mplsPath: SimScenario = {
  name: 'mpls-core',
  hops: [
    { v4: '10.251.172.1', v6: 'fd00:251:172::1', rttMs: 0.5 },
    { v4: '10.251.172.2', v6: 'fd00:251:172::2', rttMs: 1, mpls: [{ label: 24001, exp: 0, ttl: 1 }] },
    { v4: '10.251.172.3', v6: 'fd00:251:172::3', rttMs: 1.5, mpls: [{ label: 16, exp: 5, ttl: 254 }, { label: 24002, ttl: 1 }] },
  ],
  target: { v4: '10.251.172.99', v6: 'fd00:251:172::99', rttMs: 2 },
};

describe('MPLS label stacks per hop', () => {
  for (const family of [4, 6] as const) {
    for (const packetType of ['ICMP', 'UDP', 'TCP'] as PacketType[]) {
      it(`${packetType} over IPv${family}: each label switch router's stack, top first; none elsewhere`, async () => {
        const target = family === 4 ? mplsPath.target.v4! : mplsPath.target.v6!;
        const rounds = await collectRounds(trace([mplsPath], { target, packetType }), 3);
        for (const r of rounds) {
          expect(r.reachedTarget).toBe(true);
          expect(r.hops[0]).not.toHaveProperty('mpls');
          expect(r.hops[1].mpls).toEqual([{ label: 24001, exp: 0, bottomOfStack: true, ttl: 1 }]);
          expect(r.hops[2].mpls).toEqual([{ label: 16, exp: 5, bottomOfStack: false, ttl: 254 }, { label: 24002, exp: 0, bottomOfStack: true, ttl: 1 }]);
          expect(r.hops[3]).not.toHaveProperty('mpls');
        }
      });
    }
  }
});

describe('NAT detection (UDP probes)', () => {
  const natPath: SimScenario = {
    name: 'nat-at-2',
    hops: [
      { v4: '10.251.173.1', rttMs: 0.5 },
      { v4: '10.251.173.2', rttMs: 1, nat: true },
      { v4: '10.251.173.3', rttMs: 1.5 },
    ],
    target: { v4: '10.251.173.99', rttMs: 2 },
  };

  it('marks the hops after a translating device, and still matches every reply', async () => {
    const rounds = await collectRounds(trace([natPath], { target: natPath.target.v4!, packetType: 'UDP' }), 4);
    for (const r of rounds) {
      expect(r.hops.map((h) => h.address)).toEqual(['10.251.173.1', '10.251.173.2', '10.251.173.3', '10.251.173.99']);
      expect(r.hops.map((h) => h.natDetected === true)).toEqual([false, false, true, true]);
    }
  });

  it('shows no translation on a path without one', async () => {
    const rounds = await collectRounds(trace([mplsPath], { target: mplsPath.target.v4!, packetType: 'UDP' }), 3);
    for (const r of rounds) expect(r.hops.some((h) => h.natDetected)).toBe(false);
  });

  it('ICMP and TCP probes carry no NAT mark (only UDP quotes show it)', async () => {
    for (const packetType of ['ICMP', 'TCP'] as const) {
      const rounds = await collectRounds(trace([natPath], { target: natPath.target.v4!, packetType }), 3);
      for (const r of rounds) {
        expect(r.reachedTarget, packetType).toBe(true);
        expect(r.hops.some((h) => h.natDetected), packetType).toBe(false);
      }
    }
  });
});

describe('several hosts at one hop', () => {
  const ecmp: SimScenario = {
    name: 'ecmp-at-2',
    hops: [
      { v4: '10.251.174.1', v6: 'fd00:251:174::1', rttMs: 0.5 },
      { v4: '10.251.174.2', v6: 'fd00:251:174::2', rttMs: 1, balancedWith: [{ v4: '10.251.174.12', v6: 'fd00:251:174::12' }, { v4: '10.251.174.22', v6: 'fd00:251:174::22' }] },
      { v4: '10.251.174.3', v6: 'fd00:251:174::3', rttMs: 1.5 },
    ],
    target: { v4: '10.251.174.99', v6: 'fd00:251:174::99', rttMs: 2 },
    routeChanges: [{ atMs: 60_500, hop: 3, v4: '10.251.174.33', v6: 'fd00:251:174::33' }],
  };

  for (const family of [4, 6] as const) {
    it(`IPv${family}: each address keeps its share of the samples; the set is one route, a new router at another hop a change`, async () => {
      const pick = (a: { v4?: string; v6?: string }) => (family === 4 ? a.v4! : a.v6!);
      const h = trace([ecmp], { target: pick(ecmp.target), intervalSeconds: 1 });
      const changes: RouteChange[] = [];
      h.on('routeChange', (c) => changes.push(c));
      const rounds = await collectRounds(h, 120);
      const shares = new Map<string, number>();
      for (const r of rounds) shares.set(r.hops[1].address!, (shares.get(r.hops[1].address!) ?? 0) + 1);
      expect([...shares.keys()].sort()).toEqual([ecmp.hops[1], ...ecmp.hops[1].balancedWith!].map(pick).sort());
      for (const n of shares.values()) expect(n).toBeGreaterThanOrEqual(30);
      // At hop 2 only the two addresses joining the set once each; then the real change at hop 3.
      const at2 = changes.filter((c) => c.ttl === 2);
      expect(at2.length).toBeLessThanOrEqual(2);
      expect(changes.filter((c) => c.ttl === 3).map((c) => c.current)).toEqual([pick({ v4: '10.251.174.33', v6: 'fd00:251:174::33' })]);
      expect(changes.length).toBe(at2.length + 1);
    });
  }
});

describe('who a hop belongs to', () => {
  // Public addresses in a simulated path: the simulation sends nothing anywhere, and the
  // owners come from the databases on disk.
  const publicPath: SimScenario = {
    name: 'owners',
    hops: [{ v4: '10.251.177.1', rttMs: 0.5 }, { v4: '8.8.8.8', rttMs: 1 }, { silent: true, rttMs: 1.2 }],
    target: { v4: '1.1.1.1', rttMs: 1.5 },
  };

  it('names private hops at once and public ones with AS and country once the databases loaded; timeouts have none', async () => {
    const h = trace([publicPath], { target: '1.1.1.1', hopOwners: true });
    const first = await collectRounds(h, 1);
    expect(first[0].hops[0].owner).toEqual({ asn: null, asName: null, country: null, special: 'Private' });
    // The databases load in real time beside the virtual rounds.
    let rounds = await collectRounds(h, 1);
    for (let i = 0; i < 600 && !rounds[0].hops[1].owner; i++) {
      await new Promise((ok) => setTimeout(ok, 20));
      rounds = await collectRounds(h, 1);
    }
    const [r] = rounds;
    expect(r.hops[1].owner).toMatchObject({ asn: 15169, country: 'US', special: null });
    expect(r.hops[2]).not.toHaveProperty('owner');
    expect(r.hops[3].owner).toMatchObject({ asn: 13335, special: null });
  });

  it('gives no owner when asked not to', async () => {
    const rounds = await collectRounds(trace([publicPath], { target: '1.1.1.1', hopOwners: false }), 2);
    for (const r of rounds) expect(r.hops.some((x) => x.owner)).toBe(false);
  });
});

describe('DSCP per hop', () => {
  const remark: SimScenario = {
    name: 'dscp-remark',
    hops: [
      { v4: '10.251.178.1', v6: 'fd00:251:178::1', rttMs: 0.5 },
      { v4: '10.251.178.2', v6: 'fd00:251:178::2', rttMs: 1, setsDscp: 0 },
      { v4: '10.251.178.3', v6: 'fd00:251:178::3', rttMs: 1.5 },
    ],
    target: { v4: '10.251.178.99', v6: 'fd00:251:178::99', rttMs: 2 },
  };

  for (const family of [4, 6] as const) {
    it(`IPv${family}: probes carry the trace's DSCP; hops after a router that rewrites it quote the new value`, async () => {
      const target = family === 4 ? remark.target.v4! : remark.target.v6!;
      const rounds = await collectRounds(trace([remark], { target, packetType: 'UDP', dscp: 46 }), 3);
      for (const r of rounds) expect(r.hops.map((h) => h.quotedDscp)).toEqual([46, 46, 0, 0]);
    });
  }

  it('without a DSCP, shows it only where a hop quotes another value than sent', async () => {
    const s: SimScenario = { ...remark, name: 'dscp-set', hops: remark.hops.map((h, i) => (i === 1 ? { ...h, setsDscp: 10 } : h)) };
    const rounds = await collectRounds(trace([s, mplsPath], { target: s.target.v4!, packetType: 'UDP' }), 2);
    for (const r of rounds) expect(r.hops.map((h) => h.quotedDscp)).toEqual([undefined, undefined, 10, 10]);
    const plain = await collectRounds(trace([s, mplsPath], { target: mplsPath.target.v4!, packetType: 'UDP' }), 2);
    for (const r of plain) expect(r.hops.some((h) => 'quotedDscp' in h)).toBe(false);
  });

  it('refuses a DSCP outside 0-63', () => {
    expect(() => trace([remark], { target: remark.target.v4!, dscp: 64 })).toThrow(/dscp/);
  });
});
