// IPv4 header (RFC 791), 20 bytes without options when we write it; options accepted on read.
import { internetChecksum } from './checksum.js';

export const IPV4_HEADER_LENGTH = 20;
export const IPPROTO_ICMP = 1;
export const IPPROTO_TCP = 6;
export const IPPROTO_UDP = 17;
export const IPPROTO_ICMPV6 = 58;

export interface IPv4HeaderFields {
  totalLength: number;
  identification: number;
  dontFragment: boolean;
  ttl: number;
  protocol: number;
  source: Uint8Array;
  destination: Uint8Array;
  /** Type of service byte (DSCP << 2 | ECN); default 0. */
  tos?: number;
}

/** Writes a 20-byte header at `offset`, checksum included. */
export function writeIPv4Header(buf: Uint8Array, offset: number, f: IPv4HeaderFields): void {
  buf[offset] = 0x45;
  buf[offset + 1] = (f.tos ?? 0) & 0xff;
  buf[offset + 2] = f.totalLength >> 8;
  buf[offset + 3] = f.totalLength & 0xff;
  buf[offset + 4] = (f.identification >> 8) & 0xff;
  buf[offset + 5] = f.identification & 0xff;
  buf[offset + 6] = f.dontFragment ? 0x40 : 0;
  buf[offset + 7] = 0;
  buf[offset + 8] = f.ttl;
  buf[offset + 9] = f.protocol;
  buf[offset + 10] = 0;
  buf[offset + 11] = 0;
  buf.set(f.source, offset + 12);
  buf.set(f.destination, offset + 16);
  const sum = internetChecksum(buf, offset, offset + IPV4_HEADER_LENGTH);
  buf[offset + 10] = sum >> 8;
  buf[offset + 11] = sum & 0xff;
}

export interface IPv4HeaderView {
  headerLength: number;
  totalLength: number;
  identification: number;
  ttl: number;
  protocol: number;
  /** Offset of the source address in the buffer. */
  sourceOffset: number;
  destinationOffset: number;
}

/** Reads a header at `offset`; null when it is not a well-formed IPv4 header. */
export function readIPv4Header(buf: Uint8Array, offset: number, length: number): IPv4HeaderView | null {
  if (length - offset < IPV4_HEADER_LENGTH) return null;
  const vihl = buf[offset];
  if (vihl >> 4 !== 4) return null;
  const headerLength = (vihl & 0x0f) * 4;
  if (headerLength < IPV4_HEADER_LENGTH || length - offset < headerLength) return null;
  return {
    headerLength,
    totalLength: (buf[offset + 2] << 8) | buf[offset + 3],
    identification: (buf[offset + 4] << 8) | buf[offset + 5],
    ttl: buf[offset + 8],
    protocol: buf[offset + 9],
    sourceOffset: offset + 12,
    destinationOffset: offset + 16,
  };
}

/** One's complement sum of the IPv4 pseudo-header (for UDP and TCP checksums). */
export function ipv4PseudoHeaderSum(source: Uint8Array, destination: Uint8Array, protocol: number, length: number): number {
  return (
    ((source[0] << 8) | source[1]) + ((source[2] << 8) | source[3]) +
    ((destination[0] << 8) | destination[1]) + ((destination[2] << 8) | destination[3]) +
    protocol + length
  );
}
