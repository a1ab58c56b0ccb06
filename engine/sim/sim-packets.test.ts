import { describe, expect, it } from 'vitest';
import { parseAddress } from '../codec/address.js';
import { verifies } from '../codec/checksum.js';
import { ipv6PseudoHeaderSum } from '../codec/ipv6.js';
import { IPPROTO_ICMPV6, IPPROTO_TCP } from '../codec/ipv4.js';
import { writeProbe, type ProbeProtocol } from '../codec/probe-packet.js';
import { parseIPv4IcmpReply, parseIPv4TcpReply, parseIPv6IcmpReply, parseIPv6TcpReply } from '../codec/reply.js';
import { checkScenario, parseScenario } from './scenario.js';
import { echoReply, readProbe, tcpReply, timeExceeded, unreachable, type SimReply } from './sim-packets.js';

const SRC = { 4: '10.251.9.1', 6: 'fd00:251:9::1' } as const;
const DST = { 4: '10.251.9.99', 6: 'fd00:251:9::99' } as const;
const ROUTER = { 4: '10.251.9.2', 6: 'fd00:251:9::2' } as const;

function probe(family: 4 | 6, protocol: ProbeProtocol, packetSize = 60) {
  const buf = Buffer.alloc(2048);
  const n = writeProbe(buf, {
    family, protocol, source: parseAddress(SRC[family])!, destination: parseAddress(DST[family])!,
    flowId: 0x1234, destinationPort: protocol === 'icmp' ? 0 : 33500, packetSize, dontFragment: true, ttl: 3, probeSeq: 77,
  });
  return readProbe(buf, n)!;
}

function parse(r: SimReply) {
  const n = r.bytes.length;
  if (r.family === 4) return r.socket === 'tcp' ? parseIPv4TcpReply(r.bytes, n) : parseIPv4IcmpReply(r.bytes, n);
  return r.socket === 'tcp' ? parseIPv6TcpReply(r.bytes, n, r.from) : parseIPv6IcmpReply(r.bytes, n, r.from);
}

describe('simulated replies go through the real parsers', () => {
  for (const family of [4, 6] as const) {
    for (const protocol of ['icmp', 'udp', 'tcp'] as const) {
      it(`reads an IPv${family} ${protocol} probe and answers time exceeded quoting it`, () => {
        const p = probe(family, protocol);
        expect(p).toMatchObject({ family, protocol, ttl: 3, source: SRC[family], destination: DST[family] });
        const r = parse(timeExceeded(p, ROUTER[family]));
        expect(r).toMatchObject({ kind: 'timeExceeded', protocol, responder: ROUTER[family], destination: DST[family], flowId: 0x1234, probeSeq: 77 });
      });
    }
    it(`answers IPv${family} echo requests with echo replies and UDP with port unreachable from the target`, () => {
      expect(parse(echoReply(probe(family, 'icmp')))).toMatchObject({ kind: 'echoReply', responder: DST[family], flowId: 0x1234, probeSeq: 77 });
      expect(parse(unreachable(probe(family, 'udp'), DST[family], 'port'))).toMatchObject({ kind: 'unreachable', responder: DST[family], destinationPort: 33500, probeSeq: 77, icmpCode: family === 4 ? 3 : 4 });
      expect(parse(unreachable(probe(family, 'tcp'), ROUTER[family], 'host'))).toMatchObject({ kind: 'unreachable', responder: ROUTER[family], icmpCode: family === 4 ? 1 : 3 });
    });
    it(`answers IPv${family} SYNs with a SYN-ACK of the SYN, or a reset that acknowledges its data too`, () => {
      expect(parse(tcpReply(probe(family, 'tcp', 40), 'synAck'))).toMatchObject({ kind: 'tcpReply', flowId: 0x1234, probeSeq: 77, destinationPort: 33500 });
      const rst = parse(tcpReply(probe(family, 'tcp', 100), 'rst'))!;
      // 60 data bytes beyond the 40 of the IPv4 and TCP headers.
      expect(rst.tcpResetAcked).toBe(((0x1234 << 16) + 77 + 60) >>> 0);
    });
  }

  it('writes valid ICMPv6 and TCP checksums', () => {
    const te = timeExceeded(probe(6, 'udp'), ROUTER[6]);
    expect(verifies(te.bytes, 0, te.bytes.length, ipv6PseudoHeaderSum(parseAddress(ROUTER[6])!, parseAddress(SRC[6])!, IPPROTO_ICMPV6, te.bytes.length))).toBe(true);
    const syn = tcpReply(probe(6, 'tcp'), 'synAck');
    expect(verifies(syn.bytes, 0, syn.bytes.length, ipv6PseudoHeaderSum(parseAddress(DST[6])!, parseAddress(SRC[6])!, IPPROTO_TCP, syn.bytes.length))).toBe(true);
  });

  it('reads no fragment as a probe (fragments are not simulated)', () => {
    const buf = Buffer.alloc(100);
    const n = writeProbe(buf, { family: 4, protocol: 'udp', source: parseAddress(SRC[4])!, destination: parseAddress(DST[4])!, flowId: 1, destinationPort: 1, packetSize: 60, dontFragment: false, ttl: 1, probeSeq: 1 });
    buf[6] |= 0x20;
    expect(readProbe(buf, n)).toBeNull();
  });
});

describe('scenario files', () => {
  it('reads YAML and canonicalises IPv6 addresses', () => {
    const s = parseScenario('name: t\nhops: [{ v4: 10.251.1.1, v6: "fd00:0251:0001::0001", rttMs: 1 }]\ntarget: { v4: 10.251.1.9, rttMs: 2 }\n');
    expect(s.hops[0].v6).toBe('fd00:251:1::1');
  });
  it('names the scenario and the field it refuses', () => {
    const base = () => ({ name: 'bad', hops: [{ v4: '10.251.1.1', rttMs: 1 }], target: { v4: '10.251.1.9', rttMs: 1 } });
    expect(() => checkScenario({ ...base(), hops: [{ v4: '10.251.1.1', rttMs: -1 }] })).toThrow(/scenario bad: hop 1: rttMs/);
    expect(() => checkScenario({ ...base(), hops: [{ rttMs: 1 }] })).toThrow(/hop 1 needs a v4 or v6 address/);
    expect(() => checkScenario({ ...base(), target: { v4: 'fd00::1', rttMs: 1 } })).toThrow(/target: v4 fd00::1 is not an IPv4 address/);
    expect(() => checkScenario({ ...base(), hops: [{ v4: '10.251.1.1', rttMs: 1, lossPercent: 101 }] })).toThrow(/lossPercent/);
    expect(() => checkScenario({ ...base(), routeChanges: [{ atMs: 1, hop: 2, v4: '10.251.1.7' }] })).toThrow(/route change hop must be 1..1/);
    // A silent hop needs no address.
    expect(() => checkScenario({ ...base(), hops: [{ silent: true, rttMs: 1 }] })).not.toThrow();
  });
});
