// Issue 16, item 1: a trace starts a round every interval whatever earlier rounds still wait
// for (silent hops, timeouts above the interval, unreachable targets, route changes); the
// probes of rounds in flight together are matched to their own round; a round is delivered
// once all its probes are answered or timed out, in start order, carrying its start time.
// Counted on the simulated network's virtual clock: samples per minute = 60 s / interval (+-1).
import { afterEach, describe, expect, it } from 'vitest';
import type { SimScenario, SimulatedEngine, TraceHandle, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { collectRounds, hopStats } from '../netns/rounds.js';

const { createSimulatedEngine, LatencyCode } = engine;

let sim: SimulatedEngine;
const open: TraceHandle[] = [];
function trace(scenarios: SimScenario[], options: Parameters<SimulatedEngine['startTrace']>[0]): TraceHandle {
  sim ??= createSimulatedEngine({ scenarios });
  const h = sim.startTrace({ reverseDns: false, ...options });
  open.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.stop()));
  await sim?.shutdown();
  sim = undefined as unknown as SimulatedEngine;
});

/** Samples (rounds) whose time falls in each whole minute after the first round. */
function perMinute(rounds: TraceRound[]): number[] {
  const t0 = rounds[0].time;
  const counts: number[] = [];
  for (const r of rounds) {
    const minute = Math.floor((r.time - t0) / 60_000);
    counts[minute] = (counts[minute] ?? 0) + 1;
  }
  // The last minute may be partly gathered.
  return counts.slice(0, -1);
}

function expectCadence(rounds: TraceRound[], intervalMs: number): void {
  const expected = 60_000 / intervalMs;
  const minutes = perMinute(rounds);
  expect(minutes.length).toBeGreaterThanOrEqual(2);
  for (const n of minutes) expect(Math.abs(n - expected), `samples per minute ${minutes.join(', ')}`).toBeLessThanOrEqual(1);
  // Delivered in start order, one interval apart: a late round never shifts the time axis.
  for (let i = 1; i < rounds.length; i++) {
    expect(rounds[i].time - rounds[i - 1].time).toBe(intervalMs);
    expect(rounds[i].index).toBeGreaterThan(rounds[i - 1].index);
  }
}

const silentHop: SimScenario = {
  name: 'cadence-silent', seed: 3,
  hops: [
    { v4: '10.251.160.1', v6: 'fd00:251:160::1', rttMs: 0.5 },
    { silent: true, rttMs: 1 },
    { v4: '10.251.160.3', v6: 'fd00:251:160::3', rttMs: 1.5 },
  ],
  target: { v4: '10.251.160.99', v6: 'fd00:251:160::99', rttMs: 2 },
};

describe('a round every interval', () => {
  for (const family of [4, 6] as const) {
    it(`silent hop, timeout 3 s, interval 1 s, IPv${family}: 60 samples per minute, the silent hop timed out in each`, async () => {
      const target = family === 4 ? silentHop.target.v4! : silentHop.target.v6!;
      const rounds = await collectRounds(trace([silentHop], { target, intervalSeconds: 1, timeoutMs: 3000 }), 200);
      expectCadence(rounds, 1000);
      for (const r of rounds.slice(1)) {
        expect(r.reachedTarget).toBe(true);
        expect(r.hops.map((h) => h.reply)).toEqual(['timeExceeded', 'timeout', 'timeExceeded', 'echoReply']);
        expect(r.hops[1].rtt).toBe(LatencyCode.Timeout);
      }
    });
  }

  it('silent target, timeout 3 s, interval 2.5 s (UDP): 24 samples per minute, no round reaches it', async () => {
    const s: SimScenario = { ...silentHop, name: 'cadence-silent-target', target: { v4: '10.251.161.99', rttMs: 2, lossPercent: 100 } };
    const rounds = await collectRounds(trace([s], { target: '10.251.161.99', packetType: 'UDP', intervalSeconds: 2.5, timeoutMs: 3000, maxTtl: 8 }), 100);
    expectCadence(rounds, 2500);
    expect(rounds.every((r) => !r.reachedTarget)).toBe(true);
  });

  it('unreachable target, timeout 5 s, interval 1 s (TCP): 60 samples per minute, each ends at the unreachable hop', async () => {
    const s: SimScenario = { ...silentHop, name: 'cadence-unreachable', target: { v4: '10.251.162.99', rttMs: 2, unreachable: true } };
    const rounds = await collectRounds(trace([s], { target: '10.251.162.99', packetType: 'TCP', intervalSeconds: 1, timeoutMs: 5000 }), 150);
    expectCadence(rounds, 1000);
    for (const r of rounds.slice(1)) expect(r.hops.map((h) => h.reply)).toEqual(['timeExceeded', 'timeout', 'unreachable']);
  });

  it('a route change while rounds overlap: reported once, the cadence holds', async () => {
    const s: SimScenario = { ...silentHop, name: 'cadence-route', routeChanges: [{ atMs: 30_500, hop: 3, v4: '10.251.160.33' }] };
    const h = trace([s], { target: '10.251.160.99', intervalSeconds: 1, timeoutMs: 3000 });
    const changes: unknown[] = [];
    h.on('routeChange', (c) => changes.push({ ttl: c.ttl, previous: c.previous, current: c.current }));
    const rounds = await collectRounds(h, 150);
    expectCadence(rounds, 1000);
    expect(changes).toEqual([{ ttl: 3, previous: '10.251.160.3', current: '10.251.160.33' }]);
  });

  it('a lossy hop with timeout 3 s: rounds that end early wait for older ones, loss is measured per round', async () => {
    // A lost probe keeps its round 3 s; the next rounds, answered in ms, are delivered after it.
    const s: SimScenario = { name: 'cadence-lossy', seed: 5, hops: [{ v4: '10.251.163.1', rttMs: 0.5 }, { v4: '10.251.163.2', rttMs: 1, lossPercent: 30 }], target: { v4: '10.251.163.99', rttMs: 1.5 } };
    const rounds = await collectRounds(trace([s], { target: '10.251.163.99', intervalSeconds: 1, timeoutMs: 3000 }), 400);
    expectCadence(rounds, 1000);
    const stats = hopStats(rounds.slice(1));
    expect(stats.get(1)!.lost).toBe(0);
    expect(Math.abs(stats.get(2)!.loss - 0.3)).toBeLessThanOrEqual(0.07);
    expect(Math.abs(stats.get(3)!.loss - 0.3)).toBeLessThanOrEqual(0.07);
  });
});

describe('probes of overlapping rounds', () => {
  it('are matched to their own round: replies slower than the interval keep their own RTT', async () => {
    // Hop 2 answers after 1.8 s and hop 3 after 2.6 s: two and three later rounds are in flight by then.
    // A reply paired with another round's probe would show 0.8, 1.6, 2.8 or 3.6 s instead.
    const s: SimScenario = {
      name: 'cadence-slow', hops: [{ v4: '10.251.164.1', rttMs: 0.5 }, { v4: '10.251.164.2', rttMs: 1800 }, { v4: '10.251.164.3', rttMs: 2600 }],
      target: { v4: '10.251.164.99', rttMs: 2 },
    };
    for (const packetType of ['ICMP', 'UDP', 'TCP'] as const) {
      const rounds = await collectRounds(trace([s], { target: '10.251.164.99', packetType, intervalSeconds: 1, timeoutMs: 3000 }), 130);
      expectCadence(rounds, 1000);
      for (const r of rounds) expect(r.hops.map((h) => h.rtt), packetType).toEqual([0.5, 1800, 2600, 2]);
    }
  });

  it('many traces at once, each with rounds in flight together, keep their samples apart', async () => {
    const scenarios: SimScenario[] = [165, 166, 167].map((net, i) => ({
      name: `cadence-many-${net}`,
      hops: [{ v4: `10.251.${net}.1`, rttMs: 1 }, { silent: true, rttMs: 1 }, { v4: `10.251.${net}.3`, rttMs: 700 + 400 * i }],
      target: { v4: `10.251.${net}.99`, rttMs: 3 },
    }));
    const runs = scenarios.flatMap((s) => [0.5, 1].map((interval) => ({ s, interval, h: trace(scenarios, { target: s.target.v4!, intervalSeconds: interval, timeoutMs: 2500 }) })));
    const all = await Promise.all(runs.map((r) => collectRounds(r.h, 2.2 * 60 / r.interval)));
    runs.forEach((r, i) => {
      expectCadence(all[i], r.interval * 1000);
      for (const round of all[i]) {
        expect(round.hops.map((h) => h.address)).toEqual([r.s.hops[0].v4, null, r.s.hops[2].v4, r.s.target.v4]);
        expect(round.hops[2].rtt).toBe(r.s.hops[2].rttMs);
      }
    });
  });
});

describe('stop, pause and interval changes with rounds in flight', () => {
  it('stop() resolves once every round in flight ended; nothing comes after', async () => {
    const h = trace([silentHop], { target: '10.251.160.99', intervalSeconds: 0.5, timeoutMs: 3000 });
    await collectRounds(h, 10);
    const after: TraceRound[] = [];
    h.on('round', (r) => { if (!r.marker) after.push(r); });
    await h.stop();
    await sim.sleep(10_000);
    expect(after).toEqual([]);
    // The same engine runs a new trace afterwards.
    const again = await collectRounds(trace([silentHop], { target: '10.251.160.99', intervalSeconds: 1, timeoutMs: 3000 }), 3);
    expect(again[2].reachedTarget).toBe(true);
  });

  it('pause: no round starts while paused; rounds in flight are delivered, with their own start times', async () => {
    const h = trace([silentHop], { target: '10.251.160.99', intervalSeconds: 0.5, timeoutMs: 3000 });
    await collectRounds(h, 10);
    const all: TraceRound[] = [];
    h.on('round', (r) => all.push(r));
    h.pause();
    const pausedAt = sim.clock.wallMs();
    await sim.sleep(20_000);
    const late = all.filter((r) => !r.marker);
    // Up to timeout / interval rounds were in flight; none started after the pause.
    expect(late.length).toBeGreaterThan(0);
    expect(late.length).toBeLessThanOrEqual(6);
    expect(late.every((r) => r.time <= pausedAt)).toBe(true);
    h.resume();
    const rounds = await collectRounds(h, 260);
    expectCadence(rounds, 500);
    expect(rounds[0].time).toBeGreaterThanOrEqual(pausedAt + 20_000);
  });

  it('an interval change takes effect from the last round start, with rounds still in flight', async () => {
    const h = trace([silentHop], { target: '10.251.160.99', intervalSeconds: 1, timeoutMs: 3000 });
    await collectRounds(h, 5);
    h.setInterval(2);
    const rounds = await collectRounds(h, 70);
    // The rounds in flight at the change still arrive, a second apart; then every 2 s.
    const later = rounds.filter((r, i) => i > 0 && r.time - rounds[i - 1].time === 2000);
    expect(later.length).toBeGreaterThanOrEqual(64);
    expectCadence(rounds.slice(rounds.length - later.length), 2000);
  });
});
