// The raw sockets of the probe worker. Sending: one IPPROTO_RAW socket per family (and per
// source interface), so every probe carries our own IP header (TTL, DF, flow label) and no
// per-probe setsockopt is needed. Receiving: ICMP/ICMPv6 sockets always, TCP sockets only
// while TCP probes are in use (a raw TCP socket sees a copy of every TCP segment).
import { EngineError, NO_RAW_SOCKET_PERMISSION } from '../errors.js';
import type { ProbeReply } from '../codec/reply.js';
import { parseIPv4IcmpReply, parseIPv4TcpReply, parseIPv6IcmpReply, parseIPv6TcpReply } from '../codec/reply.js';
import { formatIPv4, formatIPv6 } from '../codec/address.js';
import { IPPROTO_ICMP, IPPROTO_ICMPV6, IPPROTO_TCP } from '../codec/ipv4.js';
import {
  NATIVE_HEAD_FIELDS, NATIVE_PROBE_FIELDS, RECEIVE_BATCH, RECEIVE_SLOT_BYTES, rawsock, type FlowHandle, type NativeReport, type RawSocketHandle,
} from './rawsock.js';
import {
  SendError, type NativeFlow, type NativeRound, type NativeRounds, type ProbeNetwork, type ProbeNetworkFactory,
  type ReplyListener, type SendSocket,
} from './network.js';
import { ProbeTemplate, minimumPacketSize } from '../codec/probe-packet.js';
import { parseAddress } from '../codec/address.js';
import { fillOutcome } from './outcome.js';
import type { ProbeOutcome, TraceSpec } from './protocol.js';
import { outgoingMtu } from './path-mtu.js';
import { rawClock } from './raw-clock.js';

const IPPROTO_RAW = 255;
const SOL_SOCKET = 1;
const SO_RCVBUF = 8;
const SO_BINDTODEVICE = 25;
const SO_RCVBUFFORCE = 33;
const RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;

type Parser = (buf: Buffer, length: number, from: string) => ProbeReply | null;

export { SendError };

/** The raw-socket network (the seam's production side): receive times are the kernel's stamps. */
export const rawNetwork: ProbeNetworkFactory = (onReply, onBatchEnd) => new ProbeSockets(onReply, onBatchEnd);

/**
 * Native rounds (the addon runs a trace's rounds, no JavaScript per round): on unless
 * HOPWATCH_NATIVE_ROUNDS=0 (for comparing the two paths; traces that cannot run natively use
 * the prober either way). See docs/engine.md (Native rounds).
 */
const NATIVE_ROUNDS = process.env.HOPWATCH_NATIVE_ROUNDS !== '0';

export class ProbeSockets implements ProbeNetwork {
  readonly clock = rawClock;
  readonly native: NativeRounds | null = NATIVE_ROUNDS ? new RawNativeRounds(this) : null;

  private readonly senders = new Map<string, RawSocketHandle>();
  private readonly receivers = new Map<string, RawSocketHandle>();
  private readonly receivers4: RawSocketHandle[] = [];
  private readonly receivers6: RawSocketHandle[] = [];

  /** onBatchEnd: after the replies of one read (see Prober: rounds are checked once per read). */
  constructor(private readonly onReply: ReplyListener, private readonly onBatchEnd: () => void) {}

  /** Opens the ICMP receive sockets of both families (fails without CAP_NET_RAW). */
  open(): void {
    this.receiver(4, 'icmp');
    this.receiver(6, 'icmp');
  }

  /** Sends probes packed in buf (see RawSockAddon.sendBatch); times[i] < 0 is -errno. */
  sendBatch(sender: SendSocket, buf: Buffer, length: number, count: number, destination: string, times: Float64Array): void {
    rawsock().sendBatch(sender as RawSocketHandle, buf, length, count, destination, times);
  }

  /** Sends one probe on a sender(); returns the send time in ns (CLOCK_MONOTONIC), taken right before sendto. */
  send(sender: SendSocket, buf: Buffer, length: number, destination: string): number {
    const r = rawsock().send(sender as RawSocketHandle, buf, length, destination);
    if (r < 0) throw new SendError(-r);
    return r;
  }

  /** Makes sure replies of this protocol are received. */
  listen(family: 4 | 6, protocol: 'icmp' | 'udp' | 'tcp'): void {
    this.receiver(family, protocol === 'tcp' ? 'tcp' : 'icmp');
  }

  /** Handles the replies queued on every receive socket now (before deciding a probe timed out). */
  drain(): void {
    for (const s of this.receivers.values()) rawsock().drain(s);
  }

  /** Handles the replies queued now on the receive sockets of one family. */
  drainFamily(family: 4 | 6): void {
    const list = family === 4 ? this.receivers4 : this.receivers6;
    for (let i = 0; i < list.length; i++) rawsock().drain(list[i]);
  }

  pathMtu(family: 4 | 6, destination: string, sourceInterface: string | null): number {
    return outgoingMtu(family, destination, sourceInterface);
  }

  close(): void {
    for (const s of [...this.senders.values(), ...this.receivers.values()]) rawsock().close(s);
    this.senders.clear();
    this.receivers.clear();
    this.receivers4.length = 0;
    this.receivers6.length = 0;
  }

  /** The send socket of a family and source interface (opened on first use). */
  sender(family: 4 | 6, sourceInterface: string | null): SendSocket {
    const key = `${family}/${sourceInterface ?? ''}`;
    let sock = this.senders.get(key);
    if (sock) return sock;
    sock = open(family, IPPROTO_RAW);
    if (sourceInterface) rawsock().setOption(sock, SOL_SOCKET, SO_BINDTODEVICE, Buffer.from(`${sourceInterface}\0`));
    this.senders.set(key, sock);
    return sock;
  }

  private receiver(family: 4 | 6, kind: 'icmp' | 'tcp'): RawSocketHandle {
    const key = `${family}/${kind}`;
    let sock = this.receivers.get(key);
    if (sock) return sock;
    const protocol = kind === 'tcp' ? IPPROTO_TCP : family === 4 ? IPPROTO_ICMP : IPPROTO_ICMPV6;
    sock = open(family, protocol);
    const addon = rawsock();
    try {
      addon.setOption(sock, SOL_SOCKET, SO_RCVBUFFORCE, RECEIVE_BUFFER_BYTES);
    } catch {
      addon.setOption(sock, SOL_SOCKET, SO_RCVBUF, RECEIVE_BUFFER_BYTES);
    }
    const parse: Parser =
      family === 4
        ? kind === 'tcp' ? (b, n) => parseIPv4TcpReply(b, n) : (b, n) => parseIPv4IcmpReply(b, n)
        : kind === 'tcp' ? parseIPv6TcpReply : parseIPv6IcmpReply;
    const buffer = Buffer.alloc(RECEIVE_BATCH * RECEIVE_SLOT_BYTES);
    const slots = Array.from({ length: RECEIVE_BATCH }, (_, i) => buffer.subarray(i * RECEIVE_SLOT_BYTES, (i + 1) * RECEIVE_SLOT_BYTES));
    const meta = new Float64Array(2 * RECEIVE_BATCH);
    const from = Buffer.alloc(16 * RECEIVE_BATCH);
    const onReply = this.onReply;
    const onBatchEnd = this.onBatchEnd;
    // Parse in place (no copy); a bad packet never throws out of the receive path. IPv4
    // parsers read the sender from the IP header; IPv6 sockets deliver no header.
    addon.receive(sock, buffer, meta, from, (count) => {
      for (let i = 0; i < count; i++) {
        let reply: ProbeReply | null = null;
        try {
          reply = parse(slots[i], meta[2 * i], family === 6 ? formatIPv6(from, 16 * i) : '');
        } catch {
          reply = null;
        }
        if (reply) onReply(reply, meta[2 * i + 1]);
      }
      onBatchEnd();
    });
    // Idle sockets must not keep the worker alive; in-flight rounds hold timers anyway.
    addon.unref(sock);
    this.receivers.set(key, sock);
    (family === 4 ? this.receivers4 : this.receivers6).push(sock);
    return sock;
  }
}

function open(family: 4 | 6, protocol: number): RawSocketHandle {
  try {
    return rawsock().open(family, protocol);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'EPERM' || code === 'EACCES') throw new EngineError('NoRawSocketPermission', NO_RAW_SOCKET_PERMISSION);
    throw new EngineError('SocketError', `Cannot open a raw socket: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const PROTOCOL_NUMBER = { icmp: 1, udp: 2, tcp: 3 } as const;

function parserFor(family: 4 | 6, socketProtocol: number): Parser {
  if (socketProtocol === IPPROTO_TCP) return family === 4 ? (b, n) => parseIPv4TcpReply(b, n) : parseIPv6TcpReply;
  return family === 4 ? (b, n) => parseIPv4IcmpReply(b, n) : parseIPv6IcmpReply;
}

const STATE_KIND: ProbeOutcome['kind'][] = ['notSent', 'timeout', 'sendError'];
const CONFIGURATIONS_KEPT = 64;

/** Native rounds on the raw sockets: the addon's flows (rawsock.c, "Native rounds"). */
class RawNativeRounds implements NativeRounds {
  private listener: ((reports: { id: number; rounds: NativeRound[] }[]) => void) | null = null;
  private readonly flows = new Map<number, RawNativeFlow>();
  private registered = false;
  /** The delivery's buffers are the same from one delivery to the next: so are their views. */
  private readonly view = new ReportView();

  constructor(private readonly sockets: ProbeSockets) {}

  supports(spec: Readonly<TraceSpec>): boolean {
    // Whole probes (never fragmented: dontFragment) sent back to back (no inter-hop delay).
    return spec.dontFragment && spec.interHopDelayMs === 0 && spec.maxTtl - spec.firstTtl < 256;
  }

  open(id: number, spec: Readonly<TraceSpec>): NativeFlow {
    const addon = rawsock();
    this.sockets.open();
    if (!this.registered) {
      addon.nativeRounds((...report) => {
        const view = this.view.of(report);
        const out: { id: number; rounds: NativeRound[] }[] = [];
        // Each flow's rounds are consecutive in the head (rawsock.c, deliver_all).
        for (let i = 0; i < view.rounds;) {
          const id = view.head[i * NATIVE_HEAD_FIELDS];
          let end = i + 1;
          while (end < view.rounds && view.head[end * NATIVE_HEAD_FIELDS] === id) end++;
          const flow = this.flows.get(id);
          if (flow) out.push({ id, rounds: flow.convert(view, i, end, false) });
          i = end;
        }
        this.listener?.(out);
      });
      this.registered = true;
    }
    const flow = new RawNativeFlow(this.sockets, addon.flowOpen(id, spec.flowId, 20), () => this.flows.delete(id));
    this.flows.set(id, flow);
    try {
      flow.configure(spec);
    } catch (err) {
      flow.close();
      throw err;
    }
    return flow;
  }

  onReports(cb: (reports: { id: number; rounds: NativeRound[] }[]) => void): void {
    this.listener = cb;
  }
}

class RawNativeFlow implements NativeFlow {
  /** Per configuration id: the settings its rounds were sent with. */
  private readonly confs = new Map<number, Readonly<TraceSpec>>();
  private nextConf = 1;
  private closed = false;

  constructor(private readonly sockets: ProbeSockets, private readonly handle: FlowHandle, private readonly onClose: () => void) {}

  configure(spec: Readonly<TraceSpec>): void {
    const source = parseAddress(spec.source);
    const destination = parseAddress(spec.destination);
    if (!source || !destination) throw new EngineError('BadOptions', 'Bad source or destination address');
    this.sockets.listen(spec.family, spec.protocol);
    const template = new ProbeTemplate({
      family: spec.family, protocol: spec.protocol, source, destination, flowId: spec.flowId,
      destinationPort: spec.destinationPort, packetSize: spec.packetSize, dontFragment: spec.dontFragment,
      dscp: spec.dscp ?? 0,
    });
    const parts = template.nativeParts();
    const tcpData = spec.protocol === 'tcp' ? Math.max(spec.packetSize, minimumPacketSize('tcp')) - minimumPacketSize('tcp') : 0;
    const params = Float64Array.of(
      spec.family, PROTOCOL_NUMBER[spec.protocol], spec.destinationPort, spec.timeoutMs, parts.transport,
      parts.ipSum, parts.transportSum, parts.wanted, tcpData, spec.dscp ?? 0,
    );
    const id = this.nextConf++;
    const sender = this.sockets.sender(spec.family, spec.sourceInterface) as RawSocketHandle;
    rawsock().flowConfigure(this.handle, id, sender, Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, template.length), params, spec.destination);
    // Rounds in flight keep theirs (a round's report names its configuration). Configurations
    // change only when the target's address does (retarget), far less often than a round
    // lives; the newest CONFIGURATIONS_KEPT are kept.
    for (const k of this.confs.keys()) if (k <= id - CONFIGURATIONS_KEPT) this.confs.delete(k);
    this.confs.set(id, spec);
  }

  ttls(ttls: readonly number[]): void {
    rawsock().flowTtls(this.handle, Uint8Array.from(ttls));
  }

  run(intervalMs: number, windowMs: number): void {
    rawsock().flowRun(this.handle, intervalMs, windowMs);
  }

  stop(): void {
    rawsock().flowStop(this.handle);
  }

  take(live: boolean): NativeRound[] {
    // Undefined only while the worker is being terminated.
    const report = rawsock().flowTake(this.handle, live);
    if (!report) return [];
    const view = new ReportView().of(report);
    return this.convert(view, 0, view.rounds, live);
  }

  lastStart(): number {
    return rawsock().flowLastStart(this.handle);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    rawsock().flowClose(this.handle);
    this.onClose();
  }

  /** Rounds first..end-1 of a report (this flow's) as rounds: an ended round's replies parsed by the codecs. */
  convert(view: ReportView, first: number, end: number, live: boolean): NativeRound[] {
    const out: NativeRound[] = [];
    for (let i = first; i < end; i++) {
      const at = i * NATIVE_HEAD_FIELDS;
      const h = view.head;
      const spec = this.confs.get(h[at + 3]);
      if (!spec) continue;
      const round: NativeRound = { serial: h[at + 1], time: h[at + 2], target: spec.destination, outcomes: null };
      const firstProbe = h[at + 6];
      if (firstProbe >= 0) {
        if (h[at + 5] === 1) round.outcomes = outcomesOf(view, firstProbe, h[at + 4], spec);
        else if (live) round.live = liveOf(view.probes, firstProbe, h[at + 4]);
      }
      out.push(round);
    }
    return out;
  }
}

/** Typed views of a native report's buffers (see NativeReport), remade only when a buffer is new. */
class ReportView {
  rounds = 0;
  head = new Float64Array(0);
  probes = new Float64Array(0);
  addresses = new Uint8Array(0);
  replies: (Buffer | undefined)[] | undefined;

  of([rounds, head, probes, addresses, replies]: NativeReport): this {
    this.rounds = rounds;
    if (head && head !== this.head.buffer) this.head = new Float64Array(head);
    if (probes && probes !== this.probes.buffer) this.probes = new Float64Array(probes);
    if (addresses && addresses !== this.addresses.buffer) this.addresses = new Uint8Array(addresses);
    this.replies = replies;
    return this;
  }
}

const KIND: ProbeOutcome['kind'][] = ['timeout', 'echoReply', 'timeExceeded', 'unreachable', 'tcpReply'];

/** The outcomes of an ended round: probes first..first+count-1 of the report. */
function outcomesOf(view: ReportView, first: number, count: number, spec: Readonly<TraceSpec>): ProbeOutcome[] {
  const p = view.probes;
  const addresses = view.addresses;
  const outcomes: ProbeOutcome[] = [];
  for (let j = first; j < first + count; j++) {
    const at = NATIVE_PROBE_FIELDS * j;
    const state = p[at + 1];
    const outcome: ProbeOutcome = { ttl: p[at], kind: STATE_KIND[state] ?? 'timeout', responder: null, rttMs: null, icmpType: 0, icmpCode: 0 };
    if (state === 3) {
      const kind = p[at + 4];
      if (kind !== 0) {
        // A simple reply (rawsock.c, simple_reply): what the codecs would have made of it.
        outcome.kind = KIND[kind];
        outcome.responder = spec.family === 4 ? formatIPv4(addresses, 16 * j) : formatIPv6(addresses, 16 * j);
        outcome.rttMs = p[at + 2];
        outcome.icmpType = p[at + 5];
        outcome.icmpCode = p[at + 6];
      } else {
        const bytes = view.replies?.[j];
        let reply: ProbeReply | null = null;
        if (bytes) {
          try {
            const length = bytes.length - 16;
            reply = parserFor(spec.family, p[at + 3])(bytes, length, spec.family === 6 ? formatIPv6(bytes, length) : '');
          } catch {
            reply = null;
          }
        }
        // The addon matched it by the same rules (engine/native/rawsock.test.ts): a reply the
        // codecs cannot read would count as no answer.
        if (reply) fillOutcome(outcome, reply, p[at + 2], spec);
        else outcome.kind = 'timeout';
      }
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** A round in flight: which probes are still waiting (the Pending code), kinds only. */
function liveOf(p: Float64Array, first: number, count: number): ProbeOutcome[] {
  const outcomes: ProbeOutcome[] = [];
  for (let at = NATIVE_PROBE_FIELDS * first; at < NATIVE_PROBE_FIELDS * (first + count); at += NATIVE_PROBE_FIELDS) {
    const state = p[at + 1];
    outcomes.push({ ttl: p[at], kind: state === 3 ? 'timeExceeded' : STATE_KIND[state], responder: null, rttMs: null, icmpType: 0, icmpCode: 0 });
  }
  return outcomes;
}
