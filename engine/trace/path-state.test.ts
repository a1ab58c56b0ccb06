import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../latency-codes.js';
import type { ProbeOutcome } from '../probe/protocol.js';
import { HOST_SET_ROUNDS, PathState, SILENT_PROOF_ROUNDS } from './path-state.js';

const te = (ttl: number, responder: string, rttMs = 1): ProbeOutcome => ({ ttl, kind: 'timeExceeded', responder, rttMs, icmpType: 11, icmpCode: 0 });
const echo = (ttl: number, responder: string): ProbeOutcome => ({ ttl, kind: 'echoReply', responder, rttMs: 2, icmpType: 0, icmpCode: 0 });
const lost = (ttl: number): ProbeOutcome => ({ ttl, kind: 'timeout', responder: null, rttMs: null, icmpType: 0, icmpCode: 0 });

describe('PathState', () => {
  it('discovers the path up to maxTtl, then probes only the known length', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 5, finalHopOnly: false });
    expect(p.nextTtls()).toEqual([1, 2, 3, 4, 5]);
    const r = p.applyRound([te(1, 'a'), lost(2), echo(3, 't'), echo(4, 't'), lost(5)], 't');
    expect(r.reachedTarget).toBe(true);
    expect(r.hops.map((h) => h.rtt)).toEqual([1, LatencyCode.Timeout, 2]);
    expect(p.nextTtls()).toEqual([1, 2, 3]);
  });

  it('reports a route change when a hop answers from a new address', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 3, finalHopOnly: false });
    p.applyRound([te(1, 'a'), echo(2, 't')], 't');
    expect(p.applyRound([lost(1), echo(2, 't')], 't').routeChanges).toEqual([]);
    expect(p.applyRound([te(1, 'b'), echo(2, 't')], 't').routeChanges).toEqual([{ ttl: 1, previous: 'a', current: 'b' }]);
  });

  it('treats a stable set of hosts at one hop (ECMP) as one route: only an address new to the set is a change', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 3, finalHopOnly: false });
    const changes: unknown[] = [];
    for (let i = 0; i < 100; i++) changes.push(...p.applyRound([te(1, i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : 'c'), echo(2, 't')], 't').routeChanges);
    // b and c join the set once each; then the three alternate without changes.
    expect(changes).toEqual([{ ttl: 1, previous: 'a', current: 'b' }, { ttl: 1, previous: 'b', current: 'c' }]);
    expect(p.applyRound([te(1, 'd'), echo(2, 't')], 't').routeChanges).toEqual([{ ttl: 1, previous: 'a', current: 'd' }]);
    // An address not seen for longer than HOST_SET_ROUNDS rounds left the set: its return is a change.
    for (let i = 0; i < HOST_SET_ROUNDS + 1; i++) p.applyRound([te(1, 'd'), echo(2, 't')], 't');
    expect(p.applyRound([te(1, 'b'), echo(2, 't')], 't').routeChanges).toEqual([{ ttl: 1, previous: 'd', current: 'b' }]);
  });

  it('shows one timeout hop after the last answer when the target is not reached', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 6, finalHopOnly: false });
    const r = p.applyRound([te(1, 'a'), lost(2), lost(3), lost(4), lost(5), lost(6)], 't');
    expect(r.hops.map((h) => h.ttl)).toEqual([1, 2]);
    expect(r.reachedTarget).toBe(false);
  });

  it('rediscovers when the path grew', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 4, finalHopOnly: false });
    p.applyRound([te(1, 'a'), echo(2, 't')], 't');
    p.applyRound([te(1, 'a'), te(2, 'b')], 't');
    expect(p.nextTtls()).toEqual([1, 2, 3, 4]);
  });

  it('final hop only: one probe, the other hops not participating', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 30, finalHopOnly: true });
    expect(p.nextTtls().length).toBe(30);
    p.applyRound([te(1, 'a'), echo(2, 't')], 't');
    expect(p.nextTtls()).toEqual([30]);
    const r = p.applyRound([echo(30, 't')], 't');
    expect(r.hops).toEqual([
      { ttl: 1, address: 'a', rtt: LatencyCode.NotParticipating, reply: 'notParticipating' },
      { ttl: 2, address: 't', rtt: 2, reply: 'echoReply' },
    ]);
  });

  it('keeps a known path length when a round that probed past it lost the probe at its end (overlapping rounds)', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 5, finalHopOnly: false });
    p.applyRound([te(1, 'a'), te(2, 'b'), echo(3, 't'), echo(4, 't'), echo(5, 't')], 't');
    expect(p.nextTtls()).toEqual([1, 2, 3]);
    // Started before the path was known: probed to 5; TTL 3 lost, TTL 4 reached the target:
    // that answer is the target's, folded into its hop (no hop past the target).
    const r = p.applyRound([te(1, 'a'), te(2, 'b'), lost(3), echo(4, 't'), echo(5, 't')], 't');
    expect(r.hops.map((h) => h.ttl)).toEqual([1, 2, 3]);
    expect(r.hops[2]).toEqual({ ttl: 3, address: 't', rtt: 2, reply: 'echoReply' });
    expect(r.reachedTarget).toBe(true);
    expect(p.nextTtls()).toEqual([1, 2, 3]);
    // A longer path shows as a router answering at the known end: then it is rediscovered.
    const grown = p.applyRound([te(1, 'a'), te(2, 'b'), te(3, 'c'), echo(4, 't'), echo(5, 't')], 't');
    expect(grown.hops.map((h) => h.ttl)).toEqual([1, 2, 3, 4]);
    expect(p.nextTtls()).toEqual([1, 2, 3, 4]);
    // And a shorter one as the target answering before it.
    p.applyRound([te(1, 'a'), echo(2, 't'), echo(3, 't'), echo(4, 't')], 't');
    expect(p.nextTtls()).toEqual([1, 2]);
  });

  it('holds a first round in doubt, then folds the deeper answer when a later round met the target nearer (issue 40 item 8)', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 5, finalHopOnly: false });
    // First round: TTL 3 lost, TTL 4 and 5 reached the target: the target's probe lost, or a silent router at 3.
    const first = [te(1, 'a'), te(2, 'b'), lost(3), echo(4, 't'), echo(5, 't')];
    expect(p.undecided(first, 't')).toBe(true);
    // A later round met the target at TTL 3: the first one's answer at 4 is the target's.
    const r = p.applyRound(first, 't', 3);
    expect(r.hops).toEqual([
      { ttl: 1, address: 'a', rtt: 1, reply: 'timeExceeded' },
      { ttl: 2, address: 'b', rtt: 1, reply: 'timeExceeded' },
      { ttl: 3, address: 't', rtt: 2, reply: 'echoReply' },
    ]);
    expect(r.reachedTarget).toBe(true);
    expect(p.nextTtls()).toEqual([1, 2, 3]);
    // Nothing in doubt when the router before the target answered, or the target was not reached.
    expect(p.undecided([te(1, 'a'), te(2, 'b'), echo(3, 't')], 't')).toBe(false);
    expect(p.undecided([te(1, 'a'), lost(2), lost(3)], 't')).toBe(false);
  });

  it('takes a silent last router as it is: held while in doubt, not after SILENT_PROOF_ROUNDS rounds', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 4, finalHopOnly: false });
    const round = () => [te(1, 'a'), lost(2), echo(3, 't'), echo(4, 't')].slice(0, p.nextTtls().length);
    for (let i = 0; i < SILENT_PROOF_ROUNDS; i++) {
      expect(p.undecided(round(), 't')).toBe(true);
      // The later round met the target at 3 as well: nothing to fold, the router at 2 is a timeout hop.
      const r = p.applyRound(round(), 't', 3);
      expect(r.hops.map((h) => [h.ttl, h.address])).toEqual([[1, 'a'], [2, null], [3, 't']]);
    }
    expect(p.undecided(round(), 't')).toBe(false);
  });

  it('does not hold a round when a router answered before at the TTL that timed out (a lossy hop)', () => {
    const p = new PathState({ firstTtl: 1, maxTtl: 4, finalHopOnly: false });
    p.applyRound([te(1, 'a'), te(2, 'b'), echo(3, 't'), echo(4, 't')], 't');
    expect(p.undecided([te(1, 'a'), lost(2), echo(3, 't')], 't')).toBe(false);
  });
});
