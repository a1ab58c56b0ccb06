// The appliance image, built from the repository's Dockerfile with podman (ARCHITECTURE.md,
// "Containers") and run the way a sysadmin runs it: published port, named volume, NET_RAW,
// root password from the environment. Then once more through testcontainers over podman's
// Docker-compatible API. Prints the image size and the time from `run` to healthy.
// Needs root (rootful podman); installs podman, runc and debootstrap when missing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, signIn } from '../support/appliance.js';
import { Podman } from './support/podman.js';
import { ensureBaseImages, treeApplianceImage } from './support/images.js';
import { expectConsoleServed } from './support/wait.js';
import { requireProjectNode } from '../support/project-node.js';
import type { TargetIdResult } from '../../server/contract/targets.js';
import type { DataPointBuckets } from '../../server/contract/data.js';

const runId = randomBytes(4).toString('hex');
// The working tree's image, shared with the suites that run it (compose-cluster): built here
// when no earlier suite or run built this tree, kept for them afterwards (support/images.ts).
let image = '';
const rootPassword = `root-${randomBytes(8).toString('hex')}`;
const json = { 'content-type': 'application/json' };

let podman: Podman;

beforeAll(async () => {
  podman = await Podman.open();
  const t = Date.now();
  await ensureBaseImages(podman);
  console.log(`[container] base images ready in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const tree = await treeApplianceImage(podman);
  image = tree.image;
  console.log(`[container] image ${image}: ${tree.builtSeconds ? `built in ${tree.builtSeconds.toFixed(1)} s` : 'built earlier for this tree (cached)'}`);
  const size = await podman.imageSize(image);
  console.log(`[container] image size: ${(size / 1e6).toFixed(1)} MB (${size} bytes)`);
}, 30 * 60_000);

afterAll(async () => {
  if (!podman) return;
  podman.dispose();
}, 120_000);

/** Polls the image's own HEALTHCHECK (`podman healthcheck run`) until it passes. */
async function waitHealthy(name: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await podman.run(['healthcheck', 'run', name]);
    if (r.code === 0) return;
    const state = (await podman.run(['inspect', '--format', '{{.State.Status}}', name])).stdout.trim();
    if (state !== 'running' || Date.now() > deadline) {
      const logs = await podman.run(['logs', name]);
      throw new Error(`container ${name} not healthy (state ${state}):\n${r.stdout}${r.stderr}\nlogs:\n${logs.stdout}${logs.stderr}`);
    }
    await new Promise((res) => setTimeout(res, 250));
  }
}

describe('the image run with podman', () => {
  const name = `hopwatch-it-${runId}`;
  const volume = `hopwatch-it-${runId}-data`;
  let url = '';

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await podman.must(['volume', 'create', volume]);
    const t0 = Date.now();
    await podman.must([
      'run', '-d', '--name', name,
      '-p', `127.0.0.1:${port}:8080`,
      '-v', `${volume}:/data`,
      // compose.yaml and the chart add NET_RAW too; podman (unlike Docker) leaves it out by default.
      '--cap-add', 'NET_RAW',
      // As the Helm chart runs it: only /data (and podman's tmpfs /tmp) writable.
      '--read-only',
      '-e', `HOPWATCH_ROOT_PASSWORD=${rootPassword}`,
      image,
    ]);
    await waitHealthy(name);
    console.log(`[container] podman run -> healthy: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 180_000);

  afterAll(async () => {
    if (!podman) return;
    await podman.run(['rm', '-f', '-t', '0', name]);
    await podman.run(['volume', 'rm', '-f', volume]);
  }, 120_000);

  it('serves the console', async () => {
    await expectConsoleServed(url, await fetch(`${url}/`));
  });

  it('signs in the root user with the password given in HOPWATCH_ROOT_PASSWORD', async () => {
    const cookie = await signIn(url, 'admin', rootPassword);
    const me = await fetch(`${url}/api/Account/GetCurrentUser`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ Username: 'admin', IsRoot: true });
    const wrong = await fetch(`${url}/api/Account/Login`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ Username: 'admin', Password: `${rootPassword}-wrong`, RememberMe: false }),
    });
    expect(wrong.status).toBe(401);
  });

  it('runs the server as a non-root user that holds CAP_NET_RAW and nothing more', async () => {
    const status = await podman.must(['exec', name, 'cat', '/proc/1/status']);
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)![1]);
    const capEff = BigInt(`0x${/^CapEff:\s+([0-9a-f]+)/m.exec(status)![1]}`);
    const CAP_NET_RAW = 13n;
    expect(uid).not.toBe(0);
    expect(capEff).toBe(1n << CAP_NET_RAW);
  });

  it("runs on the project's Node LTS (node-linux-<arch>), and keeps no second copy of it in node_modules", async () => {
    const out = await podman.must(['exec', name, 'node', '-p', 'JSON.stringify([process.versions.node, process.release.lts ?? null])']);
    const [version, lts] = JSON.parse(out) as [string, string | null];
    expect(version).toBe(requireProjectNode().version);
    expect(lts, 'an LTS release').toBeTruthy();
    const left = await podman.run(['exec', name, 'sh', '-c', 'ls -d /app/node_modules/node-linux-* /app/node_modules/.bin/node']);
    expect(left.stdout).toBe('');
  });

  it('records samples of a trace to an address reachable from the container', async () => {
    const cookie = await signIn(url, 'admin', rootPassword);
    // The container's own loopback: reachable from inside, and no traffic leaves the host.
    const started = await fetch(`${url}/cmd/newtarget?target=127.0.0.1`, { headers: { cookie } });
    const body = await started.text();
    expect(started.status, body).toBe(200);
    const targetId = (JSON.parse(body) as TargetIdResult).ID;
    expect(targetId, `target id in ${body}`).toBeDefined();

    // Samples arrive through the Local Machine agent, the ingest pool and the store.
    const deadline = Date.now() + 60_000;
    let answer: DataPointBuckets | undefined;
    const measured = () => (answer?.Points ?? []).filter((p) => typeof p.AverageLatency === 'number');
    while (measured().length === 0 && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 1000));
      const end = new Date(Date.now() + 60_000).toISOString();
      const start = new Date(Date.now() - 10 * 60_000).toISOString();
      const q = new URLSearchParams({ targetId: String(targetId), startTime: start, endTime: end, periodSeconds: '1', includeJitter: 'false' });
      const r = await fetch(`${url}/api/data/DataPointBuckets?${q}`, { headers: { cookie } });
      expect(r.status).toBe(200);
      answer = (await r.json()) as DataPointBuckets;
    }
    expect(measured().length, JSON.stringify(answer).slice(0, 500)).toBeGreaterThan(0);
    expect(answer!.MostRecentDatapoint).not.toBeNull();
  });

  it('keeps its data in the volume across podman stop and start, and stops cleanly on SIGTERM', async () => {
    const admin = await signIn(url, 'admin', rootPassword);
    const created = await fetch(`${url}/api/user?password=kept-pw-${runId}`, {
      method: 'POST',
      headers: { ...json, cookie: admin },
      body: JSON.stringify({ EmailAddress: `persist-${runId}@example.org`, Roles: ['TargetManagement'] }),
    });
    expect(created.status, await created.clone().text()).toBe(200);

    await podman.must(['stop', '-t', '10', name]);
    // Exit code 0 means the server handled SIGTERM itself; a kill after the timeout gives 137.
    const exit = (await podman.must(['inspect', '--format', '{{.State.ExitCode}}', name])).trim();
    expect(exit).toBe('0');

    await podman.must(['start', name]);
    await waitHealthy(name);
    await signIn(url, `persist-${runId}@example.org`, `kept-pw-${runId}`);
    const admin2 = await signIn(url, 'admin', rootPassword);
    const list = await fetch(`${url}/api/user?filter=persist-${runId}`, { headers: { cookie: admin2 } });
    expect(list.status).toBe(200);
    const users = (await list.json()) as { EmailAddress: string }[];
    expect(users.map((u) => u.EmailAddress)).toContain(`persist-${runId}@example.org`);
  }, 120_000);
});

describe("the image driven by testcontainers over podman's Docker API", () => {
  let service: Awaited<ReturnType<Podman['startService']>> | undefined;

  beforeAll(async () => {
    service = await podman.startService();
    // This worker's environment only: testcontainers reads it to find the engine.
    process.env.DOCKER_HOST = service.dockerHost;
    // Ryuk (the reaper container) cannot be pulled here; the test removes what it starts.
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
  }, 60_000);

  it('starts with GenericContainer, becomes ready on /readyz and signs in the root user', async () => {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer(image)
      .withName(`hopwatch-tc-${runId}`)
      .withExposedPorts(8080)
      .withAddedCapabilities('NET_RAW')
      .withEnvironment({ HOPWATCH_ROOT_PASSWORD: rootPassword })
      .withWaitStrategy(Wait.forHttp('/readyz', 8080).forStatusCode(200))
      .withStartupTimeout(120_000)
      .start();
    try {
      const url = `http://${container.getHost()}:${container.getMappedPort(8080)}`;
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      await signIn(url, 'admin', rootPassword);
    } finally {
      // Removes the container and its anonymous /data volume.
      await container.stop({ timeout: 10_000, removeVolumes: true });
    }
    const left = await podman.run(['container', 'exists', `hopwatch-tc-${runId}`]);
    expect(left.code, 'container removed').not.toBe(0);
  }, 180_000);
});
