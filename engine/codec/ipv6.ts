// IPv6 fixed header (RFC 8200), 40 bytes. The only extension header our probes carry is the
// Fragment header of a fragmented probe (fragment.ts); quoted datagrams with others are ignored.

export const IPV6_HEADER_LENGTH = 40;

export interface IPv6HeaderFields {
  flowLabel: number;
  payloadLength: number;
  nextHeader: number;
  hopLimit: number;
  source: Uint8Array;
  destination: Uint8Array;
  /** Traffic class byte (DSCP << 2 | ECN); default 0. */
  trafficClass?: number;
}

export function writeIPv6Header(buf: Uint8Array, offset: number, f: IPv6HeaderFields): void {
  const tc = (f.trafficClass ?? 0) & 0xff;
  buf[offset] = 0x60 | (tc >> 4);
  buf[offset + 1] = ((tc & 0x0f) << 4) | ((f.flowLabel >> 16) & 0x0f);
  buf[offset + 2] = (f.flowLabel >> 8) & 0xff;
  buf[offset + 3] = f.flowLabel & 0xff;
  buf[offset + 4] = f.payloadLength >> 8;
  buf[offset + 5] = f.payloadLength & 0xff;
  buf[offset + 6] = f.nextHeader;
  buf[offset + 7] = f.hopLimit;
  buf.set(f.source, offset + 8);
  buf.set(f.destination, offset + 24);
}

export interface IPv6HeaderView {
  payloadLength: number;
  nextHeader: number;
  hopLimit: number;
  sourceOffset: number;
  destinationOffset: number;
}

export function readIPv6Header(buf: Uint8Array, offset: number, length: number): IPv6HeaderView | null {
  if (length - offset < IPV6_HEADER_LENGTH) return null;
  if (buf[offset] >> 4 !== 6) return null;
  return {
    payloadLength: (buf[offset + 4] << 8) | buf[offset + 5],
    nextHeader: buf[offset + 6],
    hopLimit: buf[offset + 7],
    sourceOffset: offset + 8,
    destinationOffset: offset + 24,
  };
}

/** One's complement sum of the IPv6 pseudo-header (RFC 8200 8.1). */
export function ipv6PseudoHeaderSum(source: Uint8Array, destination: Uint8Array, nextHeader: number, length: number): number {
  let sum = 0;
  for (let i = 0; i < 16; i += 2) {
    sum += (source[i] << 8) | source[i + 1];
    sum += (destination[i] << 8) | destination[i + 1];
  }
  return sum + Math.floor(length / 0x10000) + (length & 0xffff) + nextHeader;
}
