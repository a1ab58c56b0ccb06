// Decodes what the receive sockets deliver into a ProbeReply: which probe (protocol, flow id,
// probe number, destination) it answers, who answered and how. Anything malformed, truncated
// or not an answer to one of our probe kinds gives null: the receive path never throws.
import { formatIPv4, formatIPv6, canonicalAddress } from './address.js';
import { IPPROTO_ICMP, IPPROTO_ICMPV6, IPPROTO_TCP, IPPROTO_UDP, readIPv4Header } from './ipv4.js';
import { IPV6_FRAGMENT_HEADER, IPV6_FRAGMENT_HEADER_LENGTH } from './fragment.js';
import { IPV6_HEADER_LENGTH, readIPv6Header } from './ipv6.js';
import { ICMP_ECHO_REQUEST, ICMPV6_ECHO_REQUEST, type ProbeProtocol } from './probe-packet.js';
import { parseMplsExtension, type MplsLabel } from './icmp-extensions.js';

/** echoReply and tcpReply come from the destination itself; the others quote our probe. */
export type ReplyKind = 'echoReply' | 'timeExceeded' | 'unreachable' | 'tcpReply';

export interface ProbeReply {
  kind: ReplyKind;
  protocol: ProbeProtocol;
  /** Address that sent the reply (canonical text). */
  responder: string;
  /** Destination of the probe answered (canonical text). */
  destination: string;
  flowId: number;
  probeSeq: number;
  /** UDP/TCP destination port of the probe; 0 for ICMP. */
  destinationPort: number;
  /** ICMP type and code of the reply (0 for TCP replies). */
  icmpType: number;
  icmpCode: number;
  /**
   * TCP resets only: the acknowledgement number minus one. A reset acknowledges the data
   * bytes the SYN carried as well, so only the prober, which knows how many that flow sends,
   * can tell the probe's sequence number (and so flowId and probeSeq) from it.
   */
  tcpResetAcked?: number;
  /** The MPLS label stack the router reported (RFC 4884/4950 extension), top first; absent when none. */
  mpls?: MplsLabel[];
  /**
   * IPv4 UDP probes only, in time exceeded and unreachable quotes: the quoted UDP checksum is
   * not the one we sent, so a device on the way translated the probe (NAT). Such probes are
   * matched by the quoted IPv4 identification, which carries the probe number as well.
   */
  natDetected?: boolean;
  /** Time exceeded and unreachable: the DSCP of the probe as the hop quotes it (a path may rewrite it). */
  quotedDscp?: number;
}

const ICMP_ECHO_REPLY = 0;
const ICMP_UNREACHABLE = 3;
const ICMP_TIME_EXCEEDED = 11;
const ICMPV6_UNREACHABLE = 1;
const ICMPV6_TIME_EXCEEDED = 3;
const ICMPV6_ECHO_REPLY = 129;
const TCP_FLAG_RST = 0x04;
const TCP_FLAG_SYN = 0x02;
const TCP_FLAG_ACK = 0x10;

/** An IPv4 ICMP raw socket delivers the IP header followed by the ICMP message. */
export function parseIPv4IcmpReply(buf: Uint8Array, length: number): ProbeReply | null {
  const ip = readIPv4Header(buf, 0, length);
  if (!ip || ip.protocol !== IPPROTO_ICMP) return null;
  const icmp = ip.headerLength;
  if (length - icmp < 8) return null;
  const type = buf[icmp];
  const code = buf[icmp + 1];
  const responder = formatIPv4(buf, ip.sourceOffset);
  if (type === ICMP_ECHO_REPLY) {
    return {
      kind: 'echoReply', protocol: 'icmp', responder, destination: responder,
      flowId: read16(buf, icmp + 4), probeSeq: read16(buf, icmp + 6), destinationPort: 0,
      icmpType: type, icmpCode: code,
    };
  }
  if (type !== ICMP_TIME_EXCEEDED && type !== ICMP_UNREACHABLE) return null;
  const q = readIPv4Header(buf, icmp + 8, length);
  if (!q) return null;
  // A later fragment of a probe quotes no transport header (Linux answers fragment 0 only).
  if (((buf[icmp + 8 + 6] & 0x1f) | buf[icmp + 8 + 7]) !== 0) return null;
  const qt = icmp + 8 + q.headerLength;
  if (length - qt < 8) return null;
  const reply = quoted(type === ICMP_TIME_EXCEEDED ? 'timeExceeded' : 'unreachable', q.protocol, ICMP_ECHO_REQUEST,
    buf, qt, responder, formatIPv4(buf, q.destinationOffset), type, code);
  if (!reply) return null;
  reply.quotedDscp = buf[icmp + 8 + 1] >> 2;
  if (reply.protocol === 'udp') {
    // The probe number is both the UDP checksum and the IPv4 identification of our probes: a
    // translating device rewrites the checksum (addresses and ports are in it), not the id.
    const id = read16(buf, icmp + 8 + 4);
    if (id !== reply.probeSeq) {
      reply.natDetected = true;
      reply.probeSeq = id;
    }
  }
  return withExtensions(reply, buf, icmp, length, 4);
}

function withExtensions(reply: ProbeReply, buf: Uint8Array, icmp: number, end: number, family: 4 | 6): ProbeReply {
  const mpls = parseMplsExtension(buf, icmp, end, family);
  if (mpls) reply.mpls = mpls;
  return reply;
}

/** An IPv6 ICMPv6 raw socket delivers the ICMPv6 message only; the sender comes from recvfrom. */
export function parseIPv6IcmpReply(buf: Uint8Array, length: number, from: string): ProbeReply | null {
  if (length < 8) return null;
  const type = buf[0];
  const code = buf[1];
  if (type === ICMPV6_ECHO_REPLY) {
    const responder = canonicalAddress(from);
    if (!responder) return null;
    return {
      kind: 'echoReply', protocol: 'icmp', responder, destination: responder,
      flowId: read16(buf, 4), probeSeq: read16(buf, 6), destinationPort: 0, icmpType: type, icmpCode: code,
    };
  }
  if (type !== ICMPV6_TIME_EXCEEDED && type !== ICMPV6_UNREACHABLE) return null;
  const q = readIPv6Header(buf, 8, length);
  if (!q) return null;
  let qt = 8 + IPV6_HEADER_LENGTH;
  let next = q.nextHeader;
  // A fragmented probe (allowFragmentation): the first fragment's Fragment header comes before
  // the transport header; later fragments quote no transport header at all.
  if (next === IPV6_FRAGMENT_HEADER) {
    if (length - qt < IPV6_FRAGMENT_HEADER_LENGTH) return null;
    if ((((buf[qt + 2] << 8) | buf[qt + 3]) & 0xfff8) !== 0) return null;
    next = buf[qt];
    qt += IPV6_FRAGMENT_HEADER_LENGTH;
  }
  if (length - qt < 8) return null;
  const responder = canonicalAddress(from);
  if (!responder) return null;
  const nh = next === IPPROTO_ICMPV6 ? IPPROTO_ICMP : next;
  const reply = quoted(type === ICMPV6_TIME_EXCEEDED ? 'timeExceeded' : 'unreachable', nh, ICMPV6_ECHO_REQUEST,
    buf, qt, responder, formatIPv6(buf, q.destinationOffset), type, code);
  if (!reply) return null;
  reply.quotedDscp = (((buf[8] & 0x0f) << 4) | (buf[9] >> 4)) >> 2;
  return withExtensions(reply, buf, 0, length, 6);
}

function quoted(
  kind: ReplyKind, protocol: number, echoType: number, buf: Uint8Array, qt: number,
  responder: string, destination: string, type: number, code: number,
): ProbeReply | null {
  if (protocol === IPPROTO_ICMP) {
    if (buf[qt] !== echoType) return null;
    return { kind, protocol: 'icmp', responder, destination, flowId: read16(buf, qt + 4), probeSeq: read16(buf, qt + 6), destinationPort: 0, icmpType: type, icmpCode: code };
  }
  if (protocol === IPPROTO_UDP) {
    return { kind, protocol: 'udp', responder, destination, flowId: read16(buf, qt), probeSeq: read16(buf, qt + 6), destinationPort: read16(buf, qt + 2), icmpType: type, icmpCode: code };
  }
  if (protocol === IPPROTO_TCP) {
    const seq = read32(buf, qt + 4);
    const flowId = read16(buf, qt);
    if (seq >>> 16 !== flowId) return null;
    return { kind, protocol: 'tcp', responder, destination, flowId, probeSeq: seq & 0xffff, destinationPort: read16(buf, qt + 2), icmpType: type, icmpCode: code };
  }
  return null;
}

/** An IPv4 TCP raw socket delivers the IP header and the segment (SYN-ACK or RST from the target). */
export function parseIPv4TcpReply(buf: Uint8Array, length: number): ProbeReply | null {
  const ip = readIPv4Header(buf, 0, length);
  if (!ip || ip.protocol !== IPPROTO_TCP) return null;
  return tcpSegment(buf, ip.headerLength, length, formatIPv4(buf, ip.sourceOffset));
}

/** An IPv6 TCP raw socket delivers the segment only. */
export function parseIPv6TcpReply(buf: Uint8Array, length: number, from: string): ProbeReply | null {
  if (length < 20) return null;
  const responder = canonicalAddress(from);
  return responder ? tcpSegment(buf, 0, length, responder) : null;
}

function tcpSegment(buf: Uint8Array, t: number, length: number, responder: string): ProbeReply | null {
  if (length - t < 20) return null;
  const flags = buf[t + 13];
  const synAck = (flags & (TCP_FLAG_SYN | TCP_FLAG_ACK)) === (TCP_FLAG_SYN | TCP_FLAG_ACK);
  const rstAck = (flags & (TCP_FLAG_RST | TCP_FLAG_ACK)) === (TCP_FLAG_RST | TCP_FLAG_ACK);
  if (!synAck && !rstAck) return null;
  const acked = (read32(buf, t + 8) - 1) >>> 0;
  const flowId = read16(buf, t + 2);
  // A SYN-ACK acknowledges the SYN alone (its data is not taken before the handshake).
  if (synAck && acked >>> 16 !== flowId) return null;
  return {
    kind: 'tcpReply', protocol: 'tcp', responder, destination: responder, flowId,
    probeSeq: acked & 0xffff, destinationPort: read16(buf, t), icmpType: 0, icmpCode: 0,
    ...(synAck ? {} : { tcpResetAcked: acked }),
  };
}

function read16(buf: Uint8Array, o: number): number {
  return (buf[o] << 8) | buf[o + 1];
}

function read32(buf: Uint8Array, o: number): number {
  return ((buf[o] << 24) | (buf[o + 1] << 16) | (buf[o + 2] << 8) | buf[o + 3]) >>> 0;
}
