// Hop hosts per minute and their details stored on change; merged into HopDetails per hop.
import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../../engine/latency-codes.js';
import { hopDetailColumnTexts } from '../contract/hop-details.js';
import { detailsFromText, detailsText } from './details-json.js';
import { mergeHopHosts } from './service.js';
import { DetailsRestatedMs, HopHostTally } from './tally.js';

const M = 60_000;
const t0 = 1_700_000_040_000; // a minute start

describe('HopHostTally', () => {
  it('counts answers per address and minute, hands out closed minutes, stores details only on change', () => {
    const tally = new HopHostTally();
    const mpls = [{ label: 24001, exp: 0, bottomOfStack: true, ttl: 1 }];
    for (let i = 0; i < 6; i++) {
      tally.see(7, t0 + i * 10_000, [
        { ttl: 1, address: '10.0.0.1', rtt: 0.4, mpls },
        { ttl: 2, address: i % 3 === 0 ? '10.0.0.12' : '10.0.0.2', rtt: 0.8 },
        { ttl: 3, address: null, rtt: LatencyCode.Timeout },
      ]);
    }
    expect(tally.take()).toEqual([]); // the minute is still open
    expect(tally.open(7).map((r) => [r.hop, r.address, r.answers])).toEqual([
      [1, '10.0.0.1', 6],
      [2, '10.0.0.12', 2],
      [2, '10.0.0.2', 4],
    ]);
    // The next minute closes the first: every address a row, details with the first row.
    tally.see(7, t0 + M, [{ ttl: 1, address: '10.0.0.1', rtt: 0.4, mpls }]);
    const first = tally.take();
    expect(first.map((r) => [r.minute, r.hop, r.address, r.answers])).toEqual([
      [t0, 1, '10.0.0.1', 6],
      [t0, 2, '10.0.0.12', 2],
      [t0, 2, '10.0.0.2', 4],
    ]);
    expect(detailsFromText(first[0].details).Mpls).toEqual([{ Label: 24001, Exp: 0, BottomOfStack: true, Ttl: 1 }]);
    // Same details the next minute: no text stored again; changed details: stored.
    tally.see(7, t0 + 2 * M, [{ ttl: 1, address: '10.0.0.1', rtt: 0.4, natDetected: true }]);
    const second = tally.take();
    expect(second).toEqual([{ sessionId: 7, hop: 1, address: '10.0.0.1', minute: t0 + M, answers: 1, details: null }]);
    const third = tally.take([7]);
    expect(third).toHaveLength(1);
    expect(detailsFromText(third[0].details)).toMatchObject({ NatDetected: true, Mpls: [] });
    expect(tally.sessionIds()).toEqual([]); // finished: forgotten
  });

  it('stores unchanged details again once an hour, so a read finds them within the hour before its range', () => {
    const tally = new HopHostTally();
    const stored: (string | null)[] = [];
    // 130 minutes of the same hop and details, then a gap of three hours and one more minute.
    const minutes = [...Array.from({ length: 130 }, (_, m) => m), 310, 311];
    for (const m of minutes) {
      tally.see(3, t0 + m * M, [{ ttl: 1, address: '10.0.0.1', rtt: 0.4 }]);
      stored.push(...tally.take().map((r) => r.details));
    }
    const withDetails = minutes.slice(0, -1).filter((_, i) => stored[i] !== null);
    // The first minute, then every DetailsRestatedMs (60 minutes), and the first row after the gap.
    expect(withDetails).toEqual([0, 60, 120, 310]);
    expect(DetailsRestatedMs).toBe(60 * M);
  });

  it('counts only answers: timeouts, hops not probed (final hop only) and marker rounds are not hosts', () => {
    const tally = new HopHostTally();
    tally.see(1, t0, [
      { ttl: 1, address: '10.0.0.1', rtt: LatencyCode.NotParticipating },
      { ttl: 2, address: '10.0.0.2', rtt: LatencyCode.StopStart },
      { ttl: 3, address: '10.0.0.3', rtt: 1.5 },
    ]);
    tally.see(2, t0, [{ ttl: 1, address: null, rtt: LatencyCode.Timeout }]);
    expect(tally.open(1).map((r) => r.hop)).toEqual([3]);
    expect(tally.sessionIds()).toEqual([1]);
  });

  it('holds every row the store may not have for reads: taken until committed, closed, open', () => {
    const tally = new HopHostTally();
    const seen = (t: number, address: string) => tally.see(4, t, [{ ttl: 1, address, rtt: 1, natDetected: true }]);
    const held = () => tally.held(4).map((r) => [r.minute, r.address, r.answers, detailsFromText(r.details).NatDetected]);
    seen(t0, '10.0.0.1');
    seen(t0 + M, '10.0.0.1'); // closes t0 (details stored)
    seen(t0 + 2 * M, '10.0.0.1'); // closes t0 + M (same details: null in its row)
    seen(t0 + 2 * M, '10.0.0.2');
    expect(held()).toEqual([
      [t0, '10.0.0.1', 1, true],
      [t0 + M, '10.0.0.1', 1, true],
      [t0 + 2 * M, '10.0.0.1', 1, true],
      [t0 + 2 * M, '10.0.0.2', 1, true],
    ]);
    const rows = tally.take();
    expect(rows[1].details).toBeNull();
    expect(held()).toHaveLength(4); // being stored: still read from memory
    tally.committed();
    expect(held().map((r) => r[0])).toEqual([t0 + 2 * M, t0 + 2 * M]);
    expect(tally.held(4).every((r) => r.open)).toBe(true); // the open minute's rows say so
    tally.take([4]);
    expect(held()).toHaveLength(2); // a finished session's rows until committed, with their details
    expect(held().every((r) => r[3] === true)).toBe(true);
    tally.committed();
    expect(held()).toEqual([]);
  });

  it('gives rows back when the store did not take them', () => {
    const tally = new HopHostTally();
    tally.see(1, t0, [{ ttl: 1, address: '10.0.0.1', rtt: 1 }]);
    const rows = tally.take([1]);
    tally.giveBack(rows);
    expect(tally.take()).toEqual(rows);
  });
});

describe('details text', () => {
  it('round-trips every field, and a text that does not parse is no details', () => {
    const text = detailsText({
      ttl: 4, address: '1.1.1.1', rtt: 3,
      mpls: [{ label: 16, exp: 5, bottomOfStack: false, ttl: 254 }, { label: 24002, exp: 0, bottomOfStack: true, ttl: 1 }],
      owner: { asn: 13335, asName: 'CLOUDFLARENET', country: 'AU', special: null },
      quotedDscp: 46,
      natDetected: true,
    });
    expect(detailsFromText(text)).toEqual({
      Mpls: [{ Label: 16, Exp: 5, BottomOfStack: false, Ttl: 254 }, { Label: 24002, Exp: 0, BottomOfStack: true, Ttl: 1 }],
      Asn: 13335, AsName: 'CLOUDFLARENET', Country: 'AU', Special: null, QuotedDscp: 46, NatDetected: true,
    });
    expect(detailsText({ ttl: 1, address: '10.0.0.1', rtt: 1 })).toBe('{}');
    expect(detailsFromText('{not json')).toEqual(detailsFromText(null));
  });
});

describe('mergeHopHosts and the grid texts', () => {
  it('adds the open minute to the stored ones, shares per hop, most answers first, latest details', () => {
    const stored = [
      { hop: 2, address: '10.0.0.2', answers: 50, details: detailsText({ ttl: 2, address: '', rtt: 1, owner: { asn: null, asName: null, country: null, special: 'Private' } }) },
      { hop: 2, address: '10.0.0.12', answers: 30, details: null },
    ];
    const live = [
      { sessionId: 1, hop: 2, address: '10.0.0.12', minute: t0, answers: 20, details: detailsText({ ttl: 2, address: '', rtt: 1, quotedDscp: 46 }) },
      { sessionId: 1, hop: 3, address: '10.0.0.3', minute: t0, answers: 10, details: '{}' },
    ];
    const byHop = mergeHopHosts(stored, live);
    const hop2 = byHop.get(2)!;
    expect(hop2.Hosts.map((h) => [h.Address, h.Samples, h.SharePercent])).toEqual([
      ['10.0.0.12', 50, 50],
      ['10.0.0.2', 50, 50],
    ]);
    expect(hop2.Hosts[0].QuotedDscp).toBe(46);
    expect(hopDetailColumnTexts(hop2)).toEqual({ Hosts: '10.0.0.12 50%, 10.0.0.2 50%', MPLS: '', AS: 'Private', Country: '', NAT: '', DSCP: '46' });
    expect(hopDetailColumnTexts(byHop.get(3)!).Hosts).toBe(''); // one host: the IP column shows it
    expect(hopDetailColumnTexts(null)).toEqual({ Hosts: '', MPLS: '', AS: '', Country: '', NAT: '', DSCP: '' });
  });

  it('writes MPLS stacks top first with the bottom marked, and AS numbers with their names', () => {
    const d = {
      Hosts: [{
        Address: '1.1.1.1', Samples: 1, SharePercent: 100, QuotedDscp: null, NatDetected: true, Special: null,
        Asn: 13335, AsName: 'CLOUDFLARENET', Country: 'AU',
        Mpls: [{ Label: 16, Exp: 5, BottomOfStack: false, Ttl: 254 }, { Label: 24002, Exp: 0, BottomOfStack: true, Ttl: 1 }],
      }],
    };
    expect(hopDetailColumnTexts(d)).toMatchObject({ MPLS: '16 exp 5 ttl 254 | 24002 exp 0 ttl 1 S', AS: 'AS13335 CLOUDFLARENET', Country: 'AU', NAT: 'NAT' });
  });
});
