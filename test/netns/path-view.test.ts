// The Path view on a routed test network with the real engine (issue 44 proof): the Local
// Machine (root namespace) and a real agent program at a branch (its own namespace) trace one
// target through paths that share their last two routers; the Local Machine's first router has
// two equal-cost next hops (`ip route ... nexthop via E1 nexthop via E2`) and its two UDP
// traces use different destination ports (the flow the router hashes), so both branches
// carry traffic; the branch's first router changes its route (`ip route replace`) in the
// middle of the run. Root only (network namespaces, raw sockets).
//
//   root (Local Machine) -- A1 =ECMP=> E1 | E2 -- S1 -- S2 -- T
//   branch (agent)       -- B1 ---------------------- S1 (before) / C -- S2 (after the change)
//
// Every router answers from one address of its own (routes carry `src`), as a real router
// answers from its loopback or one interface, so the two agents see each router as one address.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { PathView } from '../../server/contract/path-view.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithConfigurations } from '../support/configurations.js';
import { Store } from '../support/built.js';
import { agentList, cmd, createAgentWithLink, startAgent, waitFor, type AgentProcess } from '../agents/support.js';
import { asRoot } from './rounds.js';

const ID = 244;
const p = `pv${ID}`;
const net = (link: number, end: 0 | 1 | 2) => `10.251.${ID}.${link * 8 + end}`;
/** Each router's own address (on its loopback, the `src` of its routes). */
const routerAddress = { A1: 201, E1: 202, E2: 203, S1: 204, S2: 205, B1: 206, C: 207 } as const;
type Router = keyof typeof routerAddress;
const addr = (r: Router) => `10.251.${ID}.${routerAddress[r]}`;
const target = net(6, 2);
const Minute = 60_000;

function run(args: string[]): string {
  return execFileSync(args[0], args.slice(1), { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}
function tryRun(args: string[]): void {
  try {
    run(args);
  } catch {
    /* already gone */
  }
}
const ns = (n: string) => `${p}-${n}`;
const ip = (n: string | null, args: string[]) => run(n ? ['ip', '-n', ns(n), ...args] : ['ip', ...args]);

const nodes = ['a1', 'e1', 'e2', 's1', 's2', 't', 'b', 'b1', 'c'];
/** link number, upper node (null: root namespace), lower node. */
const links: [number, string | null, string][] = [
  [0, null, 'a1'],
  [1, 'a1', 'e1'],
  [2, 'a1', 'e2'],
  [3, 'e1', 's1'],
  [4, 'e2', 's1'],
  [5, 's1', 's2'],
  [6, 's2', 't'],
  [7, 'b', 'b1'],
  [8, 'b1', 's1'],
  [9, 'b1', 'c'],
  [10, 'c', 's2'],
  [11, null, 'b'], // the branch's own line to the server (the agent's link), not a traced path
];

function destroy(): void {
  for (const n of nodes) tryRun(['ip', 'netns', 'delete', ns(n)]);
  tryRun(['ip', 'link', 'delete', `${p}x0a`]);
  tryRun(['ip', 'link', 'delete', `${p}x11a`]);
  tryRun(['ip', 'route', 'delete', `10.251.${ID}.0/24`]);
}

function build(): void {
  destroy();
  for (const n of nodes) {
    run(['ip', 'netns', 'add', ns(n)]);
    ip(n, ['link', 'set', 'lo', 'up']);
    run(['ip', 'netns', 'exec', ns(n), 'sysctl', '-q', '-w', 'net.ipv4.ip_forward=1', 'net.ipv4.icmp_ratelimit=0', 'net.ipv4.conf.all.rp_filter=0', 'net.ipv4.conf.default.rp_filter=0']);
  }
  for (const [k, up, down] of links) {
    const a = `${p}x${k}a`;
    const b = `${p}x${k}b`;
    run(['ip', 'link', 'add', a, 'type', 'veth', 'peer', 'name', b]);
    if (up) run(['ip', 'link', 'set', a, 'netns', ns(up)]);
    run(['ip', 'link', 'set', b, 'netns', ns(down)]);
    ip(up, ['addr', 'add', `${net(k, 1)}/29`, 'dev', a]);
    ip(down, ['addr', 'add', `${net(k, 2)}/29`, 'dev', b]);
    ip(up, ['link', 'set', a, 'up']);
    ip(down, ['link', 'set', b, 'up']);
  }
  const self: Record<string, Router> = { a1: 'A1', e1: 'E1', e2: 'E2', s1: 'S1', s2: 'S2', b1: 'B1', c: 'C' };
  for (const [n, r] of Object.entries(self)) ip(n, ['addr', 'add', `${addr(r)}/32`, 'dev', 'lo']);
  const route = (n: string, dest: string, via: string[]) => {
    const src = self[n] ? ['src', addr(self[n])] : [];
    if (via.length === 1) ip(n, ['route', 'replace', dest, 'via', via[0], ...src]);
    else ip(n, ['route', 'replace', dest, ...src, ...via.flatMap((v) => ['nexthop', 'via', v])]);
  };
  const toTarget = `${net(6, 0)}/29`;
  // Root namespace: the scenario's addresses via A1 (the branch's line is connected).
  run(['ip', 'route', 'replace', `10.251.${ID}.0/24`, 'via', net(0, 2)]);
  // Towards the target.
  route('a1', toTarget, [net(1, 2), net(2, 2)]); // two equal-cost next hops
  route('e1', toTarget, [net(3, 2)]);
  route('e2', toTarget, [net(4, 2)]);
  route('s1', toTarget, [net(5, 2)]);
  route('b1', toTarget, [net(8, 2)]);
  route('c', toTarget, [net(10, 2)]);
  // Back towards the sources: the root's (link 0) and the branch's (link 7).
  for (const [n, via] of [['e1', net(1, 1)], ['e2', net(2, 1)], ['s1', net(3, 1)], ['s2', net(5, 1)], ['t', net(6, 1)]] as const) {
    route(n, `${net(0, 0)}/29`, [via]);
  }
  for (const [n, via] of [['s1', net(8, 1)], ['s2', net(5, 1)], ['c', net(9, 1)], ['t', net(6, 1)]] as const) {
    route(n, `${net(7, 0)}/29`, [via]);
  }
  // The first routers' own networks: their answers there come from their own address too.
  ip('a1', ['route', 'replace', `${net(0, 0)}/29`, 'dev', `${p}x0b`, 'src', addr('A1')]);
  ip('b1', ['route', 'replace', `${net(7, 0)}/29`, 'dev', `${p}x7b`, 'src', addr('B1')]);
  ip('b', ['route', 'replace', 'default', 'via', net(7, 2)]);
  // The branch reaches the server over its own line.
  ip('b', ['route', 'replace', `${net(11, 1)}/32`, 'dev', `${p}x11b`]);
  // A1 hashes the destination address and port only (not the source port the engine picks per
  // trace), so which branch a trace takes depends on the port its configuration sets.
  run(['ip', 'netns', 'exec', ns('a1'), 'sysctl', '-q', '-w', 'net.ipv4.fib_multipath_hash_policy=3', 'net.ipv4.fib_multipath_hash_fields=0x0022']);
}

/** The next hop A1 gives a UDP probe to the target with this destination port. */
const branchOf = (port: number) => /via (\S+)/.exec(ip('a1', ['route', 'get', target, 'ipproto', 'udp', 'sport', '61000', 'dport', String(port)]))![1];

describe.skipIf(!asRoot)('the Path view on routed namespaces (issue 44)', () => {
  let hw: Appliance;
  let cookie: string;
  let agent: AgentProcess | undefined;
  let serverUrl: string;
  let localTraces: number[] = [];
  let branchTrace: number;
  let summaryId: number;
  let changedAt: number;
  let ports: number[];

  const pathView = async (kind: 'Target' | 'Summary', id: number, start: number, end: number): Promise<PathView> =>
    cmd<PathView>(hw.url, cookie, `/api/path/PathView?kind=${kind}&id=${id}&start=${start}&end=${end}`);
  const node = (v: PathView, a: string) => v.Nodes.find((n) => n.Address === a);
  const edge = (v: PathView, from: string, to: string) => v.Edges.find((e) => e.From === `ip:${from}` && e.To === `ip:${to}`);

  beforeAll(async () => {
    build();
    // Two destination ports that A1 sends different ways.
    const first = 33434;
    const other = Array.from({ length: 100 }, (_, i) => first + 1 + i).find((port) => branchOf(port) !== branchOf(first))!;
    ports = [first, other];
    expect(new Set(ports.map(branchOf))).toEqual(new Set([net(1, 2), net(2, 2)]));
    const { dataDir, ids } = await dataDirWithConfigurations([{ name: 'UDP flow A' }, { name: 'UDP flow B' }]);
    const store = await Store.open(dataDir);
    try {
      for (const [i, id] of ids.entries()) {
        await store.run('UPDATE configurations SET engine_json = $2 WHERE id = $1', [
          id,
          JSON.stringify({ packetType: 'UDP', udpBeginPort: ports[i], udpEndPort: ports[i], timeoutMs: 500, reverseDns: false }),
        ]);
      }
    } finally {
      await store.close();
    }
    hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: 'path-view-pw', HOPWATCH_HOST: '0.0.0.0' } });
    serverUrl = `http://${net(11, 1)}:${hw.port}`;
    cookie = await signIn(hw.url, 'admin', 'path-view-pw');
    const { agent: created, link } = await createAgentWithLink(serverUrl, cookie, 'Branch office');
    agent = startAgent(['setup', link.SetupLink], { netns: ns('b') });
    await waitFor('the agent online', async () => (await agentList(hw.url, cookie)).some((a) => a.ID === created.ID && a.IsOnline), 60_000);
    for (const config of ids) localTraces.push((await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=${target}&traceInterval=1&configID=${config}`)).ID);
    branchTrace = (await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=${target}&traceInterval=1&configID=${ids[0]}&agentID=${created.ID}`)).ID;
    summaryId = Number((await cmd<{ UniqueID: string }>(hw.url, cookie, `/cmd/createsummary?name=${encodeURIComponent("Service from everywhere")}`)).UniqueID);
    for (const t of [...localTraces, branchTrace]) await cmd(hw.url, cookie, `/cmd/addhost?host=${t}&ID=${summaryId}`);
    // A full minute of the first route, then the change 20 s into a minute, then a full minute after it.
    const now = Date.now();
    const firstFull = Math.ceil((now + 2000) / Minute) * Minute;
    await new Promise((ok) => setTimeout(ok, firstFull + Minute + 20_000 - Date.now()));
    changedAt = Date.now();
    ip('b1', ['route', 'replace', `${net(6, 0)}/29`, 'via', net(9, 2), 'src', addr('B1')]);
    const after = Math.floor(changedAt / Minute) * Minute + 2 * Minute + 3000;
    await new Promise((ok) => setTimeout(ok, after - Date.now()));
  }, 300_000);

  afterAll(async () => {
    await agent?.dispose();
    await hw?.dispose();
    destroy();
  });

  it('draws one node for each router both paths share, where the two paths meet', async () => {
    onTestFailed(() => console.log(`agent output:\n${agent?.output()}`));
    const v = await pathView('Summary', summaryId, changedAt - 2 * Minute, changedAt - 20_000);
    expect(v.Sessions.map((s) => s.SessionId).sort()).toEqual([...localTraces, branchTrace].sort());
    for (const r of ['S1', 'S2'] as const) {
      expect(v.Nodes.filter((n) => n.Address === addr(r)), r).toHaveLength(1);
      expect(node(v, addr(r))!.SessionIds.sort(), r).toEqual([...localTraces, branchTrace].sort());
      expect(new Set(node(v, addr(r))!.Agents.map((a) => a.AgentName)), r).toEqual(new Set(['Local Machine', 'Branch office']));
    }
    // The two paths meet at S1: from the branch's B1, and from the Local Machine's E1 and E2.
    expect(edge(v, addr('B1'), addr('S1'))!.SessionIds).toEqual([branchTrace]);
    expect(edge(v, addr('S1'), addr('S2'))!.SessionIds.sort()).toEqual([...localTraces, branchTrace].sort());
    expect(edge(v, addr('S2'), target)).toBeDefined();
    expect(node(v, target)!.Kind).toBe('Target');
    expect(v.Nodes.filter((n) => n.Kind === 'Agent').map((n) => n.Name).sort()).toEqual(['Branch office', 'Local Machine']);
  });

  it('draws both branches of the router with two equal-cost next hops', async () => {
    const v = await pathView('Summary', summaryId, changedAt - 2 * Minute, Date.now());
    for (const r of ['E1', 'E2'] as const) {
      expect(edge(v, addr('A1'), addr(r)), r).toBeDefined();
      expect(edge(v, addr(r), addr('S1')), r).toBeDefined();
    }
    // Each UDP flow took one branch, steadily: no route change on the Local Machine's traces.
    expect(v.RouteChanges.filter((c) => localTraces.includes(c.SessionId))).toEqual([]);
    const branches = localTraces.map((t) => [addr('E1'), addr('E2')].filter((a) => node(v, a)!.SessionIds.includes(t)));
    expect(branches.map((b) => b.length)).toEqual([1, 1]);
    expect(new Set(branches.flat()).size).toBe(2);
  });

  it('marks the route change at its minute, with the path before and after', async () => {
    const minute = Math.floor(changedAt / Minute) * Minute;
    const v = await pathView('Target', branchTrace, minute - 2 * Minute, minute + 2 * Minute);
    expect(v.RouteChanges).toEqual([
      { Time: new Date(minute).toISOString(), SessionId: branchTrace, AgentName: 'Branch office', TargetId: String(branchTrace), Hop: 2, Old: [addr('S1')], New: [addr('C')] },
    ]);
    const before = await pathView('Target', branchTrace, minute - Minute, minute);
    const after = await pathView('Target', branchTrace, minute + Minute, minute + 2 * Minute);
    expect(node(before, addr('S1'))).toBeDefined();
    expect(node(before, addr('C'))).toBeUndefined();
    expect(node(after, addr('C'))).toBeDefined();
    expect(node(after, addr('S1'))).toBeUndefined();
    expect(edge(after, addr('B1'), addr('C'))).toBeDefined();
    expect(edge(after, addr('C'), addr('S2'))).toBeDefined();
    // The summary's view lists the same change for that trace.
    const viaSummary = await pathView('Summary', summaryId, minute - 2 * Minute, minute + 2 * Minute);
    expect(viaSummary.RouteChanges.filter((c) => c.SessionId === branchTrace)).toEqual(v.RouteChanges);
  });
});
