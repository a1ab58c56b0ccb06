// The simulated side of the network seam (engine/probe/network.ts): probes handed to send()
// are read back from their bytes, walked along the scenario's path (sim-paths.ts), and the
// reply bytes come back after the hop's round-trip time on the simulation's clock, through the
// engine's own reply parsers, stamped with their arrival time as the kernel would stamp them.
import { parseIPv4IcmpReply, parseIPv4TcpReply, parseIPv6IcmpReply, parseIPv6TcpReply, type ProbeReply } from '../codec/reply.js';
import type { ProbeClock, ProbeNetwork, ProbeNetworkFactory, ReplyListener, SendSocket, TimerRef } from '../probe/network.js';
import type { SimPaths } from './sim-paths.js';
import { readProbe, type SimReply } from './sim-packets.js';

interface InFlight {
  dueNs: number;
  reply: SimReply;
  timer: TimerRef;
}

/** The MTU of every simulated link. */
const SIM_MTU = 1500;

export function simulatedNetwork(paths: SimPaths, clock: ProbeClock): ProbeNetworkFactory {
  return (onReply, onBatchEnd) => new SimNetwork(paths, clock, onReply, onBatchEnd);
}

class SimNetwork implements ProbeNetwork {
  /** Replies on their way, by arrival time. */
  private inFlight: InFlight[] = [];
  /** Receive "sockets" open: replies of a kind nobody listens to are lost, as on raw sockets. */
  private readonly listening = new Set<string>();
  private readonly senders = new Map<string, SendSocket>();

  constructor(
    private readonly paths: SimPaths,
    readonly clock: ProbeClock,
    private readonly onReply: ReplyListener,
    private readonly onBatchEnd: () => void,
  ) {}

  open(): void {
    this.listening.add('4/icmp');
    this.listening.add('6/icmp');
  }

  listen(family: 4 | 6, protocol: 'icmp' | 'udp' | 'tcp'): void {
    this.open();
    this.listening.add(`${family}/${protocol === 'tcp' ? 'tcp' : 'icmp'}`);
  }

  sender(family: 4 | 6, sourceInterface: string | null): SendSocket {
    const key = `${family}/${sourceInterface ?? ''}`;
    let s = this.senders.get(key);
    if (!s) this.senders.set(key, (s = { family, sourceInterface }));
    return s;
  }

  send(_sender: SendSocket, buf: Buffer, length: number, destination: string): number {
    const sentAtNs = this.clock.monoNs();
    const probe = readProbe(buf, length);
    const path = probe && probe.destination === destination ? this.paths.get(destination) : undefined;
    const answer = probe && path ? path.answer(probe) : null;
    if (answer) this.arrive(sentAtNs + answer.rttMs * 1e6, answer.reply);
    return sentAtNs;
  }

  sendBatch(sender: SendSocket, buf: Buffer, length: number, count: number, destination: string, times: Float64Array): void {
    for (let i = 0; i < count; i++) times[i] = this.send(sender, buf.subarray(i * length, (i + 1) * length), length, destination);
  }

  drain(): void {
    this.deliverDue();
  }

  drainFamily(): void {
    this.deliverDue();
  }

  close(): void {
    for (const f of this.inFlight) this.clock.clearTimer(f.timer);
    this.inFlight = [];
    this.listening.clear();
  }

  pathMtu(_family: 4 | 6, destination: string): number {
    this.paths.route(destination);
    return SIM_MTU;
  }

  private arrive(dueNs: number, reply: SimReply): void {
    const delayMs = Math.max(0, (dueNs - this.clock.monoNs()) / 1e6);
    const f: InFlight = { dueNs, reply, timer: this.clock.setTimer(() => this.deliverDue(dueNs), delayMs) };
    let i = this.inFlight.length;
    while (i > 0 && this.inFlight[i - 1].dueNs > dueNs) i--;
    this.inFlight.splice(i, 0, f);
  }

  /**
   * Hands every reply that has arrived by now to the prober, as one batch. A reply's own timer
   * passes its arrival time: timers may fire a little before the clock reads it (ms rounding).
   */
  private deliverDue(arrivedNs = 0): void {
    const now = Math.max(this.clock.monoNs(), arrivedNs);
    let n = 0;
    while (n < this.inFlight.length && this.inFlight[n].dueNs <= now) n++;
    if (n === 0) return;
    const due = this.inFlight.splice(0, n);
    for (const f of due) {
      this.clock.clearTimer(f.timer);
      const r = f.reply;
      if (!this.listening.has(`${r.family}/${r.socket}`)) continue;
      const reply = parse(r);
      if (reply) this.onReply(reply, f.dueNs);
    }
    this.onBatchEnd();
  }
}

function parse(r: SimReply): ProbeReply | null {
  const n = r.bytes.length;
  if (r.family === 4) return r.socket === 'tcp' ? parseIPv4TcpReply(r.bytes, n) : parseIPv4IcmpReply(r.bytes, n);
  return r.socket === 'tcp' ? parseIPv6TcpReply(r.bytes, n, r.from) : parseIPv6IcmpReply(r.bytes, n, r.from);
}
