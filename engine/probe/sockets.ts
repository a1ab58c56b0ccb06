// The raw sockets of the probe worker. Sending: one IPPROTO_RAW socket per family (and per
// source interface), so every probe carries our own IP header (TTL, DF, flow label) and no
// per-probe setsockopt is needed. Receiving: ICMP/ICMPv6 sockets always, TCP sockets only
// while TCP probes are in use (a raw TCP socket sees a copy of every TCP segment).
import { EngineError, NO_RAW_SOCKET_PERMISSION } from '../errors.js';
import type { ProbeReply } from '../codec/reply.js';
import { parseIPv4IcmpReply, parseIPv4TcpReply, parseIPv6IcmpReply, parseIPv6TcpReply } from '../codec/reply.js';
import { rawsock, type RawSocketHandle } from './rawsock.js';

const IPPROTO_RAW = 255;
const IPPROTO_ICMP = 1;
const IPPROTO_TCP = 6;
const IPPROTO_ICMPV6 = 58;
const SOL_SOCKET = 1;
const SO_RCVBUF = 8;
const SO_BINDTODEVICE = 25;
const SO_RCVBUFFORCE = 33;
const RECEIVE_BUFFER_BYTES = 8 * 1024 * 1024;

/** receivedAtNs: CLOCK_MONOTONIC ns taken right after recvfrom. */
export type ReplyListener = (reply: ProbeReply, receivedAtNs: number) => void;
type Parser = (buf: Buffer, length: number, from: string) => ProbeReply | null;

export class SendError extends Error {
  constructor(readonly errno: number) {
    super(`sendto failed (errno ${errno})`);
  }
}

export class ProbeSockets {
  private readonly senders = new Map<string, RawSocketHandle>();
  private readonly receivers = new Map<string, RawSocketHandle>();

  constructor(private readonly onReply: ReplyListener) {}

  /** Opens the ICMP receive sockets of both families (fails without CAP_NET_RAW). */
  open(): void {
    this.receiver(4, 'icmp');
    this.receiver(6, 'icmp');
  }

  /** Sends one probe; returns the send time in ns (CLOCK_MONOTONIC), taken right before sendto. */
  send(family: 4 | 6, sourceInterface: string | null, buf: Buffer, length: number, destination: string): number {
    const r = rawsock().send(this.sender(family, sourceInterface), buf, length, destination);
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

  close(): void {
    for (const s of [...this.senders.values(), ...this.receivers.values()]) rawsock().close(s);
    this.senders.clear();
    this.receivers.clear();
  }

  private sender(family: 4 | 6, sourceInterface: string | null): RawSocketHandle {
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
    const buffer = Buffer.alloc(65536);
    const onReply = this.onReply;
    // Parse in place (no copy); a bad packet never throws out of the receive path.
    addon.receive(sock, buffer, (bytes, source, receivedAtNs) => {
      let reply: ProbeReply | null = null;
      try { reply = parse(buffer, bytes, source); } catch { reply = null; }
      if (reply) onReply(reply, receivedAtNs);
    });
    // Idle sockets must not keep the worker alive; in-flight rounds hold timers anyway.
    addon.unref(sock);
    this.receivers.set(key, sock);
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
