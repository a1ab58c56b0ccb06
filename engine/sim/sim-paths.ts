// What the simulated network does with one probe: walks the scenario's path hop by hop (loss
// where a hop drops it, the TTL running out at a router, a firewall, a missing route, the
// target) and says which reply comes back after how long, or none. One SimPath per scenario;
// its state (route changes by elapsed time, the seeded random numbers) lives as long as the
// simulated engine, so it does not reset when the trace link closes and opens again.
import { EngineError } from '../errors.js';
import type { ProbeClock } from '../probe/network.js';
import type { SimHop, SimScenario } from './scenario.js';
import { echoReply, rewriteDscp, tcpReply, timeExceeded, translateSource, unreachable, type SentProbe, type SimReply } from './sim-packets.js';
import type { MplsLabel } from '../codec/icmp-extensions.js';

/** A scenario hop's label stack as a router reports it: the last entry is the bottom. */
function labelStack(hop: SimHop): MplsLabel[] | undefined {
  const mpls = hop.mpls;
  if (!mpls || mpls.length === 0) return undefined;
  return mpls.map((l, i) => ({ label: l.label, exp: l.exp ?? 0, bottomOfStack: i === mpls.length - 1, ttl: l.ttl ?? 1 }));
}

export interface SimAnswer {
  reply: SimReply;
  rttMs: number;
}

const DEFAULT_SOURCE = { v4: '10.251.0.1', v6: 'fd00:251::1' };

/** mulberry32: a small seeded generator, so a scenario's losses are the same every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class SimPath {
  private readonly random: () => number;
  /** Clock ms of the first probe toward the target: route changes count from there. */
  private firstProbeMs: number | null = null;
  /** Per hop with balancedWith: how many probes expired there (which router answers next). */
  private readonly balanced = new Map<number, number>();

  constructor(readonly scenario: SimScenario, private readonly clock: ProbeClock) {
    this.random = seeded(scenario.seed ?? 1);
  }

  source(family: 4 | 6): string {
    return (family === 4 ? this.scenario.source?.v4 : this.scenario.source?.v6) ?? DEFAULT_SOURCE[family === 4 ? 'v4' : 'v6'];
  }

  /** The routers now: the scenario's, with the route changes that are due applied. */
  private hops(): SimHop[] {
    const elapsed = this.clock.monoNs() / 1e6 - (this.firstProbeMs ?? Infinity);
    const changes = (this.scenario.routeChanges ?? []).filter((c) => elapsed >= c.atMs);
    if (changes.length === 0) return this.scenario.hops;
    const hops = [...this.scenario.hops];
    for (const c of changes) hops[c.hop - 1] = { ...hops[c.hop - 1], v4: c.v4, v6: c.v6, silent: false };
    return hops;
  }

  answer(sent: SentProbe): SimAnswer | null {
    let p = sent;
    this.firstProbeMs ??= this.clock.monoNs() / 1e6;
    const hops = this.hops();
    const target = this.scenario.target;
    const at = (node: { v4?: string; v6?: string }) => (p.family === 4 ? node.v4 : node.v6);
    const rtt = (node: SimHop) => node.rttMs + (node.jitterMs ? this.random() * node.jitterMs : 0);
    for (let k = 1; k <= hops.length; k++) {
      const node = hops[k - 1];
      if (this.lost(node)) return null;
      let address = at(node);
      if (p.ttl === k && node.balancedWith?.length) {
        const turn = this.balanced.get(k) ?? 0;
        this.balanced.set(k, turn + 1);
        const routers: { v4?: string; v6?: string }[] = [node, ...node.balancedWith];
        address = at(routers[turn % routers.length]);
      }
      // Linux routes before it checks the TTL: the last router without a route to the
      // target answers unreachable whatever TTL is left.
      if (k === hops.length && target.unreachable) return address ? { reply: unreachable(p, address, 'host'), rttMs: rtt(node) } : null;
      if (p.ttl === k) return node.silent || !address ? null : { reply: timeExceeded(p, address, labelStack(node)), rttMs: rtt(node) };
      if (node.dropsIcmpEcho && p.protocol === 'icmp') return null;
      if (node.nat && node.v4) p = translateSource(p, node.v4);
      if (node.setsDscp !== undefined) p = rewriteDscp(p, node.setsDscp);
    }
    if (this.lost(target)) return null;
    const reply = p.protocol === 'icmp' ? echoReply(p) : p.protocol === 'udp' ? unreachable(p, p.destination, 'port') : tcpReply(p, target.tcp ?? 'rst');
    return { reply, rttMs: rtt(target) };
  }

  private lost(node: SimHop): boolean {
    return node.lossPercent !== undefined && node.lossPercent > 0 && this.random() * 100 < node.lossPercent;
  }
}

/** Every scenario of a simulated engine, by target address. */
export class SimPaths {
  private readonly byTarget = new Map<string, SimPath>();

  constructor(scenarios: SimScenario[], clock: ProbeClock) {
    for (const s of scenarios) {
      const path = new SimPath(s, clock);
      for (const a of [s.target.v4, s.target.v6]) {
        if (a === undefined) continue;
        if (this.byTarget.has(a)) throw new Error(`scenario ${s.name}: target ${a} is also the target of ${this.byTarget.get(a)!.scenario.name}`);
        this.byTarget.set(a, path);
      }
    }
  }

  get(destination: string): SimPath | undefined {
    return this.byTarget.get(destination);
  }

  /** As the kernel would say for an address outside every scenario: no route. */
  route(destination: string): SimPath {
    const path = this.byTarget.get(destination);
    if (!path) throw new EngineError('NoRoute', `No route to ${destination}: it is not a target of the simulated network's scenarios`);
    return path;
  }
}
