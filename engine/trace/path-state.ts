// What a trace knows about its path between rounds: the length of the path (the TTL at
// which the destination last answered) and the address last seen at each TTL. It decides
// which TTLs a round probes, turns a round's probe outcomes into hops with latencies or
// latency codes, and reports route changes (a hop's address changed).
import { LatencyCode } from '../latency-codes.js';
import type { ProbeOutcome } from '../probe/protocol.js';
import type { HopReply, RouteChange, TraceHop } from '../types.js';

export interface PathSettings {
  firstTtl: number;
  maxTtl: number;
  finalHopOnly: boolean;
}

export interface RoundHops {
  reachedTarget: boolean;
  hops: Omit<TraceHop, 'name'>[];
  routeChanges: Omit<RouteChange, 'time'>[];
}

/**
 * Several hosts at one hop (ECMP, per-packet load balancing, flapping routes): an address that
 * answered at a TTL within this many rounds is part of the hop's set, and an answer from it is
 * not a route change. Only an address new to the set is.
 */
export const HOST_SET_ROUNDS = 32;

export class PathState {
  /** TTL at which the path ended last (destination answered, or unreachable), or null when unknown. */
  pathLength: number | null = null;
  private readonly lastAddress = new Map<number, string>();
  /** Per TTL: the addresses that answered there and the round each last did (see HOST_SET_ROUNDS). */
  private readonly hostSets = new Map<number, Map<string, number>>();
  private rounds = 0;
  private ttls: readonly number[] = [];

  constructor(private readonly settings: PathSettings) {}

  setFinalHopOnly(on: boolean): void {
    this.settings.finalHopOnly = on;
  }

  /** Forget the path (e.g. the target address changed). */
  reset(): void {
    this.pathLength = null;
    this.lastAddress.clear();
    this.hostSets.clear();
  }

  /** TTLs of the next round: the known path, or up to maxTtl when it is not known. */
  /** TTLs of the next round (callers only read it: the same array is handed out while the path stays). */
  nextTtls(): readonly number[] {
    const { firstTtl, maxTtl } = this.settings;
    if (this.settings.finalHopOnly && this.pathLength !== null) return this.ttlRange(maxTtl, maxTtl);
    return this.ttlRange(firstTtl, this.pathLength ?? maxTtl);
  }

  private ttlRange(first: number, last: number): readonly number[] {
    const cached = this.ttls;
    if (cached.length === last - first + 1 && cached[0] === first) return cached;
    const ttls: number[] = [];
    for (let t = first; t <= last; t++) ttls.push(t);
    this.ttls = ttls;
    return ttls;
  }

  /** Last address seen at a TTL. */
  addressAt(ttl: number): string | null {
    return this.lastAddress.get(ttl) ?? null;
  }

  applyRound(probes: ProbeOutcome[], target: string): RoundHops {
    this.rounds++;
    const finalOnly = probes.length === 1 && this.settings.finalHopOnly && this.pathLength !== null && probes[0].ttl === this.settings.maxTtl;
    return finalOnly ? this.applyFinalHop(probes[0], target) : this.applyFull(probes, target);
  }

  private applyFull(probes: ProbeOutcome[], target: string): RoundHops {
    const ends = (o: ProbeOutcome) => o.kind === 'unreachable' || (o.responder !== null && o.responder === target);
    let endProbe = probes.find(ends);
    // A round that started before the trace knew the path (rounds overlap) probes past its
    // end. When its probe at the known end was lost and a later TTL reached the target, that
    // probe was lost; the path did not grow (a longer path has a router answer at the known
    // end). Taking the later TTL as the end reported a hop past the target, and rounds started
    // after it probed that far again, so the wrong length fed itself (test/sim/overshoot.test.ts).
    const known = this.pathLength;
    let lostAtEnd = false;
    if (endProbe && known !== null && endProbe.ttl > known) {
      const atEnd = probes.find((o) => o.ttl === known);
      lostAtEnd = atEnd !== undefined && atEnd.responder === null;
      if (lostAtEnd) endProbe = undefined;
    }
    let end: number;
    const reachedTarget = endProbe !== undefined && endProbe.responder === target;
    if (endProbe) {
      end = endProbe.ttl;
    } else if (lostAtEnd) {
      end = known!; // the lost probe is the end hop's loss
    } else {
      const answered = probes.filter((o) => o.responder !== null);
      const lastAnswered = answered.length ? answered[answered.length - 1].ttl : this.settings.firstTtl - 1;
      const lastProbed = probes.length ? probes[probes.length - 1].ttl : this.settings.firstTtl;
      // One "*" hop after the last answer shows the path goes on unanswered; never beyond what was probed.
      end = Math.min(Math.max(lastAnswered + 1, this.pathLength ?? 0, this.settings.firstTtl), lastProbed);
    }
    const hops: Omit<TraceHop, 'name'>[] = [];
    const routeChanges: Omit<RouteChange, 'time'>[] = [];
    for (const o of probes) {
      if (o.ttl > end) break;
      hops.push(this.hopOf(o, routeChanges));
    }
    if (endProbe) {
      // The path ends here (the target, or a router saying unreachable): probe no further,
      // which also spares routers that rate-limit their unreachable messages.
      this.pathLength = end;
    } else if (this.pathLength !== null && !lostAtEnd) {
      // The last probed TTL was answered by a router: the path grew; discover it next round.
      const last = probes[probes.length - 1];
      if (last && last.kind === 'timeExceeded') this.pathLength = null;
    }
    return { reachedTarget, hops, routeChanges };
  }

  private applyFinalHop(probe: ProbeOutcome, target: string): RoundHops {
    const length = this.pathLength!;
    const hops: Omit<TraceHop, 'name'>[] = [];
    for (let ttl = this.settings.firstTtl; ttl < length; ttl++) {
      hops.push({ ttl, address: this.addressAt(ttl), rtt: LatencyCode.NotParticipating, reply: 'notParticipating' });
    }
    const reached = probe.responder === target;
    const routeChanges: Omit<RouteChange, 'time'>[] = [];
    if (reached) {
      hops.push(this.hopOf({ ...probe, ttl: length }, routeChanges));
    } else {
      hops.push({ ttl: length, address: null, rtt: LatencyCode.Timeout, reply: 'timeout' });
      // A router answered a probe with the maximum TTL: the path is not what we knew.
      if (probe.responder !== null) this.pathLength = null;
    }
    return { reachedTarget: reached, hops, routeChanges };
  }

  private hopOf(o: ProbeOutcome, routeChanges: Omit<RouteChange, 'time'>[]): Omit<TraceHop, 'name'> {
    if (o.responder === null || o.rttMs === null) {
      return { ttl: o.ttl, address: null, rtt: LatencyCode.Timeout, reply: 'timeout' };
    }
    const previous = this.lastAddress.get(o.ttl);
    let set = this.hostSets.get(o.ttl);
    if (!set) this.hostSets.set(o.ttl, (set = new Map()));
    const seen = set.get(o.responder);
    const inSet = seen !== undefined && this.rounds - seen <= HOST_SET_ROUNDS;
    if (previous !== undefined && previous !== o.responder && !inSet) {
      routeChanges.push({ ttl: o.ttl, previous, current: o.responder });
    }
    set.set(o.responder, this.rounds);
    if (set.size > 8) for (const [a, r] of set) if (this.rounds - r > HOST_SET_ROUNDS) set.delete(a);
    this.lastAddress.set(o.ttl, o.responder);
    const hop: Omit<TraceHop, 'name'> = { ttl: o.ttl, address: o.responder, rtt: o.rttMs, reply: o.kind as HopReply };
    if (o.mpls) hop.mpls = o.mpls;
    if (o.natDetected) hop.natDetected = true;
    if (o.quotedDscp !== undefined) hop.quotedDscp = o.quotedDscp;
    return hop;
  }
}
