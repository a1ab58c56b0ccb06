// Source fragmentation of a probe datagram that does not fit the outgoing MTU. The kernel never
// fragments what an IPPROTO_RAW socket sends (sendto fails with EMSGSIZE), so a probe larger
// than the MTU is split here, as the kernel would for an ordinary socket (mtr and traceroute
// send such probes that way). Fragment payloads are multiples of 8 bytes except the last; the
// first fragment carries the transport header, so routers' quoted datagrams still match.
import { internetChecksum } from './checksum.js';
import { IPV4_HEADER_LENGTH } from './ipv4.js';
import { IPV6_HEADER_LENGTH } from './ipv6.js';

/** IPv6 Fragment extension header (RFC 8200 4.5): next header value and length. */
export const IPV6_FRAGMENT_HEADER = 44;
export const IPV6_FRAGMENT_HEADER_LENGTH = 8;

/**
 * The pieces a payload of `payloadLength` bytes is cut into, when every fragment carries a
 * header of `headerLength` in `mtu` bytes: payload offset and size of each, and whether it is
 * the last. Sizes are multiples of 8 except the last one's.
 */
function payloadPieces(payloadLength: number, mtu: number, headerLength: number): { offset: number; bytes: number; last: boolean }[] {
  const step = Math.floor((mtu - headerLength) / 8) * 8;
  if (step < 8) throw new RangeError(`MTU ${mtu} is too small to fragment into`);
  const pieces = [];
  for (let offset = 0; offset < payloadLength; offset += step) {
    const bytes = Math.min(step, payloadLength - offset);
    pieces.push({ offset, bytes, last: offset + bytes >= payloadLength });
  }
  return pieces;
}

/**
 * Splits the IPv4 datagram packet[0, length) (a 20-byte header without options, as
 * writeProbe writes it) into fragments of at most `mtu` bytes, written back to back into
 * `out`; returns their lengths. Every fragment keeps the datagram's identification, TTL,
 * protocol and addresses; DF is cleared, MF set on all but the last, the offset counts 8-byte
 * units; total length and header checksum are each fragment's own.
 */
export function fragmentIPv4(packet: Uint8Array, length: number, mtu: number, out: Uint8Array): number[] {
  const h = IPV4_HEADER_LENGTH;
  const lengths: number[] = [];
  let at = 0;
  for (const { offset, bytes, last } of payloadPieces(length - h, mtu, h)) {
    out.set(packet.subarray(0, h), at);
    out.set(packet.subarray(h + offset, h + offset + bytes), at + h);
    const total = h + bytes;
    out[at + 2] = total >> 8;
    out[at + 3] = total & 0xff;
    const units = offset / 8;
    out[at + 6] = (last ? 0 : 0x20) | ((units >> 8) & 0x1f);
    out[at + 7] = units & 0xff;
    out[at + 10] = 0;
    out[at + 11] = 0;
    const sum = internetChecksum(out, at, at + h);
    out[at + 10] = sum >> 8;
    out[at + 11] = sum & 0xff;
    lengths.push(total);
    at += total;
  }
  return lengths;
}

/**
 * Splits the IPv6 packet packet[0, length) (the 40-byte fixed header, then the transport
 * header: no extension headers, as writeProbe writes it) into fragments of at most `mtu` bytes,
 * written back to back into `out`; returns their lengths. Each fragment is the fixed header
 * (next header 44, its own payload length) and a Fragment header (the original next header,
 * offset in 8-byte units, M flag on all but the last, `identification` on every fragment).
 */
export function fragmentIPv6(packet: Uint8Array, length: number, mtu: number, identification: number, out: Uint8Array): number[] {
  const h = IPV6_HEADER_LENGTH;
  const f = IPV6_FRAGMENT_HEADER_LENGTH;
  const nextHeader = packet[6];
  const lengths: number[] = [];
  let at = 0;
  for (const { offset, bytes, last } of payloadPieces(length - h, mtu, h + f)) {
    out.set(packet.subarray(0, h), at);
    const payload = f + bytes;
    out[at + 4] = payload >> 8;
    out[at + 5] = payload & 0xff;
    out[at + 6] = IPV6_FRAGMENT_HEADER;
    const g = at + h;
    out[g] = nextHeader;
    out[g + 1] = 0;
    // Offset (13 bits, 8-byte units) in the high bits, then 2 reserved bits and M.
    out[g + 2] = (offset >> 8) & 0xff;
    out[g + 3] = (offset & 0xf8) | (last ? 0 : 1);
    out[g + 4] = (identification >>> 24) & 0xff;
    out[g + 5] = (identification >>> 16) & 0xff;
    out[g + 6] = (identification >>> 8) & 0xff;
    out[g + 7] = identification & 0xff;
    out.set(packet.subarray(h + offset, h + offset + bytes), g + f);
    lengths.push(h + payload);
    at += h + payload;
  }
  return lengths;
}
