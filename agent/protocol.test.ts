// The agent link's round batches carry the hop details of issue 16 (MPLS, owner, quoted DSCP,
// NAT) only where the engine reported them, and the server's schema takes them (and bounds them).
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../engine/latency-codes.js';
import type { TraceHop } from '../engine/index.js';
import { AgentMessageSchema, wireHop, wireRoundText } from './protocol.js';

const validate = new Ajv({ strict: false }).compile(AgentMessageSchema);
const batch = (hops: unknown[]) => ({ t: 'batch', seq: 1, rounds: [{ traceId: 3, time: 1_700_000_000_000, hops }] });

describe('wire hops', () => {
  it('carry the details the engine reported, and nothing for hops without them', () => {
    const detailed = wireHop({
      ttl: 2, address: '10.0.0.2', name: null, rtt: 1.25, reply: 'timeExceeded',
      mpls: [{ label: 24001, exp: 0, bottomOfStack: true, ttl: 1 }],
      owner: { asn: null, asName: null, country: null, special: 'Private' },
      quotedDscp: 46,
      natDetected: true,
    });
    expect(detailed).toEqual({
      ttl: 2, address: '10.0.0.2', name: null, rtt: 1.25,
      mpls: [{ label: 24001, exp: 0, bottomOfStack: true, ttl: 1 }],
      owner: { asn: null, asName: null, country: null, special: 'Private' },
      quotedDscp: 46,
      natDetected: true,
    });
    const plain = wireHop({ ttl: 3, address: null, name: null, rtt: LatencyCode.Timeout, reply: 'timeout' });
    // A latency travels at the microsecond the server stores (codes as they are).
    expect(wireHop({ ttl: 1, address: '10.0.0.1', name: null, rtt: 3.4567891234, reply: 'timeExceeded' }).rtt).toBe(3.457);
    expect(wireHop({ ttl: 1, address: '10.0.0.1', name: null, rtt: 0.0004999, reply: 'timeExceeded' }).rtt).toBe(0);
    expect(plain).toEqual({ ttl: 3, address: null, name: null, rtt: LatencyCode.Timeout });
    expect(validate(batch([detailed, plain]))).toBe(true);
  });

  it("a round's wire text is the JSON of its wire hops, round after round (the reused hops keep nothing of the last round)", () => {
    const hop = (ttl: number, extra: Partial<TraceHop> = {}): TraceHop => ({ ttl, address: `10.0.0.${ttl}`, name: null, rtt: ttl + 0.1234567, reply: 'timeExceeded', ...extra });
    const owner = { asn: 64500, asName: 'Example "Transit" AS', country: 'DE', special: null };
    const rounds = [
      { time: 1_700_000_000_000, hops: [hop(1, { owner }), hop(2, { mpls: [{ label: 16, exp: 0, bottomOfStack: true, ttl: 1 }], natDetected: true, owner }), hop(3, { name: 'r3.example.net', address: 'not "an" address' })] },
      { time: 1_700_000_000_500, hops: [hop(1, { owner }), hop(2, { owner: { ...owner, asn: 64501 } }), hop(3, { address: '2001:db8::1', rtt: 1234567.8912345 })] },
      { time: 1_700_000_001_000.5, hops: [hop(1, { name: 'ä "quoted" \\ é' }), hop(2)] },
      { time: 1_700_000_002_000, hops: [] },
      { time: 1_700_000_003_000, hops: [hop(1, { address: null, rtt: LatencyCode.Timeout, reply: 'timeout' }), hop(2, { quotedDscp: 0 }), hop(3), hop(4)] },
    ];
    for (const r of rounds) {
      const text = wireRoundText(9, r);
      expect(text).toBe(JSON.stringify({ traceId: 9, time: r.time, hops: r.hops.map(wireHop) }));
      expect(validate({ t: 'batch', seq: 1, rounds: [JSON.parse(text)] })).toBe(true);
    }
  });

  it('are refused with details out of range or unknown fields', () => {
    const base = { ttl: 2, address: '10.0.0.2', name: null, rtt: 1 };
    expect(validate(batch([{ ...base, quotedDscp: 64 }]))).toBe(false);
    expect(validate(batch([{ ...base, mpls: [{ label: 0x100000, exp: 0, bottomOfStack: true, ttl: 1 }] }]))).toBe(false);
    expect(validate(batch([{ ...base, owner: { asn: 1, asName: 'x', country: 'US' } }]))).toBe(false);
    expect(validate(batch([{ ...base, extra: 1 }]))).toBe(false);
  });
});
