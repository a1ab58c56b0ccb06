// Who a hop belongs to: special addresses by their registries' ranges, public ones from the
// offline databases the npm packages ship (RouteViews/RIR/DB-IP ASN, iptoasn country).
import { describe, expect, it } from 'vitest';
import { HopOwnerDatabase, specialAddressKind } from './hop-owners.js';

describe('special addresses', () => {
  it('names private and special IPv4 and IPv6 addresses, and no public one', () => {
    const cases: [string, string | null][] = [
      ['10.251.3.2', 'Private'], ['172.16.0.1', 'Private'], ['172.31.255.255', 'Private'], ['172.32.0.1', null],
      ['192.168.1.1', 'Private'], ['100.64.0.1', 'Shared address space (CGN)'], ['100.128.0.1', null],
      ['127.0.0.1', 'Loopback'], ['169.254.1.1', 'Link-local'], ['192.0.2.7', 'Documentation'],
      ['198.51.100.1', 'Documentation'], ['203.0.113.9', 'Documentation'], ['224.0.0.1', 'Multicast'],
      ['8.8.8.8', null], ['1.1.1.1', null],
      ['fd00:251::1', 'Private (unique local)'], ['fe80::1', 'Link-local'], ['::1', 'Loopback'], ['ff02::1', 'Multicast'],
      ['2001:db8::1', 'Documentation'], ['::ffff:10.0.0.1', 'Private'], ['2001:4860:4860::8888', null], ['4000::1', 'Reserved'],
    ];
    for (const [address, kind] of cases) expect(specialAddressKind(address), address).toBe(kind);
  });
});

describe('the offline databases', () => {
  const db = new HopOwnerDatabase();

  it('gives special addresses at once, public ones once loaded (never a lookup off the machine)', async () => {
    expect(db.lookup('10.1.2.3')).toEqual({ asn: null, asName: null, country: null, special: 'Private' });
    expect(db.lookup('8.8.8.8')).toBeNull();
    await db.ready();
    expect(db.lookup('8.8.8.8')).toMatchObject({ asn: 15169, country: 'US', special: null });
    expect(db.lookup('8.8.8.8')!.asName).toMatch(/google/i);
    expect(db.lookup('2001:4860:4860::8888')).toMatchObject({ asn: 15169, country: 'US', special: null });
    expect(db.lookup('1.1.1.1')).toMatchObject({ asn: 13335 });
    expect(db.lookup('1.1.1.1')!.asName).toMatch(/cloudflare/i);
  });
});
