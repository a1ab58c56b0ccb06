// Insights on real network faults: chains of network namespaces (topology ids 90-95) with
// the faults injected by nftables and tbf, traced by the real engine (raw sockets, root),
// then judged by the same pipeline as stored data (bucket kernel -> series -> catalogue).
// Time is compressed: rounds run every 100 ms for ~72 s and are relabelled one second
// apart (12 "minutes"), so the 10-minute rule and the load phases (6 s on, 6 s off: one
// relabelled minute each) are met in a test's time. Each scenario's verdict is printed.
// Scenarios: clean path; loss from link 3; a router that rate-limits its own ICMP answers
// (red herring); saturation of link 3 (tbf 1 Mbit/s plus UDP load from router 2's
// namespace); a silent first hop (firewall); an unreachable target; too little data (the
// clean run's first 5 relabelled minutes).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceRound } from '../../engine/index.js';
import { LatencyCode } from '../../engine/latency-codes.js';
import { runWisdomTests } from '../../server/insights/catalogue.js';
import { insightBucketMs, seriesFromBuckets } from '../../server/insights/build.js';
import { loadBuiltKernels } from '../../wasm/testing/built-kernels.js';
import { engine } from '../support/built.js';
import { asRoot, collectRounds } from '../netns/rounds.js';
import type { Scenario } from '../netns/scenario.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import type { Expected } from './model.js';
import { judge } from './verdict.js';

const ROUNDS = 720;
const INTERVAL_S = 0.1;
const Start = Date.UTC(2026, 10, 21, 8, 0, 0);

interface NetScenario {
  name: string;
  topology: Scenario;
  /** Set up after the topology exists (nft rules, load); returns what to stop. */
  extra?: (t: Topology) => ChildProcess | undefined;
  expect: (t: Topology) => Expected;
  /** Use only this many rounds (too little data). */
  rounds?: number;
  /** Judge another scenario's rounds. */
  sameRoundsAs?: string;
}

/** UDP load from a router's namespace to the target: 2 Mbit/s in 6 s on / 6 s off phases. */
function loadFrom(ns: string, target: string): ChildProcess {
  const script = `
    const s = require('node:dgram').createSocket('udp4');
    const buf = Buffer.alloc(1000);
    const t0 = Date.now();
    setInterval(() => { if (Math.floor((Date.now() - t0) / 6000) % 2 === 0) for (let i = 0; i < 2; i++) s.send(buf, 9, '${target}'); }, 8);
  `;
  return spawn('ip', ['netns', 'exec', ns, process.execPath, '-e', script], { stdio: 'ignore' });
}

const scenarios: NetScenario[] = [
  { name: 'clean-path', topology: { id: 90, routers: 4 }, expect: () => ({ potential: [] }) },
  {
    name: 'loss-from-link-3',
    topology: { id: 91, routers: 4, loss: [{ router: 3, percent: 10 }] },
    expect: () => ({ potential: [{ test: 200, outcome: 500, hop: 3 }], allowed: [302] }),
  },
  {
    name: 'icmp-rate-limit-hop-2',
    topology: { id: 92, routers: 4 },
    extra: (t) => {
      // Router 2 drops 40% of the time-exceeded answers it sends itself; it forwards everything.
      t.exec(2, ['nft', 'add', 'table', 'inet', 'hwrl']);
      t.exec(2, ['nft', 'add chain inet hwrl out { type filter hook output priority 0 ; }']);
      t.exec(2, ['nft', 'add rule inet hwrl out icmp type time-exceeded numgen random mod 100 < 40 drop']);
      return undefined;
    },
    expect: () => ({ potential: [], redHerrings: [{ hop: 2, loss: true }] }),
  },
  {
    name: 'saturation-link-3',
    topology: { id: 93, routers: 4, rateLimit: { router: 2, rate: '1mbit', burst: '32kbit', latency: '300ms' } },
    extra: (t) => loadFrom('hw93-r2', t.target.v4),
    // Tail drops in the full queue are loss from hop 3 on too; the target's latency varies.
    expect: () => ({ potential: [{ test: 201, outcome: 502, hop: 3 }], allowed: [200, 301, 302] }),
  },
  { name: 'firewall-hop-1', topology: { id: 94, routers: 4, silent: [1] }, expect: () => ({ potential: [{ test: 100, outcome: 100, hop: 1 }] }) },
  {
    name: 'unreachable-target',
    topology: { id: 95, routers: 3, unreachableTarget: true },
    // Router 3 has the unreachable route: it answers "unreachable" (rate limited by the
    // kernel's ip_error) instead of time exceeded, so it is the last hop that answered.
    expect: () => ({ potential: [{ test: 300, outcome: 1000, hop: 3 }] }),
  },
  { name: 'too-little-data', topology: { id: 90, routers: 4 }, sameRoundsAs: 'clean-path', rounds: 300, expect: () => ({ potential: [], notRun: true }) },
];

/** Rounds to sample columns, round i relabelled at Start + i seconds; hosts by most frequent address. */
function toSeries(rounds: TraceRound[], target: string, name: string) {
  const time: number[] = [];
  const hop: number[] = [];
  const latency: number[] = [];
  const seen = new Map<number, Map<string, number>>();
  rounds.forEach((r, i) => {
    for (const h of r.hops) {
      time.push(Start + i * 1000 + h.ttl);
      hop.push(h.ttl);
      latency.push(h.reply === 'timeout' ? LatencyCode.Timeout : h.rtt);
      if (h.address) {
        const m = seen.get(h.ttl) ?? new Map<string, number>();
        m.set(h.address, (m.get(h.address) ?? 0) + 1);
        seen.set(h.ttl, m);
      }
    }
  });
  const hosts = [...seen].map(([ttl, m]) => ({ hop: ttl, address: [...m].sort((a, b) => b[1] - a[1])[0][0], name: '' }));
  const end = Start + rounds.length * 1000;
  const bucketMs = insightBucketMs(end - Start, 1000);
  const hopCount = Math.max(1, ...hop);
  const samples = { time: Float64Array.from(time), hop: Int32Array.from(hop), latency: Float64Array.from(latency) };
  const buckets = kernels.bucketSamples(samples, { start: Start, period: bucketMs, bucketCount: Math.ceil((end - Start) / bucketMs), hopCount });
  return seriesFromBuckets(buckets, { targetId: '1', targetName: name, targetAddress: target, start: Start, end, traceIntervalMs: 1000, hosts });
}

const kernels = loadBuiltKernels();

describe.skipIf(!asRoot)('Insights on netns networks with injected faults', () => {
  const topologies = new Map<string, Topology>();
  const loads: ChildProcess[] = [];
  const rounds = new Map<string, TraceRound[]>();
  const verdicts: string[] = [];

  beforeAll(async () => {
    for (const s of scenarios.filter((x) => !x.sameRoundsAs)) {
      const t = buildTopology(s.topology);
      topologies.set(s.name, t);
      const load = s.extra?.(t);
      if (load) loads.push(load);
    }
    // All traces at once: each topology is its own chain, so they do not disturb each other.
    const traced = [...topologies].map(([name, t]) => {
      const handle = engine.startTrace({ target: t.target.v4, packetType: 'ICMP', intervalSeconds: INTERVAL_S, timeoutMs: 1000, maxTtl: 8, reverseDns: false });
      return collectRounds(handle, ROUNDS, 300_000).then(
        async (r) => {
          await handle.stop();
          rounds.set(name, r);
        },
        async (e) => {
          await handle.stop();
          throw e;
        },
      );
    });
    await Promise.all(traced);
  }, 330_000);

  afterAll(async () => {
    for (const l of loads) if (l.pid) process.kill(l.pid);
    for (const t of topologies.values()) t.destroy();
    await engine.shutdownEngine();
    console.log(['', 'Insights scenario verdicts (netns, one run each):', ...verdicts].join('\n'));
  });

  for (const s of scenarios) {
    it(s.name, () => {
      const source = rounds.get(s.sameRoundsAs ?? s.name)!;
      const t = topologies.get(s.sameRoundsAs ?? s.name)!;
      const used = s.rounds ? source.slice(0, s.rounds) : source;
      const results = runWisdomTests(toSeries(used, t.target.v4, s.name), kernels.stats, { includeDetails: false });
      const v = judge(results, s.expect(t));
      verdicts.push(`${s.name.padEnd(24)} ${v.ok ? 'right' : 'WRONG'}   ${v.found}${v.ok ? '' : `   (${v.problems.join('; ')})`}`);
      expect(v.problems).toEqual([]);
    });
  }
});
