// The Node inside the agent installer bundle (agent/bundle/build.sh) is the project's Node LTS
// for x64 (test/support/project-node.ts), not the Node of the machine that built it, and the
// bundled agent and its raw-socket addon load on it. The installed bundle at work (enrolment,
// samples, uninstall) is agent-bundle.test.ts.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, requireProjectNode } from '../support/project-node.js';

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

  it('runs the bundled agent program (its launcher, its modules and packages)', () => {
    const state = join(dir, 'state');
    const r = spawnSync(join(bundle, 'hopwatch-agent'), ['run'], { encoding: 'utf8', env: { ...process.env, HOPWATCH_AGENT_DIR: state } });
    // No credentials yet: the program loaded and said what to do.
    expect(r.stderr + r.stdout).toContain('This agent is not set up');
    expect(r.status).not.toBe(0);
  });
});
