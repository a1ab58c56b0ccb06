// The engine's logic on the simulated network (virtual time, any user): matching of replies
// among many traces at once, timeouts and late replies, round pacing, pause/resume and
// interval changes, final-hop-only, retargeting, stop and shutdown, and the errors a user
// sees. Real probe bytes go out and real reply bytes come back through the engine's parsers;
// only the sockets and the clock are simulated (docs/engine.md, Network seam).
import { afterEach, describe, expect, it } from 'vitest';
import type { PacketType, SimScenario, SimulatedEngine, TraceHandle, TraceRound } from '../../engine/index.js';
import { engine } from '../support/built.js';
import { collectRounds, hopStats } from '../netns/rounds.js';

const { createSimulatedEngine, LatencyCode, EngineError } = engine;

/** A chain of `routers` routers and a target at 10.251.{net}.x / fd00:251:{net}::x. */
function chain(net: number, routers: number, extra: Partial<SimScenario> = {}): SimScenario {
  return {
    name: `chain-${net}`,
    hops: Array.from({ length: routers }, (_, i) => ({ v4: `10.251.${net}.${i + 1}`, v6: `fd00:251:${net}::${i + 1}`, rttMs: 0.5 * (i + 1) })),
    target: { v4: `10.251.${net}.99`, v6: `fd00:251:${net}::99`, rttMs: 0.5 * (routers + 1) },
    ...extra,
  };
}

let sim: SimulatedEngine;
const open: TraceHandle[] = [];
function start(scenarios: SimScenario[]): SimulatedEngine {
  sim = createSimulatedEngine({ scenarios });
  return sim;
}
function trace(options: Parameters<SimulatedEngine['startTrace']>[0]): TraceHandle {
  const h = sim.startTrace({ reverseDns: false, intervalSeconds: 1, timeoutMs: 500, ...options });
  open.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.stop()));
  await sim?.shutdown();
});

describe('matching', () => {
  it('keeps the replies of many traces at once apart: every round is complete and of its own protocol and path', async () => {
    const a = chain(201, 3);
    const b = chain(202, 5);
    start([a, b]);
    const types: PacketType[] = ['ICMP', 'UDP', 'TCP'];
    const runs: { key: string; h: TraceHandle; s: SimScenario; family: 4 | 6; type: PacketType }[] = [];
    for (const s of [a, b]) for (const family of [4, 6] as const) for (const type of types) for (let copy = 0; copy < 4; copy++) {
      runs.push({ key: `${s.name}/${type}/v${family}/${copy}`, s, family, type, h: trace({ target: family === 4 ? s.target.v4! : s.target.v6!, packetType: type, intervalSeconds: 0.2 }) });
    }
    const all = await Promise.all(runs.map((r) => collectRounds(r.h, 20)));
    const finalReply = { ICMP: 'echoReply', UDP: 'unreachable', TCP: 'tcpReply' } as const;
    runs.forEach((r, i) => {
      const pick = (x: { v4?: string; v6?: string }) => (r.family === 4 ? x.v4 : x.v6);
      for (const round of all[i]) {
        expect(round.reachedTarget, r.key).toBe(true);
        expect(round.hops.map((h) => h.address), r.key).toEqual([...r.s.hops.map(pick), pick(r.s.target)]);
        expect(round.hops.slice(0, -1).every((h) => h.reply === 'timeExceeded'), r.key).toBe(true);
        expect(round.hops[round.hops.length - 1].reply, r.key).toBe(finalReply[r.type]);
      }
    });
  });

  it('measures each probe from its own send time to its own reply', async () => {
    const s = chain(203, 4);
    start([s]);
    const rounds = await collectRounds(trace({ target: s.target.v4!, packetType: 'UDP' }), 3);
    for (const r of rounds) {
      // The simulation stamps a reply exactly at send time + the hop's rtt.
      expect(r.hops.map((h) => h.rtt)).toEqual([0.5, 1, 1.5, 2, 2.5]);
    }
  });

  it('matches TCP resets that acknowledge the data of bigger SYNs, and SYN-ACKs, over IPv4 and IPv6', async () => {
    const closed = chain(204, 2);
    const openPort = chain(205, 2, { target: { v4: '10.251.205.99', v6: 'fd00:251:205::99', rttMs: 1.5, tcp: 'synAck' } });
    start([closed, openPort]);
    for (const s of [closed, openPort]) {
      for (const target of [s.target.v4!, s.target.v6!]) {
        for (const packetSize of [40, 41, 100, 1000]) {
          const rounds = await collectRounds(trace({ target, packetType: 'TCP', packetSize, tcpPort: 443 }), 2);
          for (const r of rounds) {
            expect(r.reachedTarget, `${target} ${packetSize}`).toBe(true);
            expect(r.hops[2]).toMatchObject({ ttl: 3, address: target, reply: 'tcpReply' });
          }
        }
      }
    }
  });
});

describe('timeouts', () => {
  it('counts a reply later than the timeout as lost, and the round ends at the timeout', async () => {
    const s = chain(206, 3);
    // Router 2 is slow to answer (its time exceeded takes 300 ms); the probes it forwards are not.
    s.hops[1].rttMs = 300;
    start([s]);
    const rounds = await collectRounds(trace({ target: s.target.v4!, timeoutMs: 200, intervalSeconds: 1 }), 5);
    for (const r of rounds) {
      expect(r.hops[1]).toMatchObject({ ttl: 2, address: null, rtt: LatencyCode.Timeout, reply: 'timeout' });
      expect(r.hops[3]).toMatchObject({ ttl: 4, address: s.target.v4, reply: 'echoReply' });
    }
    // With a 400 ms timeout the same answers are in time.
    const later = await collectRounds(trace({ target: s.target.v4!, timeoutMs: 400 }), 3);
    for (const r of later) expect(r.hops[1]).toMatchObject({ address: s.hops[1].v4, rtt: 300 });
  });

  it('overlaps rounds: a round waiting for its timeout never delays the next (more in cadence.test.ts)', async () => {
    start([chain(207, 3, { hops: [{ v4: '10.251.207.1', rttMs: 1 }, { silent: true, rttMs: 1 }, { v4: '10.251.207.3', rttMs: 1 }] })]);
    const rounds = await collectRounds(trace({ target: '10.251.207.99', intervalSeconds: 0.1, timeoutMs: 300 }), 6);
    for (let i = 1; i < rounds.length; i++) expect(rounds[i].time - rounds[i - 1].time).toBe(100);
  });

  it('ends the hop list one "*" after the last answer when nothing further answers', async () => {
    const s = chain(208, 2, { target: { v4: '10.251.208.99', rttMs: 1, lossPercent: 100 } });
    start([s]);
    const rounds = await collectRounds(trace({ target: '10.251.208.99', maxTtl: 12, timeoutMs: 100 }), 3);
    for (const r of rounds) {
      expect(r.reachedTarget).toBe(false);
      expect(r.hops.map((h) => h.address)).toEqual(['10.251.208.1', '10.251.208.2', null]);
    }
  });
});

describe('loss', () => {
  it('measures loss where it starts and after, none before', async () => {
    const s = chain(209, 4, { seed: 7 });
    s.hops[2].lossPercent = 20;
    start([s]);
    const stats = hopStats(await collectRounds(trace({ target: s.target.v4!, intervalSeconds: 0.5, timeoutMs: 100 }), 300));
    expect(stats.get(1)!.lost).toBe(0);
    expect(stats.get(2)!.lost).toBe(0);
    for (const ttl of [3, 4, 5]) expect(Math.abs(stats.get(ttl)!.loss - 0.2)).toBeLessThanOrEqual(0.07);
  });
});

describe('route changes', () => {
  it('reports a new address at a hop as a route change, once', async () => {
    const s = chain(210, 3, { routeChanges: [{ atMs: 2500, hop: 3, v4: '10.251.210.33', v6: 'fd00:251:210::33' }] });
    start([s]);
    const h = trace({ target: s.target.v6!, packetType: 'TCP' });
    const changes: unknown[] = [];
    h.on('routeChange', (c) => changes.push({ ttl: c.ttl, previous: c.previous, current: c.current }));
    const rounds = await collectRounds(h, 6);
    expect(changes).toEqual([{ ttl: 3, previous: 'fd00:251:210::3', current: 'fd00:251:210::33' }]);
    expect(rounds[5].hops[2].address).toBe('fd00:251:210::33');
  });
});

describe('pause, resume and intervals', () => {
  it('pauses with a stop marker, runs nothing while paused, resumes with a start marker at the new interval', async () => {
    const s = chain(211, 3);
    start([s]);
    const h = trace({ target: s.target.v4!, intervalSeconds: 0.05 });
    await collectRounds(h, 3);
    const all: TraceRound[] = [];
    h.on('round', (r) => all.push(r));
    h.pause();
    expect(h.state).toBe('paused');
    expect(all[0].marker).toBe('stop');
    expect(all[0].hops.map((x) => x.rtt)).toEqual([LatencyCode.StopStart, LatencyCode.StopStart, LatencyCode.StopStart, LatencyCode.StopStart]);
    await sim.sleep(5000);
    // At most the round that was in flight when the pause was asked.
    expect(all.filter((r) => !r.marker).length).toBeLessThanOrEqual(1);
    all.length = 0;
    h.setInterval(0.2);
    h.resume();
    expect(all[0].marker).toBe('start');
    const rounds = await collectRounds(h, 4);
    for (let i = 1; i < rounds.length; i++) expect(rounds[i].time - rounds[i - 1].time).toBeGreaterThanOrEqual(200);
  });

  it('keeps its cadence: rounds start one interval apart when they end in time', async () => {
    const s = chain(212, 2);
    start([s]);
    const rounds = await collectRounds(trace({ target: s.target.v4!, intervalSeconds: 2.5 }), 5);
    for (let i = 1; i < rounds.length; i++) expect(rounds[i].time - rounds[i - 1].time).toBe(2500);
  });

  it('runs no round until resumed when paused before the target resolved', async () => {
    const s = chain(213, 2);
    start([s]);
    let answer: (a: string) => void = () => {};
    const h = trace({ target: 'slow.hopwatch.test', resolveName: () => new Promise<string>((ok) => { answer = ok; }) });
    const rounds: TraceRound[] = [];
    h.on('round', (r) => rounds.push(r));
    h.pause();
    await new Promise((ok) => setImmediate(ok));
    answer(s.target.v4!);
    await sim.sleep(3000);
    expect(h.state).toBe('paused');
    expect(rounds.filter((r) => !r.marker)).toEqual([]);
    h.resume();
    await collectRounds(h, 2);
    expect(h.state).toBe('running');
  });

  it('probes only the final hop when asked; the others are not participating', async () => {
    const s = chain(214, 3);
    start([s]);
    const h = trace({ target: s.target.v4!, packetType: 'UDP', finalHopOnly: true });
    const rounds = await collectRounds(h, 3);
    const last = rounds[2];
    expect(last.hops.map((x) => x.ttl)).toEqual([1, 2, 3, 4]);
    expect(last.hops.slice(0, 3).every((x) => x.rtt === LatencyCode.NotParticipating)).toBe(true);
    expect(last.hops[3]).toMatchObject({ address: s.target.v4, rtt: 2 });
    h.setFinalHopOnly(false);
    const full = await collectRounds(h, 2);
    expect(full[1].hops.map((x) => x.address)).toEqual(['10.251.214.1', '10.251.214.2', '10.251.214.3', s.target.v4]);
  });

  it('spaces the probes of a round with interHopDelayMs and still gets every answer', async () => {
    const s = chain(215, 3);
    start([s]);
    const rounds = await collectRounds(trace({ target: s.target.v4!, interHopDelayMs: 20, maxTtl: 6 }), 3);
    for (const r of rounds.slice(1)) expect(r.hops.map((x) => x.reply)).toEqual(['timeExceeded', 'timeExceeded', 'timeExceeded', 'echoReply']);
  });
});

describe('round times', () => {
  /** A chain whose replies come back in the millisecond the probes went out. */
  function instant(net: number): SimScenario {
    const s = chain(net, 2);
    return { ...s, hops: s.hops.map((x) => ({ ...x, rttMs: 0 })), target: { ...s.target, rttMs: 0 } };
  }

  // The server takes a round in the same millisecond as one it has as the same round (a resent
  // batch): a marker sharing a round's millisecond cost that round or the marker (ci, 2026-12-01).
  it('are unique and rising: markers of a pause, resume and stop asked for in the millisecond a round started', async () => {
    const s = instant(221);
    start([s]);
    const h = trace({ target: s.target.v4!, intervalSeconds: 0.5 });
    const all: TraceRound[] = [];
    let measured = 0;
    const stopped = new Promise<void>((done) => {
      h.on('round', (r) => {
        all.push(r);
        if (r.marker) return;
        measured++;
        if (measured === 2) {
          h.pause();
          h.resume();
        }
        if (measured === 4) void h.stop().then(done);
      });
    });
    await stopped;
    expect(all.map((r) => r.marker ?? 'round')).toEqual(['round', 'round', 'stop', 'start', 'round', 'round', 'stop']);
    for (let i = 1; i < all.length; i++) expect(all[i].time, `round ${i}`).toBeGreaterThan(all[i - 1].time);
  });

  it('of a trace started again for its session (startAfter: the stopped one\'s stop marker) come after it', async () => {
    const s = instant(222);
    start([s]);
    const after = sim.clock.wallMs() + 3;
    const rounds = await collectRounds(trace({ target: s.target.v4!, intervalSeconds: 0.5, startAfter: after }), 2);
    expect(rounds.map((r) => r.time)).toEqual([after + 1, after + 501]);
  });

  it('go by the clock when it stepped back under the newest (no wait for it to catch up)', async () => {
    const s = instant(223);
    start([s]);
    const now = sim.clock.wallMs();
    const h = trace({ target: s.target.v4!, intervalSeconds: 0.5, startAfter: now + 60_000 });
    const [first] = await collectRounds(h, 1);
    expect(first.time).toBe(now);
    const all: TraceRound[] = [];
    h.on('round', (r) => all.push(r));
    h.pause();
    expect(all[0].time).toBe(sim.clock.wallMs() + 1);
  });
});

describe('targets, names, stop and errors', () => {
  it('follows a DNS name to a new address and rediscovers the path', async () => {
    const a = chain(216, 3);
    const b = chain(217, 1);
    start([a, b]);
    let address = a.target.v4!;
    const h = trace({ target: 'target.hopwatch.test', packetType: 'TCP', resolveName: async () => address });
    const seen: string[] = [];
    h.on('targetResolved', (x) => seen.push(x));
    const first = await collectRounds(h, 2);
    expect(first[1].target).toBe(a.target.v4);
    address = b.target.v4!;
    expect(await h.reResolve()).toBe(b.target.v4);
    const later = await collectRounds(h, 2);
    expect(later[1].target).toBe(b.target.v4);
    expect(later[1].hops.map((x) => x.address)).toEqual(['10.251.217.1', b.target.v4]);
    expect(seen).toEqual([a.target.v4, b.target.v4]);
  });

  it('fills hop names from the reverse DNS cache without delaying rounds', async () => {
    const s = chain(218, 2);
    start([s]);
    const h = sim.startTrace({ target: s.target.v4!, intervalSeconds: 1, reverseDns: true,
      reverseLookup: async (x: string) => (x === '10.251.218.1' ? 'r1.hopwatch.test' : new Promise<null>(() => {})) });
    open.push(h);
    await collectRounds(h, 1);
    // Lookups run in real time beside the virtual rounds: let the answered one land.
    await new Promise((ok) => setTimeout(ok, 20));
    const rounds = await collectRounds(h, 2);
    expect(rounds[1].hops[0].name).toBe('r1.hopwatch.test');
    expect(rounds[1].hops[1].name).toBeNull();
  });

  it('stops: stop() resolves with no round in flight and no round comes after', async () => {
    const s = chain(219, 3);
    start([s]);
    const h = trace({ target: s.target.v4!, intervalSeconds: 0.1 });
    await collectRounds(h, 2);
    await h.stop();
    expect(h.state).toBe('stopped');
    const after: TraceRound[] = [];
    h.on('round', (r) => after.push(r));
    await sim.sleep(2000);
    expect(after).toEqual([]);
  });

  it('shutdown() stops running traces quietly, and a later trace runs again', async () => {
    const s = chain(220, 2);
    start([s]);
    const h = trace({ target: s.target.v4! });
    const errors: unknown[] = [];
    h.on('error', (e) => errors.push(e));
    await collectRounds(h, 1);
    await sim.shutdown();
    expect(h.state).toBe('stopped');
    expect(errors).toEqual([]);
    const again = await collectRounds(trace({ target: s.target.v4! }), 2);
    expect(again[1].reachedTarget).toBe(true);
  });

  it('fails a trace to an address outside the simulated network with NoRoute', async () => {
    start([chain(221, 1)]);
    const h = trace({ target: '10.251.222.9' });
    const err = (await new Promise<Error>((ok) => h.on('error', ok))) as InstanceType<typeof EngineError>;
    expect(err).toBeInstanceOf(EngineError);
    expect(err.code).toBe('NoRoute');
    expect(h.state).toBe('stopped');
  });

  it('fails a trace whose probes do not fit the MTU without fragmentation, naming the size that fits', async () => {
    const s = chain(223, 1);
    start([s]);
    const h = trace({ target: s.target.v4!, packetSize: 3000 });
    const err = (await new Promise<Error>((ok) => h.on('error', ok))) as InstanceType<typeof EngineError>;
    expect(err.code).toBe('BadOptions');
    expect(err.message).toContain('packetSize of at most 1500');
  });

  it('can always probe: no raw socket permission is needed', async () => {
    start([chain(224, 1)]);
    await expect(sim.checkProbePermission()).resolves.toBeUndefined();
  });
});
