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

/**
 * The TTL before the target timed out in this many rounds in a row (each one reaching the target):
 * a silent last router, not the target's probe lost; its rounds are no longer held (see
 * PathState.undecided). 2: a round per interval is held at most twice for a silent last router,
 * and a target losing a share p of its probes passes for one with chance p squared (then the
 * phantom shows until the target answers at its own TTL, as before this rule).
 */
export const SILENT_PROOF_ROUNDS = 2;

/** The path ends at this probe: the target answered, or a router said unreachable. */
function ends(o: ProbeOutcome, target: string): boolean {
  return o.kind === 'unreachable' || (o.responder !== null && o.responder === target);
}

/** The probe at this TTL was not answered (timed out, or could not be sent). */
function lostAt(probes: readonly ProbeOutcome[], ttl: number): boolean {
  const o = probes.find((p) => p.ttl === ttl);
  return o !== undefined && o.responder === null && o.kind !== 'notSent';
}

/** The nearest TTL at which the target answered in a round, or null. */
export function targetTtlOf(probes: readonly ProbeOutcome[], target: string): number | null {
  let nearest: number | null = null;
  for (const o of probes) if (o.responder === target && (nearest === null || o.ttl < nearest)) nearest = o.ttl;
  return nearest;
}

export class PathState {
  /** TTL at which the path ended last (destination answered, or unreachable), or null when unknown. */
  pathLength: number | null = null;
  private readonly lastAddress = new Map<number, string>();
  /** Per TTL: the addresses that answered there and the round each last did (see HOST_SET_ROUNDS). */
  private readonly hostSets = new Map<number, Map<string, number>>();
  private rounds = 0;
  /** See undecided(): the TTL before the target and the rounds in a row it timed out there. */
  private silentBeforeEnd = { ttl: 0, rounds: 0 };
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
    this.silentBeforeEnd = { ttl: 0, rounds: 0 };
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

  /**
   * Whether a round's end is in doubt: it reached the target at some TTL while the probe one TTL
   * before timed out. In one round that is either the target's own probe lost (the target is
   * one hop nearer: the answer at the deeper TTL is a phantom hop past it) or a silent last
   * router. The caller holds such a round until a later round ends and passes where that one
   * met the target (applyRound's `targetTtlHint`). Not in doubt when a router answered at that
   * TTL before (a lossy router), nor once it timed out in SILENT_PROOF_ROUNDS delivered rounds in
   * a row (a silent router). So only the first rounds of a path can wait.
   */
  undecided(probes: readonly ProbeOutcome[], target: string): boolean {
    const first = probes.find((o) => ends(o, target));
    if (!first || first.responder !== target) return false;
    // Where the round would end: at the known length when its probe there was lost (applyFull).
    const known = this.pathLength;
    const end = known !== null && first.ttl > known && lostAt(probes, known) ? known : first.ttl;
    if (end <= this.settings.firstTtl || !lostAt(probes, end - 1)) return false;
    // A router answered at that TTL before: the target is not there (a lossy hop, no doubt).
    const seen = this.lastAddress.get(end - 1);
    if (seen !== undefined && seen !== target) return false;
    return !(this.silentBeforeEnd.ttl === end - 1 && this.silentBeforeEnd.rounds >= SILENT_PROOF_ROUNDS);
  }

  /**
   * targetTtlHint: the nearest TTL at which the target answered in a round that ended after this
   * one (see undecided()).
   */
  applyRound(probes: ProbeOutcome[], target: string, targetTtlHint: number | null = null): RoundHops {
    this.rounds++;
    const finalOnly = probes.length === 1 && this.settings.finalHopOnly && this.pathLength !== null && probes[0].ttl === this.settings.maxTtl;
    return finalOnly ? this.applyFinalHop(probes[0], target) : this.applyFull(probes, target, targetTtlHint);
  }

  private applyFull(probes: ProbeOutcome[], target: string, targetTtlHint: number | null): RoundHops {
    let endProbe = probes.find((o) => ends(o, target));
    // A round that started before the trace knew the path (the first round, and rounds that
    // overlap it) probes past its end. When its probe at the target's TTL (the known length, or
    // where a later round met the target) was lost and a later TTL reached the target, that
    // deeper answer is the target's: it is folded into the target's hop and the round ends
    // there. Taking the later TTL as the end reported a phantom hop past the target (with a
    // timeout at the target's own hop); in overlapping rounds the wrong length also fed itself
    // (test/sim/overshoot.test.ts, test/sim/first-round.test.ts). A longer path shows as a
    // router answering at the known end.
    const known = this.pathLength;
    const nearest = Math.min(known ?? Infinity, targetTtlHint ?? Infinity);
    let foldAt: number | null = null;
    let lostAtEnd = false;
    if (endProbe && endProbe.responder === target && endProbe.ttl > nearest && lostAt(probes, nearest)) {
      foldAt = nearest;
    } else if (endProbe && known !== null && endProbe.ttl > known && lostAt(probes, known)) {
      // A router said unreachable past the known end: the probe at the end was lost.
      lostAtEnd = true;
      endProbe = undefined;
    }
    let end: number;
    const reachedTarget = endProbe !== undefined && endProbe.responder === target;
    if (foldAt !== null) {
      end = foldAt;
    } else if (endProbe) {
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
      hops.push(this.hopOf(o.ttl === foldAt ? { ...endProbe!, ttl: o.ttl } : o, routeChanges));
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
    this.countSilentBeforeEnd(probes, reachedTarget && foldAt === null ? end : null);
    return { reachedTarget, hops, routeChanges };
  }

  /** See undecided(): the rounds in a row that met the target with a timeout just before it. */
  private countSilentBeforeEnd(probes: readonly ProbeOutcome[], targetTtl: number | null): void {
    const before = targetTtl === null ? null : targetTtl - 1;
    if (before === null || before < this.settings.firstTtl || !lostAt(probes, before)) {
      this.silentBeforeEnd = { ttl: 0, rounds: 0 };
    } else if (this.silentBeforeEnd.ttl === before) {
      this.silentBeforeEnd.rounds++;
    } else {
      this.silentBeforeEnd = { ttl: before, rounds: 1 };
    }
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
