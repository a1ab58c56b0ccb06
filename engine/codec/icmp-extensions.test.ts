// RFC 4884 multi-part ICMP messages carrying RFC 4950 MPLS label stacks, and NAT detection for
// UDP probes, on byte fixtures written out by hand (not by the module's own writer).
import { describe, expect, it } from 'vitest';
import { verifies } from './checksum.js';
import { parseMplsExtension, writeMplsExtension } from './icmp-extensions.js';
import { parseIPv4IcmpReply, parseIPv6IcmpReply } from './reply.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

// Two labels: 16 (exp 5, not bottom, TTL 254) over 24001 (exp 0, bottom of stack, TTL 1).
const EXT_TWO_LABELS = hex('2000 bd16  000c 0101  0001 0afe  05dc 1101');
const TWO_LABELS = [
  { label: 16, exp: 5, bottomOfStack: false, ttl: 254 },
  { label: 24001, exp: 0, bottomOfStack: true, ttl: 1 },
];
// The quoted probe (an ICMP echo of flow 0x1234, probe 7 to 10.251.3.2), padded to 128 bytes as RFC 4884 asks.
const QUOTE_V4 = cat(hex('4500 0054 0007 4000 0101 0000 0afb 0002 0afb 0302  0800 4e6e 1234 0007'), new Uint8Array(100));
const OUTER_V4 = (icmpLength: number) => hex(`45c0 ${icmpLength.toString(16).padStart(4, '0')} 0000 0000 f901 0000 0afb 0101 0afb 0002`);

/** IPv4 time exceeded from 10.251.1.1, RFC 4884 length byte `words`, the quote, then `ext`. */
function v4TimeExceeded(words: number, ext: Uint8Array, quote = QUOTE_V4): Uint8Array {
  const icmp = cat(hex(`0b00 0000 00${words.toString(16).padStart(2, '0')} 0000`), quote, ext);
  return cat(OUTER_V4(20 + icmp.length), icmp);
}

const QUOTE_V6 = cat(hex(`6001 2340 0024 3a01 fd00 0251 0000 0000 0000 0000 0000 0002 fd00 0251 0003 0000 0000 0000 0000 0002
  8000 4e6e 1234 0005`), new Uint8Array(128 - 48));

describe('RFC 4884 / RFC 4950 extensions', () => {
  it('the hand-made fixture has a valid extension checksum', () => {
    expect(verifies(EXT_TWO_LABELS, 0, EXT_TWO_LABELS.length)).toBe(true);
  });

  it('reads an MPLS label stack from an IPv4 time exceeded with the RFC 4884 length (32 words)', () => {
    const b = v4TimeExceeded(32, EXT_TWO_LABELS);
    expect(parseIPv4IcmpReply(b, b.length)).toMatchObject({ kind: 'timeExceeded', responder: '10.251.1.1', flowId: 0x1234, probeSeq: 7, mpls: TWO_LABELS });
  });

  it('reads one label from a router that predates RFC 4884 (length 0, extension at byte 128)', () => {
    const ext = hex('2000 c819  0008 0101  05dc 1101');
    const b = v4TimeExceeded(0, ext);
    expect(parseIPv4IcmpReply(b, b.length)!.mpls).toEqual([{ label: 24001, exp: 0, bottomOfStack: true, ttl: 1 }]);
  });

  it('reads an MPLS label stack from ICMPv6 time exceeded (length in 64-bit words: 16)', () => {
    const b = cat(hex('0300 0000 1000 0000'), QUOTE_V6, EXT_TWO_LABELS);
    expect(parseIPv6IcmpReply(b, b.length, 'fd00:251:1::1')).toMatchObject({ kind: 'timeExceeded', flowId: 0x1234, probeSeq: 5, mpls: TWO_LABELS });
  });

  it('reads it from destination unreachable too, and skips objects of other classes', () => {
    // An interface information object (RFC 5837, class 2) before the label stack.
    const ext = cat(hex('2000 0000  0008 0201 0000 0001'), hex('0008 0101 05dc 1101'));
    const b = v4TimeExceeded(32, ext);
    b[20] = 3; // destination unreachable
    b[21] = 1;
    expect(parseIPv4IcmpReply(b, b.length)).toMatchObject({ kind: 'unreachable', mpls: [{ label: 24001, bottomOfStack: true }] });
  });

  it('carries no mpls field when there is no extension', () => {
    const plain = v4TimeExceeded(0, new Uint8Array(0), QUOTE_V4.subarray(0, 28));
    expect(parseIPv4IcmpReply(plain, plain.length)).not.toHaveProperty('mpls');
  });

  it('ignores malformed extensions, keeping the reply itself', () => {
    const bad: [string, Uint8Array, number][] = [
      ['wrong version', hex('1000 cd16  000c 0101  0001 0afe  05dc 1101'), 32],
      ['wrong checksum', hex('2000 bd17  000c 0101  0001 0afe  05dc 1101'), 32],
      ['object longer than the message', hex('2000 0000  0018 0101  0001 0afe  05dc 1101'), 32],
      ['object length below 4', hex('2000 0000  0002 0101  0001 0afe  05dc 1101'), 32],
      ['label stack of a partial entry', hex('2000 0000  000a 0101  0001 0afe  05dc'), 32],
      ['empty label stack', hex('2000 0000  0004 0101'), 32],
      ['original datagram shorter than 128 bytes', EXT_TWO_LABELS, 8],
      ['length 0 and no checksum to prove the guessed offset', hex('2000 0000  000c 0101  0001 0afe  05dc 1101'), 0],
    ];
    for (const [why, ext, words] of bad) {
      const b = v4TimeExceeded(words, ext);
      const reply = parseIPv4IcmpReply(b, b.length);
      expect(reply, why).toMatchObject({ kind: 'timeExceeded', probeSeq: 7 });
      expect(reply, why).not.toHaveProperty('mpls');
    }
  });

  it('never throws on a truncated extension, and gives a stack only when it is whole', () => {
    const b = v4TimeExceeded(32, EXT_TWO_LABELS);
    for (let n = 0; n <= b.length; n++) {
      expect(() => parseIPv4IcmpReply(b.subarray(0, n), n)).not.toThrow();
      const mpls = parseMplsExtension(b, 20, n, 4);
      if (n < b.length) expect(mpls).toBeNull();
      else expect(mpls).toEqual(TWO_LABELS);
    }
    const v6 = cat(hex('0300 0000 1000 0000'), QUOTE_V6, EXT_TWO_LABELS);
    for (let n = 0; n < v6.length; n++) expect(parseIPv6IcmpReply(v6.subarray(0, n), n, 'fd00::1')?.mpls).toBeUndefined();
    expect(parseMplsExtension(b, 20, b.length + 4, 4)).toBeNull();
  });

  it('writes what it reads (the simulated network uses the writer)', () => {
    const out = new Uint8Array(64).fill(0xee);
    const n = writeMplsExtension(out, 4, TWO_LABELS);
    expect(Buffer.from(out.subarray(4, 4 + n)).toString('hex')).toBe(Buffer.from(EXT_TWO_LABELS).toString('hex'));
  });
});

describe('NAT detection for UDP probes', () => {
  // Port unreachable quoting a UDP probe of flow 0x1234 to port 33434: IPv4 id 0x0102 is the probe number.
  const udpQuote = (checksum: string) => hex(`
    45c0 0038 0000 0000 4001 0000 0afb 0302 0afb 0002
    0303 0000 0000 0000
    4500 0024 0102 4000 0111 0000 0afb 0002 0afb 0302
    1234 829a 0010 ${checksum}`);

  it('sees no translation when the quoted checksum is the one sent', () => {
    const b = udpQuote('0102');
    expect(parseIPv4IcmpReply(b, b.length)).not.toHaveProperty('natDetected');
  });

  it('sees a translating device when the quoted checksum differs, and still matches the probe by its IPv4 id', () => {
    const b = udpQuote('7a3c');
    expect(parseIPv4IcmpReply(b, b.length)).toMatchObject({ kind: 'unreachable', protocol: 'udp', flowId: 0x1234, probeSeq: 0x0102, natDetected: true });
  });

  it('leaves ICMP probes alone (their number is in the ICMP sequence)', () => {
    const b = v4TimeExceeded(0, new Uint8Array(0), QUOTE_V4.subarray(0, 28));
    expect(parseIPv4IcmpReply(b, b.length)).not.toHaveProperty('natDetected');
  });
});

describe('DSCP on probes and in quotes', () => {
  it('sets DSCP 46 (EF) in the IPv4 type of service and the IPv6 traffic class, template and writer alike', async () => {
    const { writeProbe, ProbeTemplate } = await import('./probe-packet.js');
    const { parseIPv4, parseIPv6 } = await import('./address.js');
    const { verifies: ok } = await import('./checksum.js');
    for (const family of [4, 6] as const) {
      const spec = {
        family, protocol: 'udp' as const, flowId: 0xbeef, destinationPort: 33434, packetSize: 56, dontFragment: true, dscp: 46,
        source: family === 4 ? parseIPv4('10.251.0.1')! : parseIPv6('fd00:251::1')!,
        destination: family === 4 ? parseIPv4('10.251.3.2')! : parseIPv6('fd00:251:3::2')!,
      };
      const a = new Uint8Array(128);
      const n = writeProbe(a, { ...spec, ttl: 3, probeSeq: 9 });
      const b = new Uint8Array(128);
      new ProbeTemplate(spec).write(b, 3, 9);
      expect(Buffer.from(b.subarray(0, n)).toString('hex')).toBe(Buffer.from(a.subarray(0, n)).toString('hex'));
      if (family === 4) {
        expect(a[1]).toBe(0xb8);
        expect(ok(a, 0, 20)).toBe(true);
      } else {
        expect(a[0]).toBe(0x6b);
        expect(a[1] >> 4).toBe(0x8);
        expect(((a[1] & 0x0f) << 16) | (a[2] << 8) | a[3]).toBe(0xbeef);
      }
    }
  });

  it('reads the DSCP a hop quotes back, IPv4 and IPv6', () => {
    const v4 = v4TimeExceeded(0, new Uint8Array(0), QUOTE_V4.subarray(0, 28));
    v4[20 + 8 + 1] = 0x28; // AF11 (10) << 2
    expect(parseIPv4IcmpReply(v4, v4.length)!.quotedDscp).toBe(10);
    const v6 = cat(hex('0300 0000 0000 0000'), QUOTE_V6.subarray(0, 48));
    v6[8] = 0x6b; // traffic class 0xb8: DSCP 46
    v6[9] = 0x81;
    expect(parseIPv6IcmpReply(v6, v6.length, 'fd00:251:1::1')).toMatchObject({ probeSeq: 5, quotedDscp: 46 });
  });
});
