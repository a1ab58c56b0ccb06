import { describe, expect, it } from 'vitest';
import { parseIPv4, parseIPv6 } from './address.js';
import { verifies } from './checksum.js';
import { fragmentIPv4, fragmentIPv6 } from './fragment.js';
import { writeIPv4Header } from './ipv4.js';
import { writeIPv6Header } from './ipv6.js';
import { probeLength, writeProbe, type ProbeSpec } from './probe-packet.js';
import { parseIPv4IcmpReply, parseIPv6IcmpReply } from './reply.js';
import { mtuProblem } from '../probe/path-mtu.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** Payload bytes 00 01 02 ... */
const counting = (n: number) => Uint8Array.from({ length: n }, (_, i) => i);

/** The fragments of `lengths` packed back to back in `out`. */
function split(out: Uint8Array, lengths: number[]): Uint8Array[] {
  let at = 0;
  return lengths.map((n) => out.slice(at, (at += n)));
}

describe('IPv4 fragmentation', () => {
  // 10.0.0.1 -> 10.0.0.2, id 7, TTL 5, ICMP, DF clear, 40 payload bytes: 60 bytes in all.
  const datagram = new Uint8Array(60);
  writeIPv4Header(datagram, 0, {
    totalLength: 60, identification: 7, dontFragment: false, ttl: 5, protocol: 1,
    source: parseIPv4('10.0.0.1')!, destination: parseIPv4('10.0.0.2')!,
  });
  datagram.set(counting(40), 20);

  it('splits into 8-byte multiples with MF, offsets, lengths and checksums (hand-checked)', () => {
    const out = new Uint8Array(200);
    // MTU 44: 24 payload bytes per fragment (44 - 20 rounded down to 8).
    const frags = split(out, fragmentIPv4(datagram, 60, 44, out));
    expect(frags.map((f) => f.length)).toEqual([44, 36]);
    // Sums by hand: 4500+002c+0007+2000+0501+0a00+0001+0a00+0002 = 7e37 -> 81c8;
    // 4500+0024+0007+0003+0501+0a00+0001+0a00+0002 = 5e32 -> a1cd.
    expect(toHex(frags[0])).toBe('4500002c0007200005' + '0181c8' + '0a0000010a000002' + toHex(counting(24)));
    expect(toHex(frags[1])).toBe('450000240007000305' + '01a1cd' + '0a0000010a000002' + toHex(counting(40).subarray(24)));
    for (const f of frags) expect(verifies(f, 0, 20)).toBe(true);
  });

  it('leaves the last fragment short and reassembles to the original payload', () => {
    const out = new Uint8Array(200);
    const frags = split(out, fragmentIPv4(datagram, 60, 36, out)); // 16 bytes each
    expect(frags.map((f) => f.length)).toEqual([36, 36, 28]);
    expect(frags.map((f) => ((f[6] << 8) | f[7]))).toEqual([0x2000, 0x2002, 0x0004]);
    expect(toHex(Buffer.concat(frags.map((f) => f.subarray(20))))).toBe(toHex(datagram.subarray(20)));
  });

  it('refuses an MTU with no room for 8 payload bytes', () => {
    expect(() => fragmentIPv4(datagram, 60, 27, new Uint8Array(200))).toThrow(RangeError);
  });
});

describe('IPv6 fragmentation', () => {
  // fd00::1 -> fd00::2, flow label 12345, hop limit 3, ICMPv6, 40 payload bytes.
  const packet = new Uint8Array(80);
  writeIPv6Header(packet, 0, {
    flowLabel: 0x12345, payloadLength: 40, nextHeader: 58, hopLimit: 3,
    source: parseIPv6('fd00::1')!, destination: parseIPv6('fd00::2')!,
  });
  packet.set(counting(40), 40);
  const addresses = 'fd000000000000000000000000000001' + 'fd000000000000000000000000000002';

  it('adds a Fragment header with offset, M flag and identification (hand-checked)', () => {
    const out = new Uint8Array(300);
    // MTU 72: 72 - 40 - 8 = 24 payload bytes per fragment.
    const frags = split(out, fragmentIPv6(packet, 80, 72, 0xdeadbeef, out));
    expect(frags.map((f) => f.length)).toEqual([72, 64]);
    expect(toHex(frags[0])).toBe('60012345' + '0020' + '2c03' + addresses + '3a000001deadbeef' + toHex(counting(24)));
    expect(toHex(frags[1])).toBe('60012345' + '0018' + '2c03' + addresses + '3a000018deadbeef' + toHex(counting(40).subarray(24)));
  });

  it('reassembles to the original payload', () => {
    const out = new Uint8Array(400);
    const frags = split(out, fragmentIPv6(packet, 80, 64, 1, out)); // 16 bytes each
    expect(frags.map((f) => f.length)).toEqual([64, 64, 56]);
    expect(toHex(Buffer.concat(frags.map((f) => f.subarray(48))))).toBe(toHex(packet.subarray(40)));
  });
});

describe('replies to fragmented probes', () => {
  const spec = (family: 4 | 6): ProbeSpec => ({
    family, protocol: 'icmp', flowId: 0x1234, destinationPort: 0, packetSize: 3000, dontFragment: false, ttl: 2, probeSeq: 9,
    source: family === 4 ? parseIPv4('10.251.23.1')! : parseIPv6('fd00:251:23::1')!,
    destination: family === 4 ? parseIPv4('10.251.23.26')! : parseIPv6('fd00:251:23:3::2')!,
  });

  it('IPv4: a time exceeded quoting the first fragment matches the probe; a later fragment matches nothing', () => {
    const probe = new Uint8Array(4000);
    const n = writeProbe(probe, spec(4));
    const out = new Uint8Array(8000);
    const frags = split(out, fragmentIPv4(probe, n, 1280, out));
    expect(frags.length).toBe(3);
    const answer = (f: Uint8Array) => Uint8Array.from([...hex('45c0 0038 0000 0000 4001 0000 0afb 1701 0afb 1701 0b00 0000 0000 0000'), ...f.subarray(0, 28)]);
    expect(parseIPv4IcmpReply(answer(frags[0]), 56)).toMatchObject({ kind: 'timeExceeded', flowId: 0x1234, probeSeq: 9, destination: '10.251.23.26' });
    expect(parseIPv4IcmpReply(answer(frags[1]), 56)).toBeNull();
  });

  it('IPv6: the Fragment header of the first fragment is skipped; a later fragment matches nothing', () => {
    const probe = new Uint8Array(4000);
    const n = writeProbe(probe, spec(6));
    const out = new Uint8Array(8000);
    const frags = split(out, fragmentIPv6(probe, n, 1280, 0x12340009, out));
    const answer = (f: Uint8Array) => Uint8Array.from([...hex('0300 0000 0000 0000'), ...f.subarray(0, 1232)]);
    expect(parseIPv6IcmpReply(answer(frags[0]), 1240, 'fd00:251:23:1::2')).toMatchObject({
      kind: 'timeExceeded', protocol: 'icmp', flowId: 0x1234, probeSeq: 9, destination: 'fd00:251:23:3::2',
    });
    expect(parseIPv6IcmpReply(answer(frags[1]), 1240, 'fd00:251:23:1::2')).toBeNull();
  });
});

describe('MTU rule', () => {
  const base = { protocol: 'icmp' as const, packetSize: 3000, destination: 'x' };
  it('accepts probes that fit, and any size when fragmentation is allowed', () => {
    expect(mtuProblem({ ...base, family: 4, packetSize: 1500, dontFragment: true }, 1500)).toBeNull();
    expect(mtuProblem({ ...base, family: 4, dontFragment: false }, 1500)).toBeNull();
    expect(mtuProblem({ ...base, family: 6, dontFragment: false }, 1280)).toBeNull();
    expect(probeLength(6, 'icmp', 1260)).toBe(1280);
    expect(mtuProblem({ ...base, family: 6, packetSize: 1260, dontFragment: true }, 1280)).toBeNull();
  });
  it('names the size, the MTU and the ways out when the probe cannot be sent', () => {
    const v4 = mtuProblem({ ...base, family: 4, dontFragment: true }, 1280)!;
    expect(v4).toMatch(/packetSize 3000/);
    expect(v4).toMatch(/MTU of 1280/);
    expect(v4).toMatch(/allow fragmentation or use a packetSize of at most 1280/);
    expect(mtuProblem({ ...base, family: 6, packetSize: 1261, dontFragment: true }, 1280)).toMatch(/at most 1260/);
  });
});
