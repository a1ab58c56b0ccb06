// Runs first in `npm start`, `npm run serve` and `npm test`: stops with a message when the
// `node` an npm script is about to use is not the project's Node (docs/decisions.md, "Node
// runtime"). `npm ci` installs Node's official binary as the package node-linux-<arch>, and
// npm puts node_modules/.bin (its `node`) first in PATH for scripts, so this passes unless the
// package is missing (a CPU with no such package, `--omit=optional`) or a script was started
// with another node by hand. Plain JavaScript that any Node runs: it must be able to say so on
// the machine's old Node too. Reads package.json in the working directory (npm sets it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const runtimePackage = `node-linux-${process.arch}`;
const installed = join('node_modules', runtimePackage, 'package.json');
const running = `Node ${process.versions.node} (${process.execPath})`;

function stop(message) {
  console.error(`hopwatch: ${message}`);
  process.exit(1);
}

if (pkg.optionalDependencies?.[runtimePackage] && existsSync(installed)) {
  const { version } = JSON.parse(readFileSync(installed, 'utf8'));
  if (process.versions.node !== version) {
    stop(
      `this runs on ${running}, but Hopwatch runs on the Node that npm ci installed: Node ${version}, ` +
        `node_modules/.bin/node. Start it through npm (npm start, npm test, npx ...), which puts ` +
        `node_modules/.bin first in PATH, or run node_modules/.bin/node yourself.`,
    );
  }
} else {
  const least = Number(/>=\s*(\d+)/.exec(pkg.engines?.node ?? '')?.[1] ?? 0);
  if (Number(process.versions.node.split('.')[0]) < least) {
    const why = pkg.optionalDependencies?.[runtimePackage]
      ? `npm ci did not install ${runtimePackage} (installed with --omit=optional?): run npm ci`
      : `npm has no Node package for ${process.platform}-${process.arch}: install Node ${least} LTS and put it first in PATH`;
    stop(`this runs on ${running}; Hopwatch needs Node ${pkg.engines.node}. ${why}.`);
  }
}
