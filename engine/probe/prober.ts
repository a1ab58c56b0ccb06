// Runs trace rounds in the probe worker: sends the probes of a round (one per TTL), matches
// every reply to its probe exactly by (family, protocol, flow id, probe number) and the
// probe's destination, and ends the round when every probe up to the end of the path has an
// outcome or the timeout passed. Many rounds of many targets share the sockets at once.
import { parseAddress } from '../codec/address.js';
import { writeProbe, type ProbeSpec } from '../codec/probe-packet.js';
import type { ProbeReply } from '../codec/reply.js';
import { EngineError } from '../errors.js';
import { probeSeqAt, type ProbeOutcome, type RoundResult, type RoundTask } from './protocol.js';
import { ProbeSockets, SendError } from './sockets.js';

interface RoundState {
  task: RoundTask;
  outcomes: ProbeOutcome[];
  keys: number[];
  /** Lowest TTL at which the path ended (destination answered, or unreachable). */
  endTtl: number;
  sendsDone: boolean;
  finished: boolean;
  timer: NodeJS.Timeout | null;
  resolve: (r: RoundResult) => void;
}

interface PendingProbe {
  round: RoundState;
  index: number;
  sentAtNs: number;
}

const PROTOCOL_CODE = { icmp: 1, udp: 2, tcp: 3 } as const;

function probeKey(family: 4 | 6, protocol: 'icmp' | 'udp' | 'tcp', flowId: number, probeSeq: number): number {
  return ((family === 6 ? 4 : 0) + PROTOCOL_CODE[protocol]) * 0x100000000 + flowId * 0x10000 + probeSeq;
}

export class Prober {
  private readonly pending = new Map<number, PendingProbe>();
  private readonly sockets = new ProbeSockets((reply, at) => this.onReply(reply, at));
  private readonly packet = Buffer.alloc(65536);
  private opened = false;

  /** Opens the receive sockets; throws EngineError('NoRawSocketPermission') without CAP_NET_RAW. */
  open(): void {
    if (this.opened) return;
    this.sockets.open();
    this.opened = true;
  }

  close(): void {
    this.sockets.close();
    this.opened = false;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  runRound(task: RoundTask): Promise<RoundResult> {
    this.open();
    this.sockets.listen(task.family, task.protocol);
    const source = parseAddress(task.source);
    const destination = parseAddress(task.destination);
    if (!source || !destination) throw new EngineError('BadOptions', 'Bad source or destination address');
    return new Promise<RoundResult>((resolve) => {
      const round: RoundState = {
        task,
        outcomes: task.ttls.map((ttl) => ({ ttl, kind: 'notSent', responder: null, rttMs: null, icmpType: 0, icmpCode: 0 })),
        keys: [],
        endTtl: Infinity,
        sendsDone: false,
        finished: false,
        timer: null,
        resolve,
      };
      const spec: ProbeSpec = {
        family: task.family, protocol: task.protocol, source, destination, flowId: task.flowId,
        destinationPort: task.destinationPort, packetSize: task.packetSize, dontFragment: task.dontFragment,
        ttl: 0, probeSeq: 0,
      };
      const sendAt = (index: number) => {
        if (round.finished) return;
        const ttl = task.ttls[index];
        if (ttl <= round.endTtl) this.sendProbe(round, spec, index);
        if (index + 1 < task.ttls.length) {
          if (task.interHopDelayMs > 0) {
            round.timer = setTimeout(() => sendAt(index + 1), task.interHopDelayMs);
          } else {
            sendAt(index + 1);
          }
          return;
        }
        round.sendsDone = true;
        if (this.complete(round)) return this.finish(round);
        round.timer = setTimeout(() => this.timedOut(round), task.timeoutMs);
      };
      sendAt(0);
    });
  }

  private sendProbe(round: RoundState, spec: ProbeSpec, index: number): void {
    const task = round.task;
    spec.ttl = task.ttls[index];
    spec.probeSeq = probeSeqAt(task.seqStart, index);
    const length = writeProbe(this.packet, spec);
    const key = probeKey(task.family, task.protocol, task.flowId, spec.probeSeq);
    const outcome = round.outcomes[index];
    try {
      const sentAtNs = this.sockets.send(task.family, task.sourceInterface, this.packet, length, task.destination);
      outcome.kind = 'timeout';
      this.pending.set(key, { round, index, sentAtNs });
      round.keys.push(key);
    } catch (err) {
      if (!(err instanceof SendError)) throw err;
      // ENOBUFS, ENETUNREACH...: this probe is lost; the round goes on.
      outcome.kind = 'sendError';
    }
  }

  private onReply(reply: ProbeReply, receivedAtNs: number): void {
    const key = probeKey(reply.destination.includes(':') ? 6 : 4, reply.protocol, reply.flowId, reply.probeSeq);
    const probe = this.pending.get(key);
    if (!probe) return;
    const round = probe.round;
    const task = round.task;
    // Same flow and number but not our destination or port: someone else's packet.
    if (reply.destination !== task.destination) return;
    if (task.protocol !== 'icmp' && reply.destinationPort !== task.destinationPort) return;
    const rttMs = (receivedAtNs - probe.sentAtNs) / 1e6;
    if (rttMs > task.timeoutMs) return;
    this.pending.delete(key);
    const outcome = round.outcomes[probe.index];
    outcome.kind = reply.kind;
    outcome.responder = reply.responder;
    outcome.rttMs = rttMs;
    outcome.icmpType = reply.icmpType;
    outcome.icmpCode = reply.icmpCode;
    const ended = reply.kind === 'unreachable' || reply.responder === task.destination;
    if (ended && outcome.ttl < round.endTtl) round.endTtl = outcome.ttl;
    if (this.complete(round)) this.finish(round);
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
    this.sockets.drain();
    this.finish(round);
  }

  private finish(round: RoundState): void {
    if (round.finished) return;
    round.finished = true;
    if (round.timer) clearTimeout(round.timer);
    for (const key of round.keys) {
      const p = this.pending.get(key);
      if (p && p.round === round) this.pending.delete(key);
    }
    // Probes beyond the end of the path are not part of this round's answer.
    for (const o of round.outcomes) {
      if (o.ttl > round.endTtl && o.kind === 'timeout') o.kind = 'notSent';
    }
    round.resolve({ ok: true, probes: round.outcomes });
  }
}
