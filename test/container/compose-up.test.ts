// compose.yaml and compose.agent.yaml run by podman-compose 1.0.3 (Debian 12's), with the
// image built from the working tree by podman-compose as docs/deploy.md says (its HEALTHCHECK
// kept): the appliance comes up healthy, the backup commands of docs/deploy.md copy its /data,
// and the agent service (`<image> agent '<link>'`) joins it, traces, and comes back as the same
// agent after a restart (its link's key spent, its stored credential used). Needs root
// (rootful podman); installs podman-compose when missing (test/setup.sh lists it too).
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/appliance.js';
import type { Agent, AgentDownloadLink } from '../../server/contract/agents.js';
import { hostCaBundle, Podman, run } from './support/podman.js';
import { applianceBuildArgs, debianImage, ensureBaseImages, keepAsTreeImage, repoRoot } from './support/images.js';
import { deployDocPodmanComposeEnv, deployDocBackupScript } from './support/deploy-doc.js';
import { containerReport, until as waitUntil } from './support/wait.js';

const runId = randomBytes(4).toString('hex');
// HOPWATCH_COMPOSE_IMAGE: an image already built from this tree (kept; saves the slow build).
const given = process.env.HOPWATCH_COMPOSE_IMAGE;
const image = given ?? `localhost/hopwatch-compose-${runId}:latest`;
const rootPassword = `root-${randomBytes(8).toString('hex')}`;
const serverProject = `hwcompose${runId}`;
const agentProject = `hwcomposeagent${runId}`;

let podman: Podman;
let port = 0;
let url = '';
let cookie = '';
let link = '';

function compose(project: string, file: string, args: string[], env: Record<string, string>, globalArgs: string[] = []) {
  return run('podman-compose', [...globalArgs, '-p', project, '-f', resolve(repoRoot, file), ...args], { ...podman.env, HOPWATCH_IMAGE: image, ...env }, 40 * 60_000);
}

async function call<T>(path: string): Promise<T> {
  const r = await fetch(url + path, { headers: { cookie } });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The containers and their logs, for a failure message. */
const containerReportOfRun = () => containerReport(podman, (n) => n.includes(runId));
const until = <T>(what: string, fn: () => Promise<T | undefined>) => waitUntil(what, fn, containerReportOfRun);

beforeAll(async () => {
  podman = await Podman.open();
  await ensureBaseImages(podman);
  port = await freePort();
  url = `http://127.0.0.1:${port}`;
}, 40 * 60_000);

afterAll(async () => {
  if (!podman) return;
  await compose(agentProject, 'compose.agent.yaml', ['down', '-v'], { HOPWATCH_AGENT_LINK: link || 'x' });
  await compose(serverProject, 'compose.yaml', ['down', '-v'], {});
  if (!given) await podman.run(['rmi', '-f', image]);
  podman.dispose();
}, 5 * 60_000);

describe('podman-compose 1.0.3', () => {
  // What this host needs besides the documented command: the local base images, npm through
  // the host network and its CA bundle, no layer cache piling up across runs.
  it.skipIf(given)('builds the image with the command of docs/deploy.md, HEALTHCHECK included', async () => {
    const built = await compose(serverProject, 'compose.yaml', ['build', ...applianceBuildArgs], deployDocPodmanComposeEnv(), [
      '--podman-build-args',
      `--layers=false --network=host -v ${hostCaBundle}:${hostCaBundle}:ro`,
    ]);
    expect(built.code, built.stderr.slice(-4000) + built.stdout.slice(-2000)).toBe(0);
    expect(built.stderr + built.stdout).not.toContain('HEALTHCHECK is not supported');
    // Top-level Healthcheck of `podman image inspect` (docker format only; OCI has no such field).
    const [inspected] = JSON.parse(await podman.must(['image', 'inspect', image])) as { Healthcheck?: { Test?: string[] } }[];
    // The Dockerfile's HEALTHCHECK (the entry point's `health`: /readyz for the server).
    const declared = /^HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])$/m.exec(readFileSync(resolve(repoRoot, 'Dockerfile'), 'utf8'))?.[1];
    expect(declared, 'the HEALTHCHECK of the Dockerfile').toBeDefined();
    expect(inspected.Healthcheck?.Test).toEqual(['CMD', ...(JSON.parse(declared!) as string[])]);
    const size = await podman.imageSize(image);
    console.log(`[container] ${new Date().toISOString().slice(0, 10)}: image built by podman-compose: ${(size / 1e6).toFixed(1)} MB (${size} bytes; the host's Node ${process.version} in the local base)`);
    // The tree's image for the suites that only run it (appliance-image, compose-cluster): built
    // from the same Dockerfile, context, bases and arguments as they would build it. run-all.mjs
    // runs this suite first in its container lane (docs/testing.md).
    console.log(`[container] kept as the tree's image: ${await keepAsTreeImage(podman, image)}`);
  }, 40 * 60_000);

  it('brings compose.yaml up healthy with the root password from the environment (.env form)', async () => {
    const up = await compose(serverProject, 'compose.yaml', ['up', '-d'], { HOPWATCH_HTTP_PORT: String(port), HOPWATCH_ROOT_PASSWORD: rootPassword });
    expect(up.code, up.stderr + up.stdout).toBe(0);
    expect(up.stderr + up.stdout).not.toContain('Traceback');
    await until('the appliance ready', async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined));
    const health = await until('the health check passing', async () => {
      const r = await podman.run(['healthcheck', 'run', `${serverProject}_hopwatch_1`]);
      return r.code === 0 ? true : undefined;
    });
    expect(health).toBe(true);
    const login = await fetch(`${url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'admin', Password: rootPassword, RememberMe: false }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  }, 10 * 60_000);

  it('backs up /data with the commands of docs/deploy.md, from a checkout of its own as a user has it', async () => {
    // podman-compose names the project after the checkout directory (ignoring `name:`).
    const checkout = mkdtempSync(join(tmpdir(), 'hwbackup'));
    const project = basename(checkout).toLowerCase().replace(/[^a-z0-9]/g, '');
    copyFileSync(resolve(repoRoot, 'compose.yaml'), join(checkout, 'compose.yaml'));
    const backupPort = await freePort();
    const env = { ...podman.env, HOPWATCH_IMAGE: image, HOPWATCH_HTTP_PORT: String(backupPort), HOPWATCH_ROOT_PASSWORD: rootPassword };
    const inCheckout = (script: string) => run('bash', ['-euo', 'pipefail', '-c', `cd '${checkout}' && ${script}`], env, 10 * 60_000);
    try {
      const up = await inCheckout('podman-compose up -d');
      expect(up.code, up.stderr + up.stdout).toBe(0);
      await until('the second appliance ready', async () => ((await fetch(`http://127.0.0.1:${backupPort}/readyz`)).status === 200 ? true : undefined));
      expect((await podman.run(['volume', 'exists', `${project}_hopwatch-data`])).code).toBe(0);

      const backup = await inCheckout(deployDocBackupScript({ compose: 'podman-compose', engine: 'podman', image: debianImage }));
      expect(backup.code, backup.stderr + backup.stdout).toBe(0);
      const archive = join(checkout, 'hopwatch-data.tgz');
      expect(existsSync(archive)).toBe(true);
      const listed = await run('tar', ['-tzf', archive]);
      expect(listed.stdout.split('\n')).toContain('./hopwatch.duckdb');
      // The block ends by starting the service again.
      await until('the appliance back after the backup', async () => ((await fetch(`http://127.0.0.1:${backupPort}/readyz`)).status === 200 ? true : undefined));
    } finally {
      await inCheckout('podman-compose down -v');
      rmSync(checkout, { recursive: true, force: true });
    }
  }, 10 * 60_000);

  it('runs the agent service of compose.agent.yaml, which joins, traces and survives a restart', async () => {
    const agent = await call<Agent>(`/cmd/createAgent?name=${encodeURIComponent('Compose agent')}`);
    // The link names the server as the caller reached it: by the host's own address here, which
    // the agent's container reaches through its network's NAT (127.0.0.1 would be the container).
    const hostIp = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)!.address;
    const r = await fetch(`http://${hostIp}:${port}/cmd/download-link/${agent.ID}`, { headers: { cookie } });
    expect(r.status).toBe(200);
    link = ((await r.json()) as AgentDownloadLink).SetupLink;
    expect(link).toContain(encodeURIComponent(`http://${hostIp}:${port}`));
    const up = await compose(agentProject, 'compose.agent.yaml', ['up', '-d'], { HOPWATCH_AGENT_LINK: link });
    expect(up.code, up.stderr + up.stdout).toBe(0);
    const online = await until('the agent ONLINE', async () => (await call<Agent[]>('/cmd/getagentlist')).find((a) => a.ID === agent.ID && a.IsOnline));
    expect(online).toMatchObject({ Mode: 2, Platform: 3 });
    // The image's health check in an agent container: `hopwatch-agent health`, the link up.
    const health = await until('the agent container healthy', async () => {
      const h = await podman.run(['healthcheck', 'run', `${agentProject}_agent_1`]);
      return h.code === 0 ? true : undefined;
    });
    expect(health).toBe(true);
    const said = await podman.run(['exec', `${agentProject}_agent_1`, '/usr/local/bin/hopwatch-entrypoint', 'health']);
    expect(said.stdout).toMatch(/^The agent link is up since \d{4}-/);
    const logs = await podman.run(['logs', `${agentProject}_agent_1`]);
    expect(logs.stdout + logs.stderr).not.toContain(new URL(link.replace('hopwatch://', 'http://x/')).searchParams.get('key')!);

    const { ID } = await call<{ ID: number }>(`/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${agent.ID}`);
    await until('rounds stored', async () => ((await call<{ SessionID: number; SampleCount: number }[]>('/api/Sessions')).find((s) => s.SessionID === ID && s.SampleCount >= 2) ? true : undefined));

    // A restart uses the stored credential (the link's key is spent): the same agent again.
    expect((await podman.run(['restart', `${agentProject}_agent_1`])).code).toBe(0);
    await until('the agent back ONLINE', async () => (await call<Agent[]>('/cmd/getagentlist')).find((a) => a.ID === agent.ID && a.IsOnline));
    const after = await podman.run(['logs', `${agentProject}_agent_1`]);
    expect(after.stdout + after.stderr).toContain(`already set up as agent ${agent.ID}`);
    expect((await call<Agent[]>('/cmd/getagentlist')).filter((a) => a.ID > 0)).toHaveLength(1);
  }, 10 * 60_000);
});
