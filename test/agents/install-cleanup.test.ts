// A failed install removes what it wrote (issue 40 item 4). At a branch office the Auto Setup
// link named a server the machine could not reach (ECONNREFUSED), and install.sh left
// /opt/hopwatch-agent, the systemd unit, the .desktop file and the state directory behind.
// Here install.sh runs as root under a scratch root (HOPWATCH_INSTALL_ROOT) with a link to a
// loopback port nothing listens on, and `hopwatch-agent setup` alone with a new state
// directory: both fail saying why, and leave nothing; a state directory that was there before
// (an earlier set-up agent) is kept. And a step failing after the setup succeeded (against a
// real appliance) removes what the run made. No traffic leaves loopback.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSetupLink } from '../../agent/setup-link.js';
import { freePort, signIn, startAppliance } from '../support/appliance.js';
import { createAgentWithLink } from './support.js';

const repo = resolve(import.meta.dirname, '../..');
const tarball = join(repo, 'dist/agent-bundle/hopwatch-agent-linux-x64.tar.gz');
const Installed = ['opt/hopwatch-agent', 'etc/systemd/system/hopwatch-agent.service', 'usr/share/applications/hopwatch-agent-setup.desktop', 'var/lib/hopwatch-agent'];

describe('a failed agent install', () => {
  let dir: string;
  let bundle: string;
  let link: string;

  beforeAll(async () => {
    if (!existsSync(tarball)) execFileSync('sh', ['agent/bundle/build.sh'], { cwd: repo, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-install-fail-'));
    execFileSync('tar', ['-C', dir, '-xzf', tarball]);
    bundle = join(dir, 'hopwatch-agent');
    // The bundle as agent/bundle/build.sh makes it from this checkout: its scripts and the built
    // agent (the tarball may predate both); its Node binary and packages as served.
    for (const f of ['install.sh', 'uninstall.sh', 'hopwatch-agent']) cpSync(join(repo, 'agent/bundle', f), join(bundle, f));
    rmSync(join(bundle, 'app/dist/agent'), { recursive: true, force: true });
    cpSync(join(repo, 'dist/agent'), join(bundle, 'app/dist/agent'), { recursive: true });
    // A port on loopback that nothing listens on: the connection is refused, as at the branch.
    link = formatSetupLink({ id: 7, key: 'k'.repeat(32), server: `http://127.0.0.1:${await freePort()}` });
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const install = (root: string) =>
    spawnSync(join(bundle, 'install.sh'), [link], { env: { ...process.env, HOPWATCH_INSTALL_ROOT: root }, encoding: 'utf8' });

  it('install.sh with a link to a server that cannot be reached fails and leaves nothing installed', () => {
    const root = join(dir, 'root-fresh');
    mkdirSync(root);
    const r = install(root);
    expect(r.status).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/could not be reached: .*ECONNREFUSED/);
    expect(r.stdout + r.stderr).toMatch(/nothing was installed/);
    for (const p of Installed) expect(existsSync(join(root, p)), p).toBe(false);
  });

  it('keeps the state directory of an agent set up before', () => {
    const root = join(dir, 'root-earlier');
    const state = join(root, 'var/lib/hopwatch-agent');
    mkdirSync(state, { recursive: true });
    writeFileSync(join(state, 'credentials.json'), '{"agentId":3}');
    const r = install(root);
    expect(r.status).not.toBe(0);
    expect(readdirSync(state)).toEqual(['credentials.json']);
    for (const p of Installed.slice(0, 3)) expect(existsSync(join(root, p)), p).toBe(false);
  });

  it('hopwatch-agent setup alone removes the state directory it made when the first connection fails', () => {
    const state = join(dir, 'state-of-setup');
    const r = spawnSync(join(bundle, 'hopwatch-agent'), ['setup', '--no-run', link], { env: { ...process.env, HOPWATCH_AGENT_DIR: state }, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^hopwatch-agent: The server http:\/\/127\.0\.0\.1:\d+ could not be reached: .*ECONNREFUSED/);
    expect(existsSync(state)).toBe(false);
  });

  it('removes what it made when a step after the setup fails', async () => {
    const hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated' } });
    try {
      const { link: good } = await createAgentWithLink(hw.url, await signIn(hw.url, 'admin', 'pw'), 'Half installed');
      const root = join(dir, 'root-late');
      // A file where install.sh makes a directory: its mkdir fails after the setup succeeded.
      mkdirSync(join(root, 'usr/share'), { recursive: true });
      writeFileSync(join(root, 'usr/share/applications'), 'not a directory');
      const r = spawnSync(join(bundle, 'install.sh'), [good.SetupLink], { env: { ...process.env, HOPWATCH_INSTALL_ROOT: root }, encoding: 'utf8' });
      expect(r.stdout + r.stderr).toMatch(/set up as agent \d+ of/);
      expect(r.status).not.toBe(0);
      expect(r.stdout + r.stderr).toMatch(/removed what it had installed/);
      for (const p of ['opt/hopwatch-agent', 'etc/systemd/system/hopwatch-agent.service', 'var/lib/hopwatch-agent']) expect(existsSync(join(root, p)), p).toBe(false);
      expect(existsSync(join(root, 'usr/share/applications'))).toBe(true);
    } finally {
      await hw.dispose();
    }
  });
});
