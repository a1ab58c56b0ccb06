// ICMP extensions (RFC 4884 multi-part messages) in time exceeded and destination unreachable
// replies, and the one object routers send in them: the MPLS label stack the probe carried
// when its TTL ran out (RFC 4950). IPv4 and ICMPv6. Malformed or truncated extensions are
// ignored (null), never thrown.
import { verifies } from './checksum.js';

/** One entry of an MPLS label stack (RFC 4950 / RFC 3032), top of the stack first. */
export interface MplsLabel {
  /** 20-bit label value. */
  label: number;
  /** 3 experimental bits (traffic class, RFC 5462). */
  exp: number;
  /** The bottom-of-stack bit. */
  bottomOfStack: boolean;
  /** The label's TTL as the router received it. */
  ttl: number;
}

const EXTENSION_VERSION = 2;
/** RFC 4884: the original datagram field is at least 128 bytes when extensions follow. */
const MIN_ORIGINAL_DATAGRAM = 128;
const CLASS_MPLS_LABEL_STACK = 1;
const CTYPE_INCOMING_MPLS_LABEL_STACK = 1;

/**
 * The MPLS label stack of an ICMP(v6) time exceeded or unreachable message at `icmp` (the
 * message runs to `end`), or null when it carries none. RFC 4884: the length of the original
 * datagram is at byte 5 in 32-bit words (ICMPv4) or byte 4 in 64-bit words (ICMPv6). Length 0
 * with more than 128 bytes after the header: routers that predate RFC 4884 put the extension at
 * 128 (RFC 4884 section 5.5, as traceroute and mtr read it); then its checksum must verify.
 */
export function parseMplsExtension(buf: Uint8Array, icmp: number, end: number, family: 4 | 6): MplsLabel[] | null {
  if (end > buf.length || end - icmp < 8) return null;
  const original = icmp + 8;
  const words = family === 4 ? buf[icmp + 5] : buf[icmp + 4];
  let ext: number;
  let compatible = false;
  if (words !== 0) {
    const bytes = words * (family === 4 ? 4 : 8);
    if (bytes < MIN_ORIGINAL_DATAGRAM) return null;
    ext = original + bytes;
  } else {
    if (end - original <= MIN_ORIGINAL_DATAGRAM) return null;
    ext = original + MIN_ORIGINAL_DATAGRAM;
    compatible = true;
  }
  if (end - ext < 4 || buf[ext] >> 4 !== EXTENSION_VERSION) return null;
  const checksum = (buf[ext + 2] << 8) | buf[ext + 3];
  // A checksum of 0 means "not computed" for senders that give a length; a guessed offset must prove itself.
  if ((checksum !== 0 || compatible) && !verifies(buf, ext, end)) return null;
  let labels: MplsLabel[] | null = null;
  for (let o = ext + 4; o < end;) {
    if (end - o < 4) return null;
    const length = (buf[o] << 8) | buf[o + 1];
    if (length < 4 || o + length > end) return null;
    if (buf[o + 2] === CLASS_MPLS_LABEL_STACK && buf[o + 3] === CTYPE_INCOMING_MPLS_LABEL_STACK) {
      if ((length - 4) % 4 !== 0 || length === 4) return null;
      labels = [];
      for (let e = o + 4; e < o + length; e += 4) {
        const word = ((buf[e] << 24) | (buf[e + 1] << 16) | (buf[e + 2] << 8) | buf[e + 3]) >>> 0;
        labels.push({ label: word >>> 12, exp: (word >>> 9) & 7, bottomOfStack: ((word >>> 8) & 1) === 1, ttl: word & 0xff });
      }
    }
    o += length;
  }
  return labels;
}

/**
 * Writes an RFC 4884 extension structure with one MPLS label stack object into `out` at `at`
 * (checksum filled in); returns its length. For the simulated network and the codec tests.
 */
export function writeMplsExtension(out: Uint8Array, at: number, labels: readonly MplsLabel[]): number {
  const objectLength = 4 + 4 * labels.length;
  const length = 4 + objectLength;
  out.fill(0, at, at + length);
  out[at] = EXTENSION_VERSION << 4;
  out[at + 4] = objectLength >> 8;
  out[at + 5] = objectLength & 0xff;
  out[at + 6] = CLASS_MPLS_LABEL_STACK;
  out[at + 7] = CTYPE_INCOMING_MPLS_LABEL_STACK;
  labels.forEach((l, i) => {
    const word = ((l.label & 0xfffff) << 12) | ((l.exp & 7) << 9) | (l.bottomOfStack ? 1 << 8 : 0) | (l.ttl & 0xff);
    const e = at + 8 + 4 * i;
    out[e] = (word >>> 24) & 0xff;
    out[e + 1] = (word >>> 16) & 0xff;
    out[e + 2] = (word >>> 8) & 0xff;
    out[e + 3] = word & 0xff;
  });
  let sum = 0;
  for (let i = at; i < at + length; i += 2) sum += (out[i] << 8) | (i + 1 < at + length ? out[i + 1] : 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  const checksum = ~sum & 0xffff;
  out[at + 2] = checksum >> 8;
  out[at + 3] = checksum & 0xff;
  return length;
}
