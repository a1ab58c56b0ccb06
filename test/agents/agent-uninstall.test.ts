// Uninstalling the agent bundle without systemd (issue 40 item 6), with the real bundle's
// install.sh and uninstall.sh at the real paths: each step runs in a mount namespace of its own
// (unshare) where /opt, /etc/systemd/system, /usr/share/applications and /var/lib are bind
// mounts of scratch directories, and HOME is a scratch user's home whose mimeapps.list holds
// other associations too. xdg-mime (xdg-utils) is the real one. This host has no systemd, so
// install.sh says to start the agent by hand; the test does exactly what it says. Needs root.
// The path under systemd: test/agents/agent-uninstall-systemd.test.ts.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { agentList, createAgentWithLink, waitFor } from './support.js';

const repo = resolve(import.meta.dirname, '../..');
const tarball = join(repo, 'dist/agent-bundle/hopwatch-agent-linux-x64.tar.gz');

/** The system directories install.sh writes to, and the scratch directory mounted on each. */
const mounts: [scratch: string, target: string][] = [
  ['opt', '/opt'],
  ['systemd-system', '/etc/systemd/system'],
  ['applications', '/usr/share/applications'],
  ['var-lib', '/var/lib'],
];

/** A user's own associations, which the uninstall must leave as they are. */
const userAssociations = [
  '[Default Applications]',
  'text/html=firefox-esr.desktop',
  'x-scheme-handler/https=firefox-esr.desktop',
  '',
  '[Added Associations]',
  'image/png=gimp.desktop;org.gnome.eog.desktop;',
  '',
].join('\n');

interface Sandbox {
  dir: string;
  home: string;
  mimeapps: string;
  env: NodeJS.ProcessEnv;
  /** `unshare` arguments that run argv with the scratch directories mounted. */
  argv(command: string[]): string[];
}

function sandbox(parent: string, name: string): Sandbox {
  const dir = join(parent, name);
  for (const [scratch] of mounts) mkdirSync(join(dir, scratch), { recursive: true });
  const home = join(dir, 'home');
  mkdirSync(join(home, '.config'), { recursive: true });
  const mimeapps = join(home, '.config/mimeapps.list');
  writeFileSync(mimeapps, userAssociations);
  const binds = mounts.map(([scratch, target]) => `mount --bind "$SANDBOX/${scratch}" ${target}`).join(' && ');
  return {
    dir,
    home,
    mimeapps,
    // What a root shell has: no HOPWATCH_* variables (the agent is started as install.sh says).
    env: { PATH: process.env.PATH, HOME: home, SANDBOX: dir },
    argv: (command) => ['--mount', '--propagation', 'private', 'sh', '-c', `${binds} && exec "$@"`, 'sh', ...command],
  };
}

/** Every file and directory under dir, relative to it. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('uninstalling the agent without systemd', () => {
  let hw: Appliance;
  let cookie = '';
  let dir: string;
  let bundle: string;

  beforeAll(async () => {
    if (process.getuid?.() !== 0) throw new Error('This suite needs root (mount namespaces, the install paths).');
    if (!existsSync(tarball)) execFileSync('sh', ['agent/bundle/build.sh'], { cwd: repo, stdio: 'ignore' });
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw' } });
    cookie = await signIn(hw.url, 'admin', 'pw');
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-uninstall-'));
    // The bundle as a user gets it: the Installer download, unpacked.
    const r = await fetch(`${hw.url}/downloads/hopwatch-agent-linux-x64.tar.gz`);
    expect(r.status).toBe(200);
    writeFileSync(join(dir, 'bundle.tar.gz'), Buffer.from(await r.arrayBuffer()));
    execFileSync('tar', ['-C', dir, '-xzf', join(dir, 'bundle.tar.gz')]);
    bundle = join(dir, 'hopwatch-agent');
  }, 300_000);
  afterAll(async () => {
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs install.sh at the real paths; checks that each file it is known to write is there. */
  function install(box: Sandbox, link?: string): string {
    const out = execFileSync('unshare', box.argv([join(bundle, 'install.sh'), ...(link ? [link] : [])]), { env: box.env, encoding: 'utf8' });
    expect(tree(join(box.dir, 'opt'))).toContain('hopwatch-agent/bin/node');
    expect(readFileSync(join(box.dir, 'systemd-system/hopwatch-agent.service'), 'utf8')).toMatch(/^ExecStart=\/opt\/hopwatch-agent\/hopwatch-agent run --service$/m);
    expect(existsSync(join(box.dir, 'applications/hopwatch-agent-setup.desktop'))).toBe(true);
    expect(existsSync(join(box.dir, 'var-lib/hopwatch-agent'))).toBe(true);
    expect(readFileSync(box.mimeapps, 'utf8')).toMatch(/^x-scheme-handler\/hopwatch=hopwatch-agent-setup\.desktop$/m);
    return out;
  }

  /** Nothing of the install is left, and mimeapps.list holds exactly the user's associations. */
  function expectRemoved(box: Sandbox): void {
    for (const [scratch, target] of mounts) expect(tree(join(box.dir, scratch)), `left in ${target}`).toEqual([]);
    expect(readFileSync(box.mimeapps, 'utf8')).toBe(userAssociations);
  }

  it("removes everything on Delete And Uninstall from an agent started as install.sh's no-systemd message says", async () => {
    const box = sandbox(dir, 'console');
    const { agent, link } = await createAgentWithLink(hw.url, cookie, 'Uninstalled');
    const said = install(box, link.SetupLink);
    expect(existsSync(join(box.dir, 'var-lib/hopwatch-agent/credentials.json'))).toBe(true);
    const command = /No systemd here: run (\S+(?: \S+)*) yourself\./.exec(said)?.[1];
    expect(command, said).toBe('/opt/hopwatch-agent/hopwatch-agent run --service');

    // The agent as the user starts it: that command in a root shell, nothing else set (the
    // simulated engine only, so that no probe leaves the host).
    const child = spawn('unshare', box.argv(command!.split(' ')), { env: { ...box.env, HOPWATCH_ENGINE: 'simulated' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((ok) => child.once('exit', ok));
    try {
      await waitFor('the agent ONLINE', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === agent.ID && a.IsOnline));
      const r = await fetch(`${hw.url}/cmd/deleteAgent?sentinelId=${agent.ID}&shouldUninstall=true`, { headers: { cookie } });
      expect(r.status).toBe(204);
      expect(await exited, out).toBe(0);
      expectRemoved(box);
      expect(out).toContain('Hopwatch agent removed.');
    } finally {
      if (child.exitCode === null) child.kill();
    }
  }, 120_000);

  it('removes everything, and only its own mimeapps.list association, when uninstall.sh is run by hand', () => {
    const box = sandbox(dir, 'by-hand');
    install(box);
    const out = execFileSync('unshare', box.argv(['/opt/hopwatch-agent/uninstall.sh']), { env: box.env, encoding: 'utf8' });
    expect(out).toContain('Hopwatch agent removed.');
    expectRemoved(box);
  });

  it('keeps the other applications of an x-scheme-handler/hopwatch entry', () => {
    const box = sandbox(dir, 'shared-entry');
    install(box);
    // Another handler the user added for the same scheme after the install.
    const png = 'image/png=gimp.desktop;org.gnome.eog.desktop;';
    const before = readFileSync(box.mimeapps, 'utf8');
    writeFileSync(box.mimeapps, before.replace(png, `${png}\nx-scheme-handler/hopwatch=hopwatch-agent-setup.desktop;my-handler.desktop;`));
    execFileSync('unshare', box.argv(['/opt/hopwatch-agent/uninstall.sh']), { env: box.env, encoding: 'utf8' });
    const after = readFileSync(box.mimeapps, 'utf8');
    expect(after).toContain('x-scheme-handler/hopwatch=my-handler.desktop;');
    expect(after).not.toContain('hopwatch-agent-setup.desktop');
    expect(after).toBe(userAssociations.replace(png, `${png}\nx-scheme-handler/hopwatch=my-handler.desktop;`));
  });
});
