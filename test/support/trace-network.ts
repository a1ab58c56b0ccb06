// The network a suite's traces go through: as root, a netns topology of real routers
// (test/netns/topology.ts) probed with raw sockets; as any other user, the same scenario on
// the engine's simulated network (same addresses, loss, silent routers, firewall and
// unreachable target), which the appliance runs when started with `env` below. Suites that
// need a trace run either way instead of skipping.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimScenario } from '../../engine/index.js';
import { asRoot } from '../netns/rounds.js';
import type { Scenario } from '../netns/scenario.js';
import { buildTopology } from '../netns/topology.js';

export interface TraceNetwork {
  /** True when traces run on the simulated engine (not root). */
  simulated: boolean;
  target: { v4: string; v6: string };
  /** Responder of hop k (1-based; hop routers+1 is the target). */
  hop(k: number): { v4: string; v6: string };
  /** Environment for startAppliance: which engine, and the scenario when simulated. */
  env: Record<string, string>;
  destroy(): void;
}

/** The engine a suite's appliance should use when it only traces loopback (simulated: loopback is built in). */
export function engineEnv(): Record<string, string> {
  return asRoot ? {} : { HOPWATCH_ENGINE: 'simulated' };
}

/** Addresses as topology.ts gives them: link k joins node k and node k+1. */
const v4 = (id: number, link: number, end: 1 | 2) => `10.251.${id}.${link * 8 + end}`;
const v6 = (id: number, link: number, end: 1 | 2) => (link === 0 ? `fd00:251:${id}::${end}` : `fd00:251:${id}:${link}::${end}`);
const UNREACHABLE_LINK = 29;

/** The simulated twin of a netns scenario (route changes by changeRoute() have no twin). */
export function simScenarioOf(s: Scenario): SimScenario {
  if (s.alternateRouter !== undefined || s.rateLimit !== undefined) throw new Error('alternate routers and rate limits have no simulated twin');
  const hop = (k: number) => ({ v4: v4(s.id, k - 1, 2), v6: v6(s.id, k - 1, 2) });
  const lossAt = (k: number) => s.loss?.find((l) => l.router === k)?.percent;
  return {
    name: `netns-${s.id}`,
    source: { v4: v4(s.id, 0, 1), v6: v6(s.id, 0, 1) },
    hops: Array.from({ length: s.routers }, (_, i) => ({
      ...hop(i + 1),
      rttMs: 0.1 * (i + 1),
      lossPercent: lossAt(i + 1),
      silent: s.silent?.includes(i + 1),
      dropsIcmpEcho: i === 0 && s.icmpFirewallAtHop1 ? true : undefined,
    })),
    target: s.unreachableTarget
      ? { v4: v4(s.id, UNREACHABLE_LINK, 2), v6: v6(s.id, UNREACHABLE_LINK, 2), rttMs: 0.1 * (s.routers + 1), unreachable: true }
      : { ...hop(s.routers + 1), rttMs: 0.1 * (s.routers + 1) },
  };
}

export function traceNetwork(s: Scenario): TraceNetwork {
  if (asRoot) {
    const topo = buildTopology(s);
    return { simulated: false, target: topo.target, hop: topo.hop, env: {}, destroy: () => topo.destroy() };
  }
  const scenario = simScenarioOf(s);
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-sim-'));
  const file = join(dir, `${scenario.name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return {
    simulated: true,
    target: { v4: scenario.target.v4!, v6: scenario.target.v6! },
    hop: (k) => (k === s.routers + 1 ? { v4: scenario.target.v4!, v6: scenario.target.v6! } : { v4: scenario.hops[k - 1].v4!, v6: scenario.hops[k - 1].v6! }),
    env: { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file },
    destroy: () => rmSync(dir, { recursive: true, force: true }),
  };
}
