import { describe, expect, it } from 'vitest';
import { compensationWord, internetChecksum, onesComplementSum, verifies } from './checksum.js';
import { canonicalAddress, formatIPv6, parseIPv4, parseIPv6 } from './address.js';
import { readIPv4Header, writeIPv4Header } from './ipv4.js';
import { readIPv6Header, ipv6PseudoHeaderSum } from './ipv6.js';
import { ipv4PseudoHeaderSum } from './ipv4.js';
import { icmpFlowChecksum, minimumPacketSize, ProbeTemplate, writeProbe, type ProbeSpec } from './probe-packet.js';
import { parseIPv4IcmpReply, parseIPv4TcpReply, parseIPv6IcmpReply, parseIPv6TcpReply } from './reply.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('checksum', () => {
  it('matches the RFC 1071 worked example', () => {
    const b = hex('0001 f203 f4f5 f6f7');
    expect(onesComplementSum(b, 0, b.length)).toBe(0xddf2);
    expect(internetChecksum(b, 0, b.length)).toBe(0x220d);
  });
  it('pads an odd trailing byte with zero', () => {
    expect(internetChecksum(hex('0102 03'), 0, 3)).toBe(~(0x0102 + 0x0300) & 0xffff);
  });
  it('finds a compensation word that yields the wanted checksum', () => {
    const b = hex('0800 0000 1234 0007 0000 abcd');
    const wanted = 0x4242;
    const w = compensationWord(onesComplementSum(b, 0, b.length), wanted);
    b[8] = w >> 8; b[9] = w & 0xff; b[2] = 0x42; b[3] = 0x42;
    expect(verifies(b, 0, b.length)).toBe(true);
  });
});

describe('addresses', () => {
  it('parses and formats IPv4', () => {
    expect(toHex(parseIPv4('10.251.3.2')!)).toBe('0afb0302');
    expect(parseIPv4('10.251.3')).toBeNull();
    expect(parseIPv4('10.251.3.256')).toBeNull();
  });
  it('formats IPv6 per RFC 5952', () => {
    expect(formatIPv6(hex('fd00 0251 0000 0000 0000 0000 0000 0001'))).toBe('fd00:251::1');
    expect(formatIPv6(hex('2001 0db8 0000 0001 0000 0000 0000 0001'))).toBe('2001:db8:0:1::1');
    expect(formatIPv6(hex('2001 0db8 0000 0001 0001 0001 0001 0001'))).toBe('2001:db8:0:1:1:1:1:1');
    expect(canonicalAddress('FD00:0251:0:0::0001')).toBe('fd00:251::1');
    expect(canonicalAddress('::ffff:10.0.0.1')).toBe('::ffff:a00:1');
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(canonicalAddress('example.com')).toBeNull();
  });
});

describe('IPv4 header', () => {
  it('writes the classic example header with its checksum', () => {
    const b = new Uint8Array(20);
    writeIPv4Header(b, 0, {
      totalLength: 0x73, identification: 0, dontFragment: true, ttl: 64, protocol: 17,
      source: parseIPv4('192.168.0.1')!, destination: parseIPv4('192.168.0.199')!,
    });
    expect(toHex(b)).toBe('450000730000400040 11b861c0a80001c0a800c7'.replace(/ /g, ''));
    const v = readIPv4Header(b, 0, 20)!;
    expect(v.ttl).toBe(64);
    expect(v.protocol).toBe(17);
  });
  it('clears DF when fragmentation is allowed', () => {
    const b = new Uint8Array(20);
    writeIPv4Header(b, 0, { totalLength: 56, identification: 1, dontFragment: false, ttl: 3, protocol: 1, source: parseIPv4('10.0.0.1')!, destination: parseIPv4('10.0.0.2')! });
    expect(b[6]).toBe(0);
  });
  it('rejects short or non-v4 input', () => {
    expect(readIPv4Header(hex('4500'), 0, 2)).toBeNull();
    expect(readIPv4Header(new Uint8Array(20).fill(0x60), 0, 20)).toBeNull();
    expect(readIPv4Header(hex('4f00 0000 0000 0000 0000 0000 0000 0000 0000 0000'), 0, 20)).toBeNull();
  });
});

const v4src = parseIPv4('10.251.0.2')!;
const v4dst = parseIPv4('10.251.3.2')!;
const v6src = parseIPv6('fd00:251::2')!;
const v6dst = parseIPv6('fd00:251:3::2')!;
const base = (over: Partial<ProbeSpec>): ProbeSpec => ({
  family: 4, protocol: 'icmp', source: v4src, destination: v4dst, flowId: 0x1234, destinationPort: 33434,
  packetSize: 56, dontFragment: true, ttl: 5, probeSeq: 7, ...over,
});

describe('probe packets', () => {
  it('builds an ICMP echo with a constant checksum across probes (Paris)', () => {
    const b = new Uint8Array(128);
    const n = writeProbe(b, base({}));
    expect(n).toBe(56);
    expect(toHex(b.subarray(0, 28))).toBe('45000038000740000501' + toHex(b.subarray(10, 12)) + '0afb00020afb0302' + '0800' + (0x1234 ^ 0x5a5a).toString(16).padStart(4, '0') + '12340007');
    expect(verifies(b, 0, 20)).toBe(true);
    expect(verifies(b, 20, n)).toBe(true);
    const again = new Uint8Array(128);
    writeProbe(again, base({ probeSeq: 900, ttl: 9 }));
    expect(toHex(again.subarray(22, 24))).toBe(toHex(b.subarray(22, 24)));
    expect(verifies(again, 20, n)).toBe(true);
  });
  it('builds a UDP probe whose checksum is the probe number and verifies', () => {
    const b = new Uint8Array(128);
    const n = writeProbe(b, base({ protocol: 'udp', probeSeq: 0x0102 }));
    expect(toHex(b.subarray(20, 28))).toBe('1234829a00240102');
    expect(verifies(b, 20, n, ipv4PseudoHeaderSum(v4src, v4dst, 17, n - 20))).toBe(true);
  });
  it('builds a TCP SYN of 40 bytes carrying flow and probe in the sequence number', () => {
    const b = new Uint8Array(128);
    const n = writeProbe(b, base({ protocol: 'tcp', packetSize: 40, destinationPort: 80, probeSeq: 3 }));
    expect(n).toBe(40);
    expect(toHex(b.subarray(20, 34))).toBe('1234' + '0050' + '12340003' + '00000000' + '5002');
    expect(verifies(b, 20, n, ipv4PseudoHeaderSum(v4src, v4dst, 6, 20))).toBe(true);
  });
  it('builds IPv6 ICMPv6 and UDP probes with pseudo-header checksums', () => {
    const b = new Uint8Array(128);
    const n = writeProbe(b, base({ family: 6, source: v6src, destination: v6dst }));
    expect(n).toBe(40 + 36);
    const h = readIPv6Header(b, 0, n)!;
    expect(h.hopLimit).toBe(5);
    expect(h.nextHeader).toBe(58);
    expect(b[40]).toBe(128);
    expect(verifies(b, 40, n, ipv6PseudoHeaderSum(v6src, v6dst, 58, n - 40))).toBe(true);
    expect((b[42] << 8) | b[43]).toBe(icmpFlowChecksum(0x1234));
    const u = new Uint8Array(128);
    const m = writeProbe(u, base({ family: 6, protocol: 'udp', source: v6src, destination: v6dst, probeSeq: 77 }));
    expect((u[46] << 8) | u[47]).toBe(77);
    expect(verifies(u, 40, m, ipv6PseudoHeaderSum(v6src, v6dst, 17, m - 40))).toBe(true);
  });
  it('never goes below the header sizes', () => {
    expect(writeProbe(new Uint8Array(128), base({ packetSize: 1 }))).toBe(minimumPacketSize('icmp'));
  });

  it('writes from a ProbeTemplate exactly what writeProbe writes, for every family and protocol', () => {
    const v6 = { source: parseIPv6('fd00:251:3::1')!, destination: parseIPv6('fd00:251:3:3::2')! };
    const cases: Partial<ProbeSpec>[] = [];
    for (const protocol of ['icmp', 'udp', 'tcp'] as const) {
      for (const packetSize of [1, 56, 57, 120]) {
        for (const dontFragment of [true, false]) {
          cases.push({ protocol, packetSize, dontFragment, flowId: 0xbeef, destinationPort: 33434 });
          cases.push({ protocol, packetSize, dontFragment, flowId: 61000, destinationPort: 443, family: 6, ...v6 });
        }
      }
    }
    for (const c of cases) {
      const spec = base(c);
      const template = new ProbeTemplate(spec);
      for (const [ttl, probeSeq] of [[1, 1], [2, 2], [30, 0x7fff], [64, 0xfffe], [255, 0x1234], [7, 0x8000]]) {
        const expected = new Uint8Array(256);
        const n = writeProbe(expected, { ...spec, ttl, probeSeq });
        const got = new Uint8Array(256).fill(0xaa);
        expect(template.write(got, ttl, probeSeq)).toBe(n);
        expect(toHex(got.subarray(0, n))).toBe(toHex(expected.subarray(0, n)));
      }
    }
  });
});

// Captured-style fixtures: outer IPv4 + ICMP error + quoted original datagram.
const TIME_EXCEEDED_ICMP = hex(`
  45c0 0038 0000 0000 4001 0000 0afb 0101 0afb 0002
  0b00 0000 0000 0000
  4500 0054 0007 4000 0101 0000 0afb 0002 0afb 0302
  0800 4e6e 1234 0007`);
const PORT_UNREACHABLE_UDP = hex(`
  45c0 0038 0000 0000 4001 0000 0afb 0302 0afb 0002
  0303 0000 0000 0000
  4500 0024 0102 4000 0111 0000 0afb 0002 0afb 0302
  1234 829a 0010 0102`);
const ECHO_REPLY = hex(`
  4500 0054 1111 0000 3f01 0000 0afb 0302 0afb 0002
  0000 0000 1234 0009 0000 0000`);
const SYN_ACK = hex(`
  4500 002c 0000 4000 3f06 0000 0afb 0302 0afb 0002
  0050 1234 aaaa bbbb 1234 0004 6012 faf0 0000 0000 0204 05b4`);
const ICMPV6_TIME_EXCEEDED = hex(`
  0300 0000 0000 0000
  6001 2340 0024 3a01 fd00 0251 0000 0000 0000 0000 0000 0002 fd00 0251 0003 0000 0000 0000 0000 0002
  8000 4e6e 1234 0005`);

describe('reply decoding', () => {
  it('decodes time exceeded quoting an ICMP echo', () => {
    expect(parseIPv4IcmpReply(TIME_EXCEEDED_ICMP, TIME_EXCEEDED_ICMP.length)).toEqual({
      kind: 'timeExceeded', protocol: 'icmp', responder: '10.251.1.1', destination: '10.251.3.2',
      flowId: 0x1234, probeSeq: 7, destinationPort: 0, icmpType: 11, icmpCode: 0, quotedDscp: 0,
    });
  });
  it('decodes port unreachable quoting a UDP probe', () => {
    expect(parseIPv4IcmpReply(PORT_UNREACHABLE_UDP, PORT_UNREACHABLE_UDP.length)).toMatchObject({
      kind: 'unreachable', protocol: 'udp', responder: '10.251.3.2', destination: '10.251.3.2',
      flowId: 0x1234, probeSeq: 0x0102, destinationPort: 33434, icmpType: 3, icmpCode: 3,
    });
  });
  it('decodes an echo reply', () => {
    expect(parseIPv4IcmpReply(ECHO_REPLY, ECHO_REPLY.length)).toMatchObject({ kind: 'echoReply', flowId: 0x1234, probeSeq: 9, responder: '10.251.3.2' });
  });
  it('decodes a SYN-ACK by its acknowledgement number', () => {
    expect(parseIPv4TcpReply(SYN_ACK, SYN_ACK.length)).toMatchObject({ kind: 'tcpReply', protocol: 'tcp', flowId: 0x1234, probeSeq: 3, destinationPort: 80, responder: '10.251.3.2' });
  });
  it('gives a reset its raw acknowledgement, which counts the data the SYN carried', () => {
    const rst = Uint8Array.from(SYN_ACK);
    rst[33] = 0x14; // RST+ACK
    new DataView(rst.buffer).setUint32(28, 0x12340003 + 1 + 60); // a SYN of probe 3 with 60 data bytes
    expect(parseIPv4TcpReply(rst, rst.length)).toMatchObject({ kind: 'tcpReply', flowId: 0x1234, tcpResetAcked: 0x12340003 + 60 });
    expect(parseIPv4TcpReply(SYN_ACK, SYN_ACK.length)).not.toHaveProperty('tcpResetAcked');
  });
  it('ignores TCP segments that do not answer a probe', () => {
    const other = Uint8Array.from(SYN_ACK);
    other[33] = 0x18; // PSH+ACK: ordinary data
    expect(parseIPv4TcpReply(other, other.length)).toBeNull();
  });
  it('decodes ICMPv6 time exceeded quoting an echo request', () => {
    expect(parseIPv6IcmpReply(ICMPV6_TIME_EXCEEDED, ICMPV6_TIME_EXCEEDED.length, 'fd00:251:1::1')).toMatchObject({
      kind: 'timeExceeded', protocol: 'icmp', responder: 'fd00:251:1::1', destination: 'fd00:251:3::2', flowId: 0x1234, probeSeq: 5,
    });
  });
  it('ignores every truncation and random garbage without throwing', () => {
    for (const f of [TIME_EXCEEDED_ICMP, PORT_UNREACHABLE_UDP, ECHO_REPLY, SYN_ACK]) {
      for (let n = 0; n < f.length; n++) {
        const short = f.subarray(0, n);
        expect(() => { parseIPv4IcmpReply(short, n); parseIPv4TcpReply(short, n); }).not.toThrow();
      }
    }
    for (let n = 0; n < 36; n++) expect(parseIPv6IcmpReply(ICMPV6_TIME_EXCEEDED.subarray(0, n), n, 'fd00::1')).toBeNull();
    expect(parseIPv4IcmpReply(TIME_EXCEEDED_ICMP.subarray(0, 40), 40)).toBeNull();
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let i = 0; i < 2000; i++) {
      const b = Uint8Array.from({ length: rnd() }, rnd);
      expect(() => { parseIPv4IcmpReply(b, b.length); parseIPv4TcpReply(b, b.length); parseIPv6IcmpReply(b, b.length, 'x'); parseIPv6TcpReply(b, b.length, 'fd00::1'); }).not.toThrow();
    }
  });
});
