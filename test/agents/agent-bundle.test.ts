// The installer bundle the appliance serves (agent/bundle/): downloaded from the server,
// unpacked, installed under a scratch root with a setup link (systemd unit, xdg URL scheme
// handler, credentials 0600), run as the service with the bundled Node (Mode SERVICE), and
// removed again by Delete And Uninstall in the console (its uninstall script). Simulated
// engine: runs without root. systemctl and xdg-mime are not called under a scratch root.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { agentList, cmd, createAgentWithLink, waitFor } from './support.js';

const repo = resolve(import.meta.dirname, '../..');
const tarball = join(repo, 'dist/agent-bundle/hopwatch-agent-linux-x64.tar.gz');

describe('the agent installer bundle', () => {
  let hw: Appliance;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(tarball)) execFileSync('sh', ['agent/bundle/build.sh'], { cwd: repo, stdio: 'ignore' });
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated' } });
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-bundle-'));
  }, 300_000);
  afterAll(async () => {
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs from the served download, runs as the service, and uninstalls on Delete And Uninstall', async () => {
    const cookie = await signIn(hw.url, 'admin', 'pw');
    const { agent, link } = await createAgentWithLink(hw.url, cookie, 'Installed');
    // The Installer link serves the bundle without a console session.
    const r = await fetch(link.DownloadUrl);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    writeFileSync(join(dir, 'bundle.tar.gz'), Buffer.from(await r.arrayBuffer()));
    execFileSync('tar', ['-C', dir, '-xzf', join(dir, 'bundle.tar.gz')]);
    // What to do next is in the bundle too (issue 40 item 5): the console's install commands.
    expect(readFileSync(join(dir, 'hopwatch-agent/README.md'), 'utf8')).toContain("sudo ./hopwatch-agent/install.sh '<Auto Setup link>'");

    const root = join(dir, 'root');
    const env = { ...process.env, HOPWATCH_INSTALL_ROOT: root };
    execFileSync(join(dir, 'hopwatch-agent/install.sh'), [link.SetupLink], { env, encoding: 'utf8' });
    expect(readFileSync(join(root, 'etc/systemd/system/hopwatch-agent.service'), 'utf8')).toMatch(/ExecStart=\/opt\/hopwatch-agent\/hopwatch-agent run --service/);
    expect(readFileSync(join(root, 'usr/share/applications/hopwatch-agent-setup.desktop'), 'utf8')).toMatch(/MimeType=x-scheme-handler\/hopwatch;/);
    const creds = join(root, 'var/lib/hopwatch-agent/credentials.json');
    expect(statSync(creds).mode & 0o777).toBe(0o600);
    expect(readFileSync(creds, 'utf8')).not.toContain(new URL(link.SetupLink).searchParams.get('key')!);

    // What the unit runs, with the bundled Node.
    const child = spawn(join(root, 'opt/hopwatch-agent/hopwatch-agent'), ['run', '--service'], {
      env: {
        ...env,
        HOPWATCH_AGENT_DIR: join(root, 'var/lib/hopwatch-agent'),
        HOPWATCH_AGENT_UNINSTALL: join(root, 'opt/hopwatch-agent/uninstall.sh'),
        HOPWATCH_ENGINE: 'simulated',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((ok) => child.once('exit', ok));
    try {
      const online = await waitFor('the installed agent ONLINE', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === agent.ID && a.IsOnline));
      expect(online).toMatchObject({ Mode: 1, Configured: true });
      const { ID } = await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${agent.ID}`);
      await waitFor('samples from the installed agent', async () => {
        const t = await cmd<{ ID: number; LatestSample: number | null }[]>(hw.url, cookie, `/cmd/agentTargets?agentId=${agent.ID}`);
        return t.find((x) => x.ID === ID && x.LatestSample !== null);
      });

      expect((await fetch(`${hw.url}/cmd/deleteAgent?sentinelId=${agent.ID}&shouldUninstall=true`, { headers: { cookie } })).status).toBe(204);
      expect(await exited).toBe(0);
      await waitFor('the uninstall script done', async () => !existsSync(join(root, 'opt/hopwatch-agent')));
      expect(existsSync(join(root, 'var/lib/hopwatch-agent'))).toBe(false);
      expect(existsSync(join(root, 'etc/systemd/system/hopwatch-agent.service'))).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill();
      if (child.exitCode === null && !out) console.log(out);
    }
  }, 240_000);
});
