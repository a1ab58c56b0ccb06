// Runs trace rounds in the probe worker: sends the probes of a round (one per TTL), matches
// every reply to its probe exactly by (family, protocol, flow id, probe number) and the
// probe's destination, and ends the round when every probe up to the end of the path has an
// outcome or the timeout passed. Many rounds of many targets share the sockets at once.
import { parseAddress } from '../codec/address.js';
import { fragmentIPv4, fragmentIPv6 } from '../codec/fragment.js';
import { ProbeTemplate, minimumPacketSize } from '../codec/probe-packet.js';
import type { ProbeReply } from '../codec/reply.js';
import { EngineError } from '../errors.js';
import { fillOutcome } from './outcome.js';
import { probeSeqAt, type ProbeOutcome, type RoundTask, type TraceSpec } from './protocol.js';
import { SendError, type ProbeNetwork, type ProbeNetworkFactory, type SendSocket, type TimerRef } from './network.js';

/** Called once per round with every probe's outcome; may be called before runRound returns. */
export type RoundEnded = (probes: ProbeOutcome[]) => void;
/** A round with spaced probes (interHopDelayMs) could not send a later probe. */
export type RoundFailed = (err: unknown) => void;

interface RoundState {
  task: RoundTask;
  spec: Readonly<TraceSpec>;
  outcomes: ProbeOutcome[];
  keys: number[];
  /** Lowest TTL at which the path ended (destination answered, or unreachable). */
  endTtl: number;
  sendsDone: boolean;
  finished: boolean;
  timer: TimerRef | null;
  ended: RoundEnded;
  failed: RoundFailed;
}

interface PendingProbe {
  round: RoundState;
  index: number;
  sentAtNs: number;
}

/** What a trace's settings mean for sending, worked out once per TraceSpec (not per round). */
interface Flow {
  template: ProbeTemplate;
  sender: SendSocket;
  /** Views of the batch buffer, one per probe (made as rounds need them). */
  slots: Uint8Array[];
  /** The probes are longer than the MTU toward the destination: each goes out as fragments of at most this. */
  fragmentMtu: number | null;
}

const PROTOCOL_CODE = { icmp: 1, udp: 2, tcp: 3 } as const;
const BATCH_BYTES = 64 * 1024;

function probeKey(family: 4 | 6, protocol: 'icmp' | 'udp' | 'tcp', flowId: number, probeSeq: number): number {
  return ((family === 6 ? 4 : 0) + PROTOCOL_CODE[protocol]) * 0x100000000 + flowId * 0x10000 + probeSeq;
}

export class Prober {
  private readonly pending = new Map<number, PendingProbe>();
  /** The network seam: raw sockets in the probe worker, or a simulated network (network.ts). */
  readonly network: ProbeNetwork;
  /** Rounds that got an answer in the current read: checked for completion once it is done. */
  private answered: RoundState[] = [];
  private readonly packet = Buffer.alloc(65536);
  /** A fragmented probe's fragments, back to back (headers repeat per fragment). */
  private readonly fragments = Buffer.alloc(2 * 65536);
  /** A round's probes, back to back, for one sendBatch() call. */
  private readonly batch = Buffer.alloc(BATCH_BYTES);
  private readonly sendTimes = new Float64Array(256);
  private flows = new WeakMap<Readonly<TraceSpec>, Flow>();
  /** Per TCP flow id, the data bytes its SYNs carry (packet sizes above the bare headers). */
  private readonly tcpDataBytes = new Map<number, number>();
  private opened = false;

  constructor(network: ProbeNetworkFactory) {
    this.network = network((reply, at) => this.onReply(reply, at), () => this.checkAnswered());
  }

  /** Opens the receive sockets; throws EngineError('NoRawSocketPermission') without CAP_NET_RAW. */
  open(): void {
    if (this.opened) return;
    this.network.open();
    this.opened = true;
  }

  close(): void {
    this.network.close();
    this.flows = new WeakMap();
    this.opened = false;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Sends the round's probes and calls `ended` once every probe up to the end of the path has
   * an outcome or the timeout passed. Throws (without calling `ended`) when nothing could be
   * sent: bad addresses, sockets that cannot be opened.
   */
  runRound(task: RoundTask, ended: RoundEnded, failed: RoundFailed): ProbeOutcome[] {
    const spec = task.spec;
    const flow = this.flow(spec);
    const round: RoundState = {
      task,
      spec,
      outcomes: [],
      keys: [],
      endTtl: Infinity,
      sendsDone: false,
      finished: false,
      timer: null,
      ended,
      failed,
    };
    for (let i = 0; i < task.ttls.length; i++) {
      round.outcomes.push({ ttl: task.ttls[i], kind: 'notSent', responder: null, rttMs: null, icmpType: 0, icmpCode: 0 });
    }
    try {
      if (spec.interHopDelayMs > 0) {
        this.sendSpaced(round, flow, 0);
        return round.outcomes;
      }
      if (flow.fragmentMtu !== null || !this.sendAll(round, flow)) {
        for (let i = 0; i < task.ttls.length; i++) this.sendProbe(round, flow, i);
      }
    } catch (err) {
      this.forget(round);
      throw err;
    }
    this.sent(round);
    // The outcomes as they fill in (read by TraceLoops for the Pending code; never edited there).
    return round.outcomes;
  }

  private flow(spec: Readonly<TraceSpec>): Flow {
    let flow = this.flows.get(spec);
    if (flow) return flow;
    this.open();
    this.network.listen(spec.family, spec.protocol);
    const source = parseAddress(spec.source);
    const destination = parseAddress(spec.destination);
    if (!source || !destination) throw new EngineError('BadOptions', 'Bad source or destination address');
    const template = new ProbeTemplate({
      family: spec.family, protocol: spec.protocol, source, destination, flowId: spec.flowId,
      destinationPort: spec.destinationPort, packetSize: spec.packetSize, dontFragment: spec.dontFragment,
      dscp: spec.dscp ?? 0,
    });
    // The worker refused the trace when its probes do not fit and may not be fragmented (path-mtu.ts).
    const fragmentMtu = spec.mtu !== undefined && template.length > spec.mtu ? spec.mtu : null;
    if (spec.protocol === 'tcp') this.tcpDataBytes.set(spec.flowId, Math.max(spec.packetSize, minimumPacketSize('tcp')) - minimumPacketSize('tcp'));
    flow = { slots: [], sender: this.network.sender(spec.family, spec.sourceInterface), template, fragmentMtu };
    this.flows.set(spec, flow);
    return flow;
  }

  /** Views of the batch buffer, one per probe of the flow's size, made once per flow. */
  private batchSlots(flow: Flow, count: number): Uint8Array[] | null {
    const length = flow.template.length;
    if (length * count > this.batch.length) return null;
    while (flow.slots.length < count) {
      const at = flow.slots.length * length;
      flow.slots.push(new Uint8Array(this.batch.buffer, this.batch.byteOffset + at, length));
    }
    return flow.slots;
  }

  /** interHopDelayMs > 0: one probe per timer tick. */
  private sendSpaced(round: RoundState, flow: Flow, index: number): void {
    round.timer = null;
    if (round.finished) return;
    if (round.task.ttls[index] <= round.endTtl) this.sendProbe(round, flow, index);
    if (index + 1 < round.task.ttls.length) {
      round.timer = this.network.clock.setTimer(() => {
        try {
          this.sendSpaced(round, flow, index + 1);
        } catch (err) {
          this.forget(round);
          round.failed(err);
        }
      }, round.spec.interHopDelayMs);
    } else {
      this.sent(round);
    }
  }

  /**
   * Every probe is out. On a short path the replies are often queued already (the kernel
   * forwards and answers inside sendto() on local links): reading them now ends the round
   * in this turn of the loop, with no wake-up for the socket and no timeout timer.
   */
  private sent(round: RoundState): void {
    round.sendsDone = true;
    if (!this.complete(round)) this.network.drainFamily(round.spec.family);
    if (round.finished) return;
    if (this.complete(round)) return this.finish(round);
    round.timer = this.network.clock.setTimer(() => this.timedOut(round), round.spec.timeoutMs);
  }

  /**
   * All probes of the round in one call into the addon (still one sendto each, each stamped
   * right before it). False when they do not fit the batch buffer: send them one by one.
   */
  private sendAll(round: RoundState, flow: Flow): boolean {
    const task = round.task;
    const spec = round.spec;
    const count = task.ttls.length;
    if (count > this.sendTimes.length) return false;
    const slots = this.batchSlots(flow, count);
    if (!slots) return false;
    for (let i = 0; i < count; i++) flow.template.write(slots[i], task.ttls[i], probeSeqAt(task.seqStart, i));
    const length = flow.template.length;
    this.network.sendBatch(flow.sender, this.batch, length, count, spec.destination, this.sendTimes);
    for (let i = 0; i < count; i++) {
      const sentAtNs = this.sendTimes[i];
      const outcome = round.outcomes[i];
      // ENOBUFS, ENETUNREACH...: that probe is lost; the round goes on.
      if (sentAtNs < 0) {
        outcome.kind = 'sendError';
        continue;
      }
      const key = probeKey(spec.family, spec.protocol, spec.flowId, probeSeqAt(task.seqStart, i));
      outcome.kind = 'timeout';
      this.pending.set(key, { round, index: i, sentAtNs });
      round.keys.push(key);
    }
    return true;
  }

  private sendProbe(round: RoundState, flow: Flow, index: number): void {
    const task = round.task;
    const spec = round.spec;
    const probeSeq = probeSeqAt(task.seqStart, index);
    const length = flow.template.write(this.packet, task.ttls[index], probeSeq);
    const key = probeKey(spec.family, spec.protocol, spec.flowId, probeSeq);
    const outcome = round.outcomes[index];
    try {
      const sentAtNs = flow.fragmentMtu === null
        ? this.network.send(flow.sender, this.packet, length, spec.destination)
        : this.sendFragments(flow, flow.fragmentMtu, length, probeSeq, spec);
      outcome.kind = 'timeout';
      this.pending.set(key, { round, index, sentAtNs });
      round.keys.push(key);
    } catch (err) {
      if (!(err instanceof SendError)) throw err;
      // ENOBUFS, ENETUNREACH...: this probe is lost; the round goes on.
      outcome.kind = 'sendError';
    }
  }

  /**
   * Sends the probe in this.packet as fragments; returns the send time of the first (taken
   * right before its sendto: the probe is on its way from then). Throws SendError when a
   * fragment cannot be sent (the probe cannot be reassembled then).
   */
  private sendFragments(flow: Flow, mtu: number, length: number, probeSeq: number, spec: Readonly<TraceSpec>): number {
    const out = this.fragments;
    // IPv4 fragments keep the probe's identification (its probe number, never 0); IPv6 has
    // 32 bits: flow id and probe number, unique among the probes in flight.
    const lengths = spec.family === 4
      ? fragmentIPv4(this.packet, length, mtu, out)
      : fragmentIPv6(this.packet, length, mtu, ((spec.flowId << 16) | probeSeq) >>> 0, out);
    let sentAtNs = 0;
    let at = 0;
    for (let i = 0; i < lengths.length; i++) {
      const t = this.network.send(flow.sender, i === 0 ? out : out.subarray(at), lengths[i], spec.destination);
      if (i === 0) sentAtNs = t;
      at += lengths[i];
    }
    return sentAtNs;
  }

  private onReply(reply: ProbeReply, receivedAtNs: number): void {
    let probeSeq = reply.probeSeq;
    if (reply.tcpResetAcked !== undefined) {
      // A reset acknowledges the SYN's data bytes too: take them off to find the probe.
      const seq = (reply.tcpResetAcked - (this.tcpDataBytes.get(reply.flowId) ?? 0)) >>> 0;
      if (seq >>> 16 !== reply.flowId) return;
      probeSeq = seq & 0xffff;
    }
    const key = probeKey(reply.destination.includes(':') ? 6 : 4, reply.protocol, reply.flowId, probeSeq);
    const probe = this.pending.get(key);
    if (!probe) return;
    const round = probe.round;
    const spec = round.spec;
    // Same flow and number but not our destination or port: someone else's packet.
    if (reply.destination !== spec.destination) return;
    if (spec.protocol !== 'icmp' && reply.destinationPort !== spec.destinationPort) return;
    const rttMs = (receivedAtNs - probe.sentAtNs) / 1e6;
    if (rttMs > spec.timeoutMs) return;
    this.pending.delete(key);
    const outcome = round.outcomes[probe.index];
    fillOutcome(outcome, reply, rttMs, spec);
    const ended = reply.kind === 'unreachable' || reply.responder === spec.destination;
    if (ended && outcome.ttl < round.endTtl) round.endTtl = outcome.ttl;
    // Whether the round is complete is asked once per read, not per reply (checkAnswered).
    this.answered.push(round);
  }

  /** After a read: ends the rounds whose answers are all in. */
  private checkAnswered(): void {
    const rounds = this.answered;
    if (rounds.length === 0) return;
    this.answered = [];
    for (let i = 0; i < rounds.length; i++) {
      const round = rounds[i];
      if (!round.finished && this.complete(round)) this.finish(round);
    }
  }

  /** Every sent probe up to the end of the path has an outcome (later ones are not needed). */
  private complete(round: RoundState): boolean {
    if (!round.sendsDone && round.endTtl === Infinity) return false;
    for (const o of round.outcomes) {
      if (o.ttl > round.endTtl) break;
      if (o.kind === 'timeout') return false;
      if (o.kind === 'notSent' && !round.sendsDone) return false;
    }
    return true;
  }

  /**
   * The round's timeout passed. After a stall of this thread the timer runs before the loop
   * polls the sockets, so replies that came in time may still be queued: read them first
   * (their kernel receive times decide whether they were in time).
   */
  private timedOut(round: RoundState): void {
    round.timer = null;
    this.network.drain();
    this.finish(round);
  }

  /** Drops the round's probes from the pending map (late replies no longer match). */
  private forget(round: RoundState): void {
    round.finished = true;
    if (round.timer) this.network.clock.clearTimer(round.timer);
    round.timer = null;
    for (const key of round.keys) {
      const p = this.pending.get(key);
      if (p && p.round === round) this.pending.delete(key);
    }
  }

  private finish(round: RoundState): void {
    if (round.finished) return;
    this.forget(round);
    // Probes beyond the end of the path are not part of this round's answer.
    for (const o of round.outcomes) {
      if (o.ttl > round.endTtl && o.kind === 'timeout') o.kind = 'notSent';
    }
    round.ended(round.outcomes);
  }
}
