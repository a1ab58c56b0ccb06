// Issue 16, item 1 on real sockets: a chain whose router 2 never answers, 20% loss at router 3,
// a 1 s interval and a 3 s timeout. Before, every round waited for the silent hop and a trace
// gathered 44 samples in 90 s beside mtr's 90. Now one round starts every second: ICMP, UDP and
// TCP traces and mtr (Debian mtr-tiny, ICMP, same path, same minute) each count 60 +-1 samples
// in a minute, and our per-hop loss equals mtr's within binomial noise.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PacketType, TraceHandle, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { buildTopology, type Topology } from './topology.js';
import { asRoot, hopStats } from './rounds.js';

const { startTrace, shutdownEngine, LatencyCode } = engine;
const run = promisify(execFile);

const MINUTE_MS = 60_000;
const INTERVAL_S = 1;
/** Loss of 60 samples at 20%: one standard deviation of the difference of two such figures is ~7.3%. */
const LOSS_TOLERANCE = 0.22;

interface MtrHub { count: number; host: string; 'Loss%': number; Snt: number }

/** Rounds of a trace whose start falls in the first minute after its first round. */
function firstMinute(h: TraceHandle): Promise<TraceRound[]> {
  const rounds: TraceRound[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${rounds.length} rounds in 120 s`)), 120_000);
    h.on('error', (e) => { clearTimeout(timer); reject(e); });
    h.on('round', (r) => {
      if (r.marker) return;
      // Rounds arrive in start order: the first one past the minute closes it.
      if (rounds.length > 0 && r.time - rounds[0].time >= MINUTE_MS) { clearTimeout(timer); resolve(rounds); return; }
      rounds.push(r);
    });
  });
}

describe.skipIf(!asRoot)('cadence beside mtr: silent router, 1 s interval, 3 s timeout', () => {
  let topo: Topology;
  const ours = new Map<PacketType, TraceRound[]>();
  let mtr: MtrHub[] = [];
  /** waitingTtls() of each trace, asked 5 s into the minute (native rounds: the addon's rounds in flight). */
  let waiting: number[][] = [];

  beforeAll(async () => {
    topo = buildTopology({ id: 171, routers: 3, silent: [2], loss: [{ router: 3, percent: 20 }] });
    const types: PacketType[] = ['ICMP', 'UDP', 'TCP'];
    const handles = types.map((packetType) =>
      startTrace({ target: topo.target.v4, packetType, intervalSeconds: INTERVAL_S, timeoutMs: 3000, maxTtl: 8, reverseDns: false }));
    try {
      const asked = new Promise<void>((resolve) => setTimeout(resolve, 5000)).then(async () => {
        waiting = await Promise.all(handles.map((h) => h.waitingTtls()));
      });
      const [mtrOut, ...rounds] = await Promise.all([
        run('mtr', ['-n', '--report', '--json', '-c', String(MINUTE_MS / 1000 / INTERVAL_S), '-i', String(INTERVAL_S), topo.target.v4]),
        ...handles.map(firstMinute),
      ]);
      await asked;
      types.forEach((t, i) => ours.set(t, rounds[i]));
      mtr = (JSON.parse(mtrOut.stdout) as { report: { hubs: MtrHub[] } }).report.hubs;
    } finally {
      await Promise.all(handles.map((h) => h.stop()));
    }
    const target = mtr.find((x) => x.host === topo.target.v4);
    console.log(`samples in one minute at ${INTERVAL_S} s: ${types.map((t) => `${t} ${ours.get(t)!.length}`).join(', ')}; mtr ${target?.Snt} (sent per hop)`);
    console.log(`loss per hop, ours (ICMP) / mtr: ${[...hopStats(ours.get('ICMP')!)].map(([ttl, s]) => `${ttl}: ${(s.loss * 100).toFixed(1)}% / ${mtr[ttl - 1]?.['Loss%']}%`).join(', ')}`);
  }, 180_000);

  afterAll(async () => {
    topo?.destroy();
    await shutdownEngine();
  });

  it('waitingTtls: the silent hop is Pending (its newest probe is out for 3 s)', () => {
    // Other TTLs are Pending only while a probe lost at router 3 waits for its timeout (rounds
    // started before the first one ended probe up to maxTtl 8).
    expect(waiting).toHaveLength(3);
    for (const ttls of waiting) {
      expect(ttls).toContain(2);
      expect(ttls).toEqual([...new Set(ttls)].sort((a, b) => a - b));
      expect(ttls.every((t) => t >= 1 && t <= 8)).toBe(true);
    }
  });

  for (const type of ['ICMP', 'UDP', 'TCP'] as const) {
    it(`${type}: 60 +-1 samples in the minute, in start order, the silent hop timed out in each`, () => {
      const rounds = ours.get(type)!;
      expect(Math.abs(rounds.length - MINUTE_MS / 1000 / INTERVAL_S)).toBeLessThanOrEqual(1);
      for (let i = 1; i < rounds.length; i++) expect(Math.round(rounds[i].time - rounds[i - 1].time)).toBeGreaterThan(0);
      for (const r of rounds) {
        const hop2 = r.hops.find((h) => h.ttl === 2);
        expect(hop2?.rtt).toBe(LatencyCode.Timeout);
      }
      expect(rounds.filter((r) => r.reachedTarget).length).toBeGreaterThan(rounds.length / 2);
    });
  }

  it('mtr sent as many probes per hop in the same minute as we gathered samples', () => {
    const target = mtr.find((x) => x.host === topo.target.v4)!;
    expect(target).toBeDefined();
    expect(Math.abs(target.Snt - ours.get('ICMP')!.length)).toBeLessThanOrEqual(1);
  });

  it('our loss per hop equals mtr\'s: none at hop 1, all at the silent hop, ~20% from router 3 on', () => {
    const stats = hopStats(ours.get('ICMP')!);
    expect(mtr.map((x) => x.count)).toEqual([1, 2, 3, 4]);
    expect(mtr[1].host).toBe('???');
    for (const hub of mtr) {
      const s = stats.get(hub.count)!;
      expect(Math.abs(s.loss * 100 - hub['Loss%']), `hop ${hub.count}: ours ${s.loss * 100}%, mtr ${hub['Loss%']}%`).toBeLessThanOrEqual(LOSS_TOLERANCE * 100);
    }
    expect(stats.get(1)!.lost).toBe(0);
    expect(stats.get(2)!.loss).toBe(1);
    expect(stats.get(3)!.loss).toBeGreaterThan(0);
  });
});
