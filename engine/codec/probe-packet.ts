// Builds one complete probe datagram (IP header included) for ICMP echo, UDP or TCP SYN, over
// IPv4 or IPv6. Paris-style: the fields routers hash for ECMP (addresses, protocol, ports, ICMP
// type/code/checksum, IPv6 flow label) are constant for a flow; the probe number travels in a
// field that is quoted back in ICMP errors but not hashed: the ICMP sequence (the checksum is
// held constant by a compensation word in the payload), the UDP checksum, the TCP sequence.
import { compensationWord, finishChecksum, fold, internetChecksum, onesComplementSum } from './checksum.js';
import { IPPROTO_ICMP, IPPROTO_ICMPV6, IPPROTO_TCP, IPPROTO_UDP, IPV4_HEADER_LENGTH, ipv4PseudoHeaderSum, writeIPv4Header } from './ipv4.js';
import { IPV6_HEADER_LENGTH, ipv6PseudoHeaderSum, writeIPv6Header } from './ipv6.js';
import { write16, write32 } from './bytes.js';

export type ProbeProtocol = 'icmp' | 'udp' | 'tcp';

export const ICMP_ECHO_REQUEST = 8;
export const ICMPV6_ECHO_REQUEST = 128;
export const TCP_SYN = 0x02;
const TCP_HEADER_LENGTH = 20;
const UDP_HEADER_LENGTH = 8;
const ICMP_HEADER_LENGTH = 8;

export interface ProbeSpec {
  family: 4 | 6;
  protocol: ProbeProtocol;
  source: Uint8Array;
  destination: Uint8Array;
  /** Constant per trace: ICMP identifier, or UDP/TCP source port. */
  flowId: number;
  /** UDP/TCP destination port (unused for ICMP). */
  destinationPort: number;
  /** Size of the IPv4 datagram (IPv6 probes carry the same transport bytes). */
  packetSize: number;
  dontFragment: boolean;
  ttl: number;
  /** Probe number, 1..0xfffe (0 and 0xffff are not usable as a UDP checksum). */
  probeSeq: number;
  /** DSCP (0-63) in the IPv4 type of service / IPv6 traffic class; default 0. */
  dscp?: number;
}

/** Smallest packet size (IPv4 datagram bytes) for a protocol: headers plus the 2-byte compensation word. */
export function minimumPacketSize(protocol: ProbeProtocol): number {
  if (protocol === 'tcp') return IPV4_HEADER_LENGTH + TCP_HEADER_LENGTH;
  return IPV4_HEADER_LENGTH + (protocol === 'udp' ? UDP_HEADER_LENGTH : ICMP_HEADER_LENGTH) + 2;
}

/** Bytes of a probe datagram (IP header included) for a packet size: IPv6 carries the same transport bytes. */
export function probeLength(family: 4 | 6, protocol: ProbeProtocol, packetSize: number): number {
  const transportLength = Math.max(packetSize, minimumPacketSize(protocol)) - IPV4_HEADER_LENGTH;
  return (family === 4 ? IPV4_HEADER_LENGTH : IPV6_HEADER_LENGTH) + transportLength;
}

/** The constant ICMP checksum of a flow (any fixed value works; derived from the flow id). */
export function icmpFlowChecksum(flowId: number): number {
  return (flowId ^ 0x5a5a) & 0xffff;
}

/** The TCP sequence number that carries a probe: flow id high, probe number low. */
export function tcpProbeSequence(flowId: number, probeSeq: number): number {
  return ((flowId << 16) | probeSeq) >>> 0;
}

/** Writes the probe into `buf` (zeroed as needed) and returns its length in bytes. */
export function writeProbe(buf: Uint8Array, p: ProbeSpec): number {
  const ipLength = p.family === 4 ? IPV4_HEADER_LENGTH : IPV6_HEADER_LENGTH;
  const transportLength = Math.max(p.packetSize, minimumPacketSize(p.protocol)) - IPV4_HEADER_LENGTH;
  const total = ipLength + transportLength;
  const t = ipLength;
  // The typed-array builtin, not Buffer#fill (argument checks and a C++ call per probe).
  Uint8Array.prototype.fill.call(buf, 0, 0, total);
  const nextHeader = p.protocol === 'tcp' ? IPPROTO_TCP : p.protocol === 'udp' ? IPPROTO_UDP : p.family === 4 ? IPPROTO_ICMP : IPPROTO_ICMPV6;
  if (p.family === 4) {
    writeIPv4Header(buf, 0, {
      totalLength: total,
      // The IP id is not hashed by routers; the probe number here too helps reading captures.
      identification: p.probeSeq,
      dontFragment: p.dontFragment,
      ttl: p.ttl,
      protocol: nextHeader,
      source: p.source,
      destination: p.destination,
      tos: (p.dscp ?? 0) << 2,
    });
  } else {
    writeIPv6Header(buf, 0, {
      flowLabel: p.flowId & 0xfffff,
      payloadLength: transportLength,
      nextHeader,
      hopLimit: p.ttl,
      source: p.source,
      destination: p.destination,
      trafficClass: (p.dscp ?? 0) << 2,
    });
  }
  const pseudo =
    p.family === 4
      ? ipv4PseudoHeaderSum(p.source, p.destination, nextHeader, transportLength)
      : ipv6PseudoHeaderSum(p.source, p.destination, nextHeader, transportLength);

  if (p.protocol === 'icmp') {
    buf[t] = p.family === 4 ? ICMP_ECHO_REQUEST : ICMPV6_ECHO_REQUEST;
    write16(buf, t + 4, p.flowId);
    write16(buf, t + 6, p.probeSeq);
    // ICMPv4 has no pseudo-header; ICMPv6 has one.
    const sum = onesComplementSum(buf, t, t + transportLength, p.family === 4 ? 0 : pseudo);
    const wanted = icmpFlowChecksum(p.flowId);
    write16(buf, t + ICMP_HEADER_LENGTH, compensationWord(sum, wanted));
    write16(buf, t + 2, wanted);
  } else if (p.protocol === 'udp') {
    write16(buf, t, p.flowId);
    write16(buf, t + 2, p.destinationPort);
    write16(buf, t + 4, transportLength);
    const sum = onesComplementSum(buf, t, t + transportLength, pseudo);
    write16(buf, t + UDP_HEADER_LENGTH, compensationWord(sum, p.probeSeq));
    write16(buf, t + 6, p.probeSeq);
  } else {
    write16(buf, t, p.flowId);
    write16(buf, t + 2, p.destinationPort);
    write32(buf, t + 4, tcpProbeSequence(p.flowId, p.probeSeq));
    buf[t + 12] = (TCP_HEADER_LENGTH / 4) << 4;
    buf[t + 13] = TCP_SYN;
    write16(buf, t + 14, 64240);
    write16(buf, t + 16, internetChecksum(buf, t, t + transportLength, fold(pseudo)));
  }
  return total;
}


/**
 * The probes of one flow, written from a template. Probes of a flow differ only in the TTL
 * and the probe number (writeProbe's Paris-style layout), so the template holds a probe with
 * both at 0 and the one's complement sums of its fixed parts; a probe is then a copy plus a
 * few words and O(1) checksum arithmetic, byte for byte what writeProbe writes.
 */
export class ProbeTemplate {
  /** Bytes of every probe of the flow. */
  readonly length: number;
  private readonly bytes: Uint8Array;
  private readonly family: 4 | 6;
  private readonly protocol: ProbeProtocol;
  private readonly transport: number;
  /** IPv4 header sum with TTL, identification and checksum at 0. */
  private readonly ipSum: number;
  /** Transport sum (pseudo-header included where the protocol has one) with the per-probe fields at 0. */
  private readonly transportSum: number;
  private readonly wanted: number;

  constructor(p: Omit<ProbeSpec, 'ttl' | 'probeSeq'>) {
    const spec: ProbeSpec = { ...p, ttl: 0, probeSeq: 0 };
    this.family = p.family;
    this.protocol = p.protocol;
    this.bytes = new Uint8Array(Math.max(p.packetSize, minimumPacketSize(p.protocol)) - IPV4_HEADER_LENGTH + (p.family === 4 ? IPV4_HEADER_LENGTH : IPV6_HEADER_LENGTH));
    this.length = writeProbe(this.bytes, spec);
    const t = p.family === 4 ? IPV4_HEADER_LENGTH : IPV6_HEADER_LENGTH;
    this.transport = t;
    const b = this.bytes.slice();
    let pseudo = 0;
    if (p.family === 4) {
      b[10] = 0;
      b[11] = 0;
      this.ipSum = onesComplementSum(b, 0, IPV4_HEADER_LENGTH);
    } else {
      this.ipSum = 0;
    }
    const transportLength = this.length - t;
    const nextHeader = p.protocol === 'tcp' ? IPPROTO_TCP : p.protocol === 'udp' ? IPPROTO_UDP : p.family === 4 ? IPPROTO_ICMP : IPPROTO_ICMPV6;
    if (p.family === 6 || p.protocol !== 'icmp') {
      pseudo = p.family === 4
        ? ipv4PseudoHeaderSum(p.source, p.destination, nextHeader, transportLength)
        : ipv6PseudoHeaderSum(p.source, p.destination, nextHeader, transportLength);
    }
    if (p.protocol === 'icmp') {
      // Checksum field and compensation word at 0 (the sequence is 0 already).
      b[t + 2] = b[t + 3] = b[t + 8] = b[t + 9] = 0;
    } else if (p.protocol === 'udp') {
      b[t + 6] = b[t + 7] = b[t + 8] = b[t + 9] = 0;
    } else {
      b[t + 16] = b[t + 17] = 0;
    }
    this.transportSum = onesComplementSum(b, t, this.length, pseudo);
    this.wanted = icmpFlowChecksum(p.flowId);
  }

  /**
   * What the native round runner (engine/native/rawsock.c, write_probe) needs to write the
   * same bytes: the template with TTL and probe number at 0, the transport header's offset
   * and the sums of the fixed parts.
   */
  nativeParts(): { bytes: Uint8Array; transport: number; ipSum: number; transportSum: number; wanted: number } {
    return { bytes: this.bytes, transport: this.transport, ipSum: this.ipSum, transportSum: this.transportSum, wanted: this.wanted };
  }

  /** Writes probe (ttl, probeSeq) into buf; returns its length. */
  write(buf: Uint8Array, ttl: number, probeSeq: number): number {
    buf.set(this.bytes);
    const t = this.transport;
    if (this.family === 4) {
      buf[4] = probeSeq >> 8;
      buf[5] = probeSeq & 0xff;
      buf[8] = ttl;
      const sum = finishChecksum(this.ipSum + (ttl << 8) + probeSeq);
      buf[10] = sum >> 8;
      buf[11] = sum & 0xff;
    } else {
      buf[7] = ttl;
    }
    if (this.protocol === 'icmp') {
      buf[t + 6] = probeSeq >> 8;
      buf[t + 7] = probeSeq & 0xff;
      const word = compensationWord(fold(this.transportSum + probeSeq), this.wanted);
      buf[t + 8] = word >> 8;
      buf[t + 9] = word & 0xff;
    } else if (this.protocol === 'udp') {
      const word = compensationWord(this.transportSum, probeSeq);
      buf[t + 8] = word >> 8;
      buf[t + 9] = word & 0xff;
      buf[t + 6] = probeSeq >> 8;
      buf[t + 7] = probeSeq & 0xff;
    } else {
      buf[t + 6] = probeSeq >> 8;
      buf[t + 7] = probeSeq & 0xff;
      const sum = finishChecksum(this.transportSum + probeSeq);
      buf[t + 16] = sum >> 8;
      buf[t + 17] = sum & 0xff;
    }
    return this.length;
  }
}
