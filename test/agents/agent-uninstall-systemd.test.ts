// Uninstalling the agent bundle under systemd (issue 40 item 6): a Debian container that boots
// systemd as PID 1 (rootful podman, test/container/support/systemd-image.ts), on the host's
// network so that the installed service reaches the test's appliance on loopback. The real
// bundle's install.sh enables and starts hopwatch-agent.service; then
//  - Delete And Uninstall in the console: the agent runs uninstall.sh inside the unit, which
//    must hand over to a transient unit and finish there (stopping a Restart=always service
//    kills every process in it, and systemd would start the agent again);
//  - uninstall.sh run by hand from a root shell: it stops and disables the unit first.
// Either way the unit is gone (not loaded, not running, not enabled), and so are the files,
// the state and the mimeapps.list association. Needs root (rootful podman).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Podman } from '../container/support/podman.js';
import { ensureSystemdImage } from '../container/support/systemd-image.js';
import { agentList, createAgentWithLink, waitFor } from './support.js';

const runId = randomBytes(4).toString('hex');
const name = `hopwatch-systemd-${runId}`;
/** What install.sh writes (besides the association in root's mimeapps.list). */
const installed = ['/opt/hopwatch-agent', '/etc/systemd/system/hopwatch-agent.service', '/usr/share/applications/hopwatch-agent-setup.desktop', '/var/lib/hopwatch-agent'];
const mimeapps = '/root/.config/mimeapps.list';
const otherAssociation = 'text/html=firefox-esr.desktop';

describe('uninstalling the agent under systemd', () => {
  let podman: Podman;
  let hw: Appliance;
  let cookie = '';
  let dir = '';

  const exec = (args: string[]) => podman.run(['exec', '-e', 'HOME=/root', name, ...args]);
  const sh = (script: string) => exec(['sh', '-c', script]);
  /** The unit's state as systemd reports it: LoadState, ActiveState, UnitFileState. */
  async function unit(): Promise<Record<string, string>> {
    const r = await exec(['systemctl', 'show', '-p', 'LoadState,ActiveState,UnitFileState', 'hopwatch-agent.service']);
    return Object.fromEntries(r.stdout.trim().split('\n').filter(Boolean).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  }
  /** The paths of the install still there. */
  async function left(): Promise<string[]> {
    const r = await sh(installed.map((p) => `[ ! -e '${p}' ] || echo '${p}'`).join('; '));
    return r.stdout.split('\n').filter(Boolean);
  }
  /** Processes running the bundle's node, by their executable. */
  async function agentProcesses(): Promise<string> {
    return (await sh('for p in /proc/[0-9]*; do readlink "$p/exe" 2>/dev/null; done | grep hopwatch-agent || true')).stdout.trim();
  }

  async function install(link: string): Promise<void> {
    writeFileSync(join(dir, 'mimeapps.list'), `[Default Applications]\n${otherAssociation}\n`);
    expect((await sh(`mkdir -p /root/.config && cp /bundle/mimeapps.list ${mimeapps}`)).code).toBe(0);
    const r = await exec(['/bundle/hopwatch-agent/install.sh', link]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).not.toContain('No systemd here');
    expect(await unit()).toMatchObject({ LoadState: 'loaded', ActiveState: 'active', UnitFileState: 'enabled' });
    expect(await left()).toEqual(installed);
    expect((await exec(['cat', mimeapps])).stdout).toContain('x-scheme-handler/hopwatch=hopwatch-agent-setup.desktop');
  }

  async function expectRemoved(): Promise<void> {
    expect(await left()).toEqual([]);
    // Not loaded any more: nothing can start it again (Restart=always applies to a loaded unit).
    expect(await unit()).toMatchObject({ LoadState: 'not-found', ActiveState: 'inactive' });
    expect(await agentProcesses()).toBe('');
    const list = (await exec(['cat', mimeapps])).stdout;
    expect(list).not.toContain('hopwatch');
    expect(list).toContain(otherAssociation);
  }

  beforeAll(async () => {
    podman = await Podman.open();
    const image = await ensureSystemdImage(podman);
    // The agent's simulated engine: probes need no network and leave no trace on the host.
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw' } });
    cookie = await signIn(hw.url, 'admin', 'pw');
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-systemd-bundle-'));
    const r = await fetch(`${hw.url}/downloads/hopwatch-agent-linux-x64.tar.gz`);
    expect(r.status).toBe(200);
    writeFileSync(join(dir, 'bundle.tar.gz'), Buffer.from(await r.arrayBuffer()));
    execFileSync('tar', ['-C', dir, '-xzf', join(dir, 'bundle.tar.gz')]);
    // NET_RAW: the unit's AmbientCapabilities needs it in the bounding set (podman leaves it out).
    await podman.must(['run', '-d', '--name', name, '--systemd=always', '--network=host', '--cap-add', 'NET_RAW', '-v', `${dir}:/bundle:ro`, image]);
    const booted = await waitFor('systemd booted in the container', async () => {
      const s = (await exec(['systemctl', 'is-system-running'])).stdout.trim();
      return s === 'running' || s === 'degraded' ? s : undefined;
    }, 120_000);
    expect(['running', 'degraded']).toContain(booted);
    // The service manager's environment reaches every unit: the simulated engine, no unit edits.
    expect((await exec(['systemctl', 'set-environment', 'HOPWATCH_ENGINE=simulated'])).code).toBe(0);
  }, 30 * 60_000);

  afterAll(async () => {
    if (podman) {
      await podman.run(['rm', '-f', '-t', '0', name]);
      podman.dispose();
    }
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('Delete And Uninstall in the console: the service hands the uninstall to a transient unit, which removes it all', async () => {
    const { agent, link } = await createAgentWithLink(hw.url, cookie, 'Systemd agent');
    await install(link.SetupLink);
    await waitFor('the service ONLINE', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === agent.ID && a.IsOnline));

    const r = await fetch(`${hw.url}/cmd/deleteAgent?sentinelId=${agent.ID}&shouldUninstall=true`, { headers: { cookie } });
    expect(r.status).toBe(204);
    const done = await waitFor('the install removed and the unit gone', async () => ((await left()).length === 0 && (await unit()).LoadState === 'not-found' ? true : undefined), 60_000).catch(
      async (err: Error) => {
        const journal = (await exec(['journalctl', '--no-pager', '-o', 'cat', '-u', 'hopwatch-agent.service'])).stdout;
        throw new Error(`${err.message}\nleft: ${(await left()).join(' ')}\nunit: ${JSON.stringify(await unit())}\nthe service's journal (end):\n${journal.slice(-3000)}`);
      },
    );
    expect(done).toBe(true);
    await expectRemoved();
    // The transient unit ran the removal to its end (its last word is in its journal).
    const journal = (await exec(['journalctl', '--no-pager', '-o', 'cat', '-u', 'hopwatch-agent-uninstall-*'])).stdout;
    expect(journal).toContain('Hopwatch agent removed.');
  }, 240_000);

  it('uninstall.sh run by hand from a root shell stops and disables the service first, then removes it all', async () => {
    const { agent, link } = await createAgentWithLink(hw.url, cookie, 'Systemd agent by hand');
    await install(link.SetupLink);
    await waitFor('the service ONLINE', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === agent.ID && a.IsOnline));

    const r = await exec(['/opt/hopwatch-agent/uninstall.sh']);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain('Hopwatch agent removed.');
    expect(r.stdout).not.toContain('handed over');
    await expectRemoved();
    await waitFor('the agent OFFLINE in the console', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === agent.ID && !a.IsOnline));
  }, 240_000);
});
