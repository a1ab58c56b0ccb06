// The simulation's packet side: reads the probe datagrams the engine sends (bytes written by
// engine/codec) and writes the replies a real network would send back, byte for byte as the
// receive sockets deliver them (IPv4: IP header first; IPv6: the ICMPv6 message or TCP segment
// alone, the sender beside it). The engine's own reply parsers then read them.
import { formatIPv4, formatIPv6, parseAddress } from '../codec/address.js';
import { fold, internetChecksum } from '../codec/checksum.js';
import { IPPROTO_ICMP, IPPROTO_ICMPV6, IPPROTO_TCP, IPPROTO_UDP, IPV4_HEADER_LENGTH, readIPv4Header, writeIPv4Header, ipv4PseudoHeaderSum } from '../codec/ipv4.js';
import { IPV6_HEADER_LENGTH, ipv6PseudoHeaderSum, readIPv6Header } from '../codec/ipv6.js';
import type { ProbeProtocol } from '../codec/probe-packet.js';
import { writeMplsExtension, type MplsLabel } from '../codec/icmp-extensions.js';
import { write16, write32 } from '../codec/bytes.js';

export interface SentProbe {
  family: 4 | 6;
  protocol: ProbeProtocol;
  ttl: number;
  source: string;
  destination: string;
  /** The datagram as sent (a copy). */
  bytes: Uint8Array;
  /** Offset of the ICMP/UDP/TCP header in bytes. */
  transport: number;
}

/** A reply as a receive socket of `family` and `socket` kind would deliver it. */
export interface SimReply {
  family: 4 | 6;
  socket: 'icmp' | 'tcp';
  bytes: Uint8Array;
  /** The sender (what recvfrom gives; IPv4 parsers read it from the IP header instead). */
  from: string;
}

const PROTOCOLS: Record<number, ProbeProtocol> = { [IPPROTO_ICMP]: 'icmp', [IPPROTO_ICMPV6]: 'icmp', [IPPROTO_UDP]: 'udp', [IPPROTO_TCP]: 'tcp' };
/** What routers quote of a probe: RFC 1812 says as much as fits 576 bytes (IPv4), RFC 4443 1280 (IPv6). */
const QUOTE_V4 = 576 - IPV4_HEADER_LENGTH - 8;
const QUOTE_V6 = 1280 - IPV6_HEADER_LENGTH - 8;

/**
 * Reads a whole probe datagram; null for anything else. Fragments are not simulated: a probe
 * the engine fragmented (allowFragmentation above the MTU) is lost in the simulation.
 */
export function readProbe(buf: Uint8Array, length: number): SentProbe | null {
  // A copy (Buffer.slice would share the prober's batch buffer, rewritten by the next round).
  const bytes = new Uint8Array(buf.subarray(0, length));
  if (length > 0 && bytes[0] >> 4 === 4) {
    const ip = readIPv4Header(bytes, 0, length);
    if (!ip || (bytes[6] & 0x3f) !== 0 || bytes[7] !== 0) return null;
    const protocol = PROTOCOLS[ip.protocol];
    if (!protocol || ip.protocol === IPPROTO_ICMPV6) return null;
    return { family: 4, protocol, ttl: ip.ttl, source: formatIPv4(bytes, ip.sourceOffset), destination: formatIPv4(bytes, ip.destinationOffset), bytes, transport: ip.headerLength };
  }
  const ip = readIPv6Header(bytes, 0, length);
  if (!ip) return null;
  const protocol = PROTOCOLS[ip.nextHeader];
  if (!protocol || ip.nextHeader === IPPROTO_ICMP) return null;
  return { family: 6, protocol, ttl: ip.hopLimit, source: formatIPv6(bytes, ip.sourceOffset), destination: formatIPv6(bytes, ip.destinationOffset), bytes, transport: IPV6_HEADER_LENGTH };
}

/**
 * ICMP time exceeded in transit from a router, quoting the probe; with `mpls`, an RFC 4884
 * extension carrying the label stack follows the quote, padded to 128 bytes (RFC 4950).
 */
export function timeExceeded(p: SentProbe, router: string, mpls?: readonly MplsLabel[]): SimReply {
  return icmpError(p, router, p.family === 4 ? 11 : 3, 0, mpls);
}

/** A router rewriting the DSCP of what it forwards (IPv4 TOS with its header checksum, IPv6 traffic class). */
export function rewriteDscp(p: SentProbe, dscp: number): SentProbe {
  const bytes = Uint8Array.from(p.bytes);
  if (p.family === 4) {
    bytes[1] = (dscp << 2) | (bytes[1] & 3);
    bytes[10] = bytes[11] = 0;
    write16(bytes, 10, internetChecksum(bytes, 0, p.transport));
  } else {
    const tc = (dscp << 2) | ((bytes[1] >> 4) & 3);
    bytes[0] = 0x60 | (tc >> 4);
    bytes[1] = ((tc & 0x0f) << 4) | (bytes[1] & 0x0f);
  }
  return { ...p, bytes };
}

/**
 * A source NAT (IPv4) forwarding the probe: its address becomes the source and the UDP or TCP
 * checksum follows (the IPv4 identification stays). Returns the translated copy.
 */
export function translateSource(p: SentProbe, nat: string): SentProbe {
  const address = parseAddress(nat);
  if (p.family !== 4 || !address) return p;
  const bytes = Uint8Array.from(p.bytes);
  bytes.set(address, 12);
  bytes[10] = bytes[11] = 0;
  write16(bytes, 10, internetChecksum(bytes, 0, p.transport));
  const t = p.transport;
  const checksumAt = p.protocol === 'udp' ? t + 6 : p.protocol === 'tcp' ? t + 16 : -1;
  if (checksumAt >= 0) {
    bytes[checksumAt] = bytes[checksumAt + 1] = 0;
    const pseudo = ipv4PseudoHeaderSum(address, bytes.subarray(16, 20), p.protocol === 'udp' ? IPPROTO_UDP : IPPROTO_TCP, bytes.length - t);
    write16(bytes, checksumAt, internetChecksum(bytes, t, bytes.length, fold(pseudo)));
  }
  return { ...p, bytes };
}

/** Destination unreachable quoting the probe: 'host' from a router without a route, 'port' from the target (UDP). */
export function unreachable(p: SentProbe, from: string, why: 'host' | 'port'): SimReply {
  // IPv4: host unreachable 1, port unreachable 3; ICMPv6 (type 1): address unreachable 3, port unreachable 4.
  return p.family === 4 ? icmpError(p, from, 3, why === 'host' ? 1 : 3) : icmpError(p, from, 1, why === 'host' ? 3 : 4);
}

/** The target's echo reply to an ICMP probe: the same identifier, sequence and payload. */
export function echoReply(p: SentProbe): SimReply {
  const message = p.bytes.slice(p.transport);
  message[0] = p.family === 4 ? 0 : 129;
  return icmpMessage(p, p.destination, message);
}

/** The target's answer to a TCP SYN: a SYN-ACK (open port) or a reset (closed port). */
export function tcpReply(p: SentProbe, kind: 'rst' | 'synAck'): SimReply {
  const t = p.transport;
  const b = p.bytes;
  const seq = ((b[t + 4] << 24) | (b[t + 5] << 16) | (b[t + 6] << 8) | b[t + 7]) >>> 0;
  const dataBytes = b.length - t - (b[t + 12] >> 4) * 4;
  const seg = new Uint8Array(20);
  // From the probe's destination port to its source port.
  seg.set(b.subarray(t + 2, t + 4), 0);
  seg.set(b.subarray(t, t + 2), 2);
  write32(seg, 4, kind === 'synAck' ? 0x68770000 : 0);
  // A SYN-ACK acknowledges the SYN alone (data waits for the handshake); a reset from a closed
  // port acknowledges the data too (RFC 9293 3.10.7.1).
  write32(seg, 8, (seq + 1 + (kind === 'synAck' ? 0 : dataBytes)) >>> 0);
  seg[12] = 5 << 4;
  seg[13] = kind === 'synAck' ? 0x12 : 0x14;
  if (kind === 'synAck') write16(seg, 14, 65535);
  const target = parseAddress(p.destination)!;
  const host = parseAddress(p.source)!;
  const pseudo = p.family === 4 ? ipv4PseudoHeaderSum(target, host, IPPROTO_TCP, seg.length) : ipv6PseudoHeaderSum(target, host, IPPROTO_TCP, seg.length);
  write16(seg, 16, internetChecksum(seg, 0, seg.length, fold(pseudo)));
  return { family: p.family, socket: 'tcp', bytes: p.family === 4 ? withIPv4Header(seg, IPPROTO_TCP, target, host) : seg, from: p.destination };
}

function icmpError(p: SentProbe, from: string, type: number, code: number, mpls?: readonly MplsLabel[]): SimReply {
  const quoted = p.bytes.subarray(0, Math.min(p.bytes.length, p.family === 4 ? QUOTE_V4 : QUOTE_V6));
  if (!mpls || mpls.length === 0) {
    const message = new Uint8Array(8 + quoted.length);
    message[0] = type;
    message[1] = code;
    message.set(quoted, 8);
    return icmpMessage(p, from, message);
  }
  // RFC 4884: the original datagram zero-padded to at least 128 bytes (a multiple of the
  // length unit), its length in the header, then the extension structure.
  const unit = p.family === 4 ? 4 : 8;
  const original = Math.max(128, Math.ceil(quoted.length / unit) * unit);
  const message = new Uint8Array(8 + original + 8 + 4 * mpls.length);
  message[0] = type;
  message[1] = code;
  message[p.family === 4 ? 5 : 4] = original / unit;
  message.set(quoted, 8);
  writeMplsExtension(message, 8 + original, mpls);
  return icmpMessage(p, from, message);
}

/** Fills the checksum of an ICMP/ICMPv6 message from `from` to the probe's source and frames it. */
function icmpMessage(p: SentProbe, from: string, message: Uint8Array): SimReply {
  const sender = parseAddress(from)!;
  const host = parseAddress(p.source)!;
  message[2] = message[3] = 0;
  const pseudo = p.family === 4 ? 0 : fold(ipv6PseudoHeaderSum(sender, host, IPPROTO_ICMPV6, message.length));
  write16(message, 2, internetChecksum(message, 0, message.length, pseudo));
  return { family: p.family, socket: 'icmp', bytes: p.family === 4 ? withIPv4Header(message, IPPROTO_ICMP, sender, host) : message, from };
}

function withIPv4Header(payload: Uint8Array, protocol: number, source: Uint8Array, destination: Uint8Array): Uint8Array {
  const out = new Uint8Array(IPV4_HEADER_LENGTH + payload.length);
  writeIPv4Header(out, 0, { totalLength: out.length, identification: 0, dontFragment: false, ttl: 64, protocol, source, destination });
  out.set(payload, IPV4_HEADER_LENGTH);
  return out;
}
