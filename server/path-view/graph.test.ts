import { describe, expect, it } from 'vitest';
import type { HopHostDetails } from '../contract/hop-details.js';
import { buildPathGraph, minutePaths, parseMinutePath, type TraceHop, type TraceHopMinute, type TracePath } from './graph.js';

const M = 60_000;
const host = (Address: string, SharePercent = 100, extra: Partial<HopHostDetails> = {}): HopHostDetails => ({
  Address,
  Samples: 60,
  SharePercent,
  Mpls: [],
  Asn: null,
  AsName: null,
  Country: null,
  Special: 'Private',
  QuotedDscp: null,
  NatDetected: false,
  ...extra,
});
const hop = (n: number, addresses: string[], latencyMs: number | null, lossPercent = 0): TraceHop => ({
  hop: n,
  lossPercent,
  answered: addresses.length > 0,
  latencyMs,
  hosts: addresses.map((a) => host(a, 100 / addresses.length)),
  name: '',
});

/** A trace whose hops answer with the same addresses every minute of `minutes`. */
/** A trace whose hops answer with the same addresses every minute of `minutes`; `rows` adds hop_hosts rows. */
function trace(sessionId: number, agentId: number, hops: TraceHop[], minutes = 3, target = '10.0.0.9', rows: TraceHopMinute[] = []): TracePath {
  return {
    session: { SessionId: sessionId, TargetId: String(sessionId), AgentId: agentId, AgentName: `agent ${agentId}`, TargetAddress: target, TargetName: 'svc' },
    hops,
    minutes: minutePaths([...Array.from({ length: minutes }, (_, m) => hops.flatMap((h) => h.hosts.map((x) => ({ minute: m * M, hop: h.hop, address: x.Address })))).flat(), ...rows]),
  };
}

const ids = (g: ReturnType<typeof buildPathGraph>) => g.nodes.map((n) => n.Id).sort();
const edge = (g: ReturnType<typeof buildPathGraph>, from: string, to: string) => g.edges.find((e) => e.From === from && e.To === to);

describe('the path graph', () => {
  it('makes one node of a router two agents\' paths share, so the paths meet there', () => {
    const a = trace(1, -1, [hop(1, ['10.0.1.1'], 1), hop(2, ['10.0.3.1'], 2), hop(3, ['10.0.4.1'], 3), hop(4, ['10.0.0.9'], 4)]);
    const b = trace(2, 7, [hop(1, ['10.0.2.1'], 1), hop(2, ['10.0.3.1'], 2), hop(3, ['10.0.4.1'], 3), hop(4, ['10.0.0.9'], 4)]);
    const g = buildPathGraph([a, b]);
    expect(ids(g)).toEqual(['agent:-1', 'agent:7', 'ip:10.0.0.9', 'ip:10.0.1.1', 'ip:10.0.2.1', 'ip:10.0.3.1', 'ip:10.0.4.1']);
    const shared = g.nodes.find((n) => n.Id === 'ip:10.0.3.1')!;
    expect(shared.SessionIds.sort()).toEqual([1, 2]);
    expect(shared.Agents.map((x) => x.AgentName).sort()).toEqual(['agent -1', 'agent 7']);
    expect(edge(g, 'ip:10.0.1.1', 'ip:10.0.3.1')!.SessionIds).toEqual([1]);
    expect(edge(g, 'ip:10.0.2.1', 'ip:10.0.3.1')!.SessionIds).toEqual([2]);
    expect(edge(g, 'ip:10.0.3.1', 'ip:10.0.4.1')).toMatchObject({ Weight: 6, SessionIds: [1, 2] });
    expect(g.nodes.find((n) => n.Id === 'ip:10.0.0.9')!.Kind).toBe('Target');
    expect(g.sessions.map((s) => s.TargetNodeId)).toEqual(['ip:10.0.0.9', 'ip:10.0.0.9']);
  });

  it('draws a load-balanced hop as parallel branches between its neighbours', () => {
    const g = buildPathGraph([trace(1, -1, [hop(1, ['10.0.1.1'], 1), hop(2, ['10.0.5.1', '10.0.6.1'], 2), hop(3, ['10.0.0.9'], 3)])]);
    for (const b of ['ip:10.0.5.1', 'ip:10.0.6.1']) {
      expect(edge(g, 'ip:10.0.1.1', b)).toBeDefined();
      expect(edge(g, b, 'ip:10.0.0.9')).toBeDefined();
    }
    expect(g.routeChanges).toEqual([]);
  });

  it('draws a hop that never answered as a silent node between its neighbours, not as loss', () => {
    const g = buildPathGraph([trace(1, -1, [hop(1, ['10.0.1.1'], 1), hop(2, [], null, 100), hop(3, ['10.0.0.9'], 3)])]);
    const silent = g.nodes.find((n) => n.Kind === 'Silent')!;
    expect(silent.Id).toBe('silent:ip:10.0.1.1>ip:10.0.0.9#1');
    expect(silent.MutedLoss).toBe('Silent');
    expect(silent.LossStartPercent).toBeNull();
    expect(edge(g, 'ip:10.0.1.1', silent.Id)).toBeDefined();
    expect(edge(g, silent.Id, 'ip:10.0.0.9')).toBeDefined();
    expect(edge(g, 'ip:10.0.1.1', 'ip:10.0.0.9')).toBeUndefined();
  });

  it('shares a silent node between two traces silent between the same routers', () => {
    const hops = [hop(1, ['10.0.1.1'], 1), hop(2, [], null, 100), hop(3, ['10.0.0.9'], 3)];
    const g = buildPathGraph([trace(1, -1, hops), trace(2, -1, hops)]);
    expect(g.nodes.filter((n) => n.Kind === 'Silent')).toHaveLength(1);
  });

  it('colours the hop where loss starts and carries on, and mutes loss that does not carry on', () => {
    const g = buildPathGraph([trace(1, -1, [hop(1, ['10.0.1.1'], 1, 40), hop(2, ['10.0.2.1'], 2, 0), hop(3, ['10.0.3.1'], 3, 20), hop(4, ['10.0.0.9'], 4, 20)])]);
    const at = (a: string) => g.nodes.find((n) => n.Address === a)!;
    expect(at('10.0.1.1')).toMatchObject({ LossStartPercent: null, MutedLoss: 'NotCarriedOn' });
    expect(at('10.0.3.1')).toMatchObject({ LossStartPercent: 20, MutedLoss: null });
    expect(at('10.0.0.9').LossStartPercent).toBeNull();
  });

  it('gives an edge the latency added across it', () => {
    const g = buildPathGraph([trace(1, -1, [hop(1, ['10.0.1.1'], 1.5), hop(2, ['10.0.2.1'], 11.5), hop(3, ['10.0.0.9'], 12)])]);
    expect(edge(g, 'agent:-1', 'ip:10.0.1.1')!.AddedLatencyMs).toBe(1.5);
    expect(edge(g, 'ip:10.0.1.1', 'ip:10.0.2.1')!.AddedLatencyMs).toBe(10);
  });

  it('lists a route change of a hop at its minute with old and new addresses', () => {
    const rows: TraceHopMinute[] = [];
    for (let m = 0; m < 6; m++) {
      rows.push({ minute: m * M, hop: 1, address: '10.0.1.1' }, { minute: m * M, hop: 2, address: m < 3 ? '10.0.5.1' : '10.0.6.1' }, { minute: m * M, hop: 3, address: '10.0.0.9' });
    }
    const g = buildPathGraph([trace(1, -1, [hop(1, ['10.0.1.1'], 1), hop(2, ['10.0.5.1', '10.0.6.1'], 2), hop(3, ['10.0.0.9'], 3)], 0, '10.0.0.9', rows)]);
    expect(g.routeChanges).toEqual([{ Time: new Date(3 * M).toISOString(), SessionId: 1, AgentName: 'agent -1', TargetId: '1', Hop: 2, Old: ['10.0.5.1'], New: ['10.0.6.1'] }]);
    // Both routes of the range are drawn; a minute where hop 2 lost every probe is not silent.
    expect(edge(g, 'ip:10.0.1.1', 'ip:10.0.5.1')!.Weight).toBe(3);
    expect(edge(g, 'ip:10.0.1.1', 'ip:10.0.6.1')!.Weight).toBe(3);
  });

  it('takes a hop that lost every probe in a minute to be where it was last seen, not silent', () => {
    const g = buildPathGraph([
      trace(1, -1, [hop(1, ['10.0.1.1'], 1), hop(2, ['10.0.2.1'], 2, 10), hop(3, ['10.0.0.9'], 3)], 0, '10.0.0.9', [
        { minute: 0, hop: 1, address: '10.0.1.1' },
        { minute: 0, hop: 2, address: '10.0.2.1' },
        { minute: 0, hop: 3, address: '10.0.0.9' },
        { minute: M, hop: 1, address: '10.0.1.1' },
        { minute: M, hop: 3, address: '10.0.0.9' },
      ]),
    ]);
    expect(g.nodes.some((n) => n.Kind === 'Silent')).toBe(false);
    expect(edge(g, 'ip:10.0.2.1', 'ip:10.0.0.9')!.Weight).toBe(2);
  });

  it('reads minute paths as the store writes them, and counts equal minutes once each', () => {
    expect([...parseMinutePath('1=10.0.1.1 2=10.0.6.1,10.0.5.1 3=10.0.0.9')]).toEqual([
      [1, ['10.0.1.1']],
      [2, ['10.0.5.1', '10.0.6.1']],
      [3, ['10.0.0.9']],
    ]);
    expect(minutePaths([{ minute: M, hop: 2, address: 'b' }, { minute: M, hop: 1, address: 'x' }, { minute: M, hop: 2, address: 'a' }, { minute: 0, hop: 1, address: 'x' }])).toEqual([
      { minute: 0, path: '1=x' },
      { minute: M, path: '1=x 2=a,b' },
    ]);
    // 500 equal minutes: weight 500 on every edge, no route change.
    const g = buildPathGraph([trace(1, -1, [hop(1, ['10.0.1.1'], 1), hop(2, ['10.0.0.9'], 2)], 500)]);
    expect(edge(g, 'ip:10.0.1.1', 'ip:10.0.0.9')!.Weight).toBe(500);
    expect(g.routeChanges).toEqual([]);
  });

  it('takes a run of equal minutes read once with its length as that many minutes', () => {
    const hops = [hop(1, ['10.0.0.1'], 1), hop(2, ['10.0.1.1'], 2), hop(3, ['10.0.0.9'], 3)];
    const each = trace(1, 1, hops, 5);
    const path = each.minutes[0].path;
    // Five minutes: the first route for three, another second hop for two (read as two runs).
    const perMinute: TracePath = { ...each, minutes: [0, 1, 2].map((m) => ({ minute: m * M, path })).concat([3, 4].map((m) => ({ minute: m * M, path: path.replace('10.0.1.1', '10.0.1.2') }))) };
    const runs: TracePath = { ...each, minutes: [{ minute: 0, path, minutes: 3 }, { minute: 3 * M, path: path.replace('10.0.1.1', '10.0.1.2'), minutes: 2 }] };
    const a = buildPathGraph([perMinute]);
    const b = buildPathGraph([runs]);
    expect(edge(b, 'ip:10.0.0.1', 'ip:10.0.1.1')?.Weight).toBe(3);
    expect(edge(b, 'ip:10.0.0.1', 'ip:10.0.1.2')?.Weight).toBe(2);
    expect(b.edges).toEqual(a.edges);
    expect(b.routeChanges).toEqual(a.routeChanges);
    expect(b.routeChanges.map((c) => c.Time)).toEqual([new Date(3 * M).toISOString()]);
  });
});
