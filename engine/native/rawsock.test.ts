// The addon's native rounds read replies and write probes in C (engine/native/rawsock.c,
// "Native rounds"); JavaScript keeps the codecs. These tests hold the two to the same bytes:
// the C template writer against ProbeTemplate.write, and the C reading of a reply (the fields
// matching needs) against engine/codec/reply.ts, on replies written by the simulated network's
// packet code (time exceeded with and without MPLS extensions, unreachable, echo replies, TCP
// SYN-ACKs and resets, NAT, DSCP rewrites), every truncation of them and random corruptions.
// Needs the built addon (npm run build:engine), no privileges.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { formatIPv4, formatIPv6, parseAddress } from '../codec/address.js';
import { ProbeTemplate, type ProbeProtocol } from '../codec/probe-packet.js';
import { parseIPv4IcmpReply, parseIPv4TcpReply, parseIPv6IcmpReply, parseIPv6TcpReply, type ProbeReply } from '../codec/reply.js';
import type { RawSockAddon } from '../probe/rawsock.js';
import { fillOutcome } from '../probe/outcome.js';
import type { ProbeOutcome, TraceSpec } from '../probe/protocol.js';
import {
  echoReply, readProbe, rewriteDscp, tcpReply, timeExceeded, translateSource, unreachable, type SimReply,
} from '../sim/sim-packets.js';

const addonPath = new URL('../../dist/engine/native/rawsock.node', import.meta.url).pathname;
const built = existsSync(addonPath);
const addon = built ? (createRequire(import.meta.url)(addonPath) as RawSockAddon) : null;

const PROTOCOL_NUMBER = { icmp: 1, udp: 2, tcp: 3 } as const;
const KIND_NUMBER = { echoReply: 1, timeExceeded: 2, unreachable: 3, tcpReply: 4 } as const;

const HOSTS = {
  4: { source: '10.9.0.1', destination: '10.9.3.7', router: '10.9.1.2', nat: '192.0.2.9' },
  6: { source: 'fd00:9::1', destination: 'fd00:9:3::7', router: 'fd00:9:1::2', nat: '' },
} as const;

function template(family: 4 | 6, protocol: ProbeProtocol, packetSize: number, dscp = 0) {
  const h = HOSTS[family];
  return new ProbeTemplate({
    family, protocol, source: parseAddress(h.source)!, destination: parseAddress(h.destination)!,
    flowId: 61234, destinationPort: protocol === 'tcp' ? 443 : 33441, packetSize, dontFragment: true, dscp,
  });
}

function params(t: ProbeTemplate, family: 4 | 6, protocol: ProbeProtocol): Float64Array {
  const p = t.nativeParts();
  return Float64Array.of(family, PROTOCOL_NUMBER[protocol], 0, 0, p.transport, p.ipSum, p.transportSum, p.wanted, 0);
}

function jsParse(r: SimReply): ProbeReply | null {
  const b = r.bytes;
  if (r.family === 4) return r.socket === 'tcp' ? parseIPv4TcpReply(b, b.length) : parseIPv4IcmpReply(b, b.length);
  return r.socket === 'tcp' ? parseIPv6TcpReply(b, b.length, r.from) : parseIPv6IcmpReply(b, b.length, r.from);
}

function cKey(r: SimReply, dscp = 0) {
  const from = Buffer.alloc(16);
  if (r.family === 6) from.set(parseAddress(r.from)!);
  const socketProtocol = r.socket === 'tcp' ? 6 : r.family === 4 ? 1 : 58;
  return addon!.matchKey(r.family, socketProtocol, Buffer.from(r.bytes), from, dscp);
}

/** What fillOutcome (engine/probe/outcome.ts) takes from a reply beyond its kind, type, code and sender. */
function extras(js: ProbeReply, dscp: number): object {
  const outcome: ProbeOutcome = { ttl: 1, kind: 'timeout', responder: null, rttMs: null, icmpType: 0, icmpCode: 0 };
  fillOutcome(outcome, js, 1, { dscp } as TraceSpec);
  const { mpls, natDetected, quotedDscp } = outcome;
  return { mpls, natDetected, quotedDscp };
}

/** What the prober matches on, as the JS codecs read it and as C reads it: equal, or both null. */
function expectSameKey(r: SimReply): void {
  const js = jsParse(r);
  const c = cKey(r);
  if (js === null || c === null) {
    expect({ js: js !== null, c: c !== null }).toEqual({ js: false, c: false });
    return;
  }
  const format = r.family === 4 ? formatIPv4 : formatIPv6;
  expect({
    protocol: c.protocol, flowId: c.flowId, destination: format(c.destination, 0), destinationPort: c.destinationPort,
    kind: c.kind, responder: format(c.responder, 0), icmpType: c.icmpType, icmpCode: c.icmpCode,
    ...(c.tcpResetAcked !== undefined ? { tcpResetAcked: c.tcpResetAcked } : { probeSeq: c.probeSeq }),
  }).toEqual({
    protocol: PROTOCOL_NUMBER[js.protocol], flowId: js.flowId, destination: js.destination, destinationPort: js.destinationPort,
    kind: KIND_NUMBER[js.kind], responder: js.responder, icmpType: js.icmpType, icmpCode: js.icmpCode,
    ...(js.tcpResetAcked !== undefined ? { tcpResetAcked: js.tcpResetAcked } : { probeSeq: js.probeSeq }),
  });
  // A reply the addon calls simple goes to JavaScript without its bytes: the codecs must have
  // nothing more to say about it (no MPLS, no NAT mark, no quoted DSCP to report).
  for (const dscp of [0, 46]) {
    if (cKey(r, dscp)!.simple) expect(extras(js, dscp)).toEqual({ mpls: undefined, natDetected: undefined, quotedDscp: undefined });
  }
}

/** Every reply our probes can get (as the simulated network writes them). */
function replies(family: 4 | 6, protocol: ProbeProtocol, bytes: Uint8Array): SimReply[] {
  const p = readProbe(bytes, bytes.length)!;
  const h = HOSTS[family];
  const out = [
    timeExceeded(p, h.router),
    timeExceeded(p, h.router, [{ label: 24001, exp: 0, bottomOfStack: false, ttl: 1 }, { label: 16, exp: 5, bottomOfStack: true, ttl: 1 }]),
    timeExceeded(rewriteDscp(p, 10), h.router),
    unreachable(p, h.router, 'host'),
  ];
  if (protocol === 'icmp') out.push(echoReply(p));
  if (protocol === 'udp') out.push(unreachable(p, h.destination, 'port'));
  if (protocol === 'tcp') out.push(tcpReply(p, 'rst'), tcpReply(p, 'synAck'));
  if (family === 4 && protocol !== 'icmp') out.push(timeExceeded(translateSource(p, h.nat), h.router));
  return out;
}

const CASES: [4 | 6, ProbeProtocol, number][] = [];
for (const family of [4, 6] as const) {
  for (const protocol of ['icmp', 'udp', 'tcp'] as const) {
    for (const size of protocol === 'tcp' ? [40, 41, 100] : [30, 56, 120]) CASES.push([family, protocol, size]);
  }
}
const SEQS = [1, 2, 255, 256, 0x7fff, 0xfffe];

describe.skipIf(!built)('native rounds: C against the JavaScript codecs', () => {
  it('writes every probe byte for byte as ProbeTemplate does (IPv4/IPv6, ICMP/UDP/TCP, sizes, DSCP)', () => {
    for (const [family, protocol, size] of CASES) {
      for (const dscp of [0, 46]) {
        const t = template(family, protocol, size, dscp);
        const bytes = Buffer.from(t.nativeParts().bytes.subarray(0, t.length));
        for (const ttl of [1, 2, 17, 64, 255]) {
          for (const seq of SEQS) {
            const js = new Uint8Array(t.length);
            t.write(js, ttl, seq);
            expect(Buffer.from(addon!.writeProbe(bytes, params(t, family, protocol), ttl, seq)).equals(Buffer.from(js))).toBe(true);
          }
        }
      }
    }
  });

  it('reads the same match key from every kind of reply as the codecs do', () => {
    let checked = 0;
    for (const [family, protocol, size] of CASES) {
      const t = template(family, protocol, size);
      for (const seq of SEQS) {
        const probe = new Uint8Array(t.length);
        t.write(probe, 3, seq);
        for (const r of replies(family, protocol, probe)) {
          expect(cKey(r)).not.toBeNull();
          expectSameKey(r);
          checked++;
        }
        // The common replies take the simple way (kind, type, code and sender from C).
        const p = readProbe(probe, probe.length)!;
        // A quote longer than 128 bytes may carry an RFC 4884 extension: the codecs look.
        expect(cKey(timeExceeded(p, HOSTS[family].router))!.simple).toBe(probe.length <= 128);
        if (protocol === 'icmp') expect(cKey(echoReply(p))!.simple).toBe(true);
        if (protocol === 'tcp') expect(cKey(tcpReply(p, 'rst'))!.simple).toBe(true);
        // A trace that sets a DSCP reads the quote: never simple then.
        expect(cKey(timeExceeded(p, HOSTS[family].router), 46)!.simple).toBe(false);
      }
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('agrees with the codecs on every truncation of a reply (a reply C takes, the codecs read, and none other)', () => {
    for (const [family, protocol, size] of CASES) {
      const t = template(family, protocol, size);
      const probe = new Uint8Array(t.length);
      t.write(probe, 5, 4321);
      for (const r of replies(family, protocol, probe)) {
        for (let n = 0; n < r.bytes.length; n++) expectSameKey({ ...r, bytes: r.bytes.subarray(0, n) });
      }
    }
  });

  it('agrees with the codecs on corrupted replies (random bytes changed, seeded)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 0x1000000;
    for (const [family, protocol, size] of CASES) {
      const t = template(family, protocol, size);
      const probe = new Uint8Array(t.length);
      t.write(probe, 2, 99);
      for (const r of replies(family, protocol, probe)) {
        for (let k = 0; k < 200; k++) {
          const bytes = Uint8Array.from(r.bytes);
          const changes = 1 + Math.floor(random() * 3);
          // Mostly in the headers, where the match key lives.
          for (let c = 0; c < changes; c++) bytes[Math.floor(random() * Math.min(bytes.length, 80))] = Math.floor(random() * 256);
          expectSameKey({ ...r, bytes });
        }
      }
    }
  });
});

describe.skipIf(!built)('tickers on a thread that is behind', () => {
  it('lets the loop poll between two ticks of one ticker, however long its callbacks take', () => {
    // A callback longer than the interval that also moves the loop's clock on (any setTimeout
    // does): on libuv before 1.48 the ticker was due again inside the same timer pass, for ever,
    // so the loop never polled (with native rounds, shutdownEngine() never returned). In a child
    // process: the old behaviour never ends, and the timeout fails the test.
    const script = `
      const addon = require(${JSON.stringify(addonPath)});
      let ticks = 0;
      const t = addon.ticker(() => {
        ticks++;
        const end = process.hrtime.bigint() + 3000000n;
        while (process.hrtime.bigint() < end);
        clearTimeout(setTimeout(() => {}, 1));
      });
      addon.tickerStart(t, 0, 1);
      setImmediate(() => { addon.tickerClose(t); console.log(ticks); });`;
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    // setImmediate runs after the first poll: one tick before it, the next one deferred past it.
    expect(out.trim()).toBe('1');
  });
});
