// compose.cluster.yaml run by podman-compose 1.0.3 (Debian 12's): PostgreSQL 15, Redis 7 and
// HAProxy built from Debian's packages by podman-compose itself (deploy/*/Containerfile), three
// appliance replicas on one image, HAProxy in front. Through HAProxy only: the console is
// served, the root user signs in and the session holds on every replica (it lives in
// PostgreSQL), each replica is ready, the hub works over WebSockets and long polling (sticky
// cookie), and the replicas see the client's address, not HAProxy's nor one the client forged.
//
// The appliance image is the working tree's (test/container/support/images.ts
// treeApplianceImage: built once for the suites that only run it, kept by the tree's hash);
// the three service images are kept by their Containerfile's hash, so a second run builds
// nothing. Needs root (rootful podman) and the CNI dnsname plugin (service names resolve on the
// compose network); Podman.open installs what is missing (test/setup.sh lists it too).
import { createHash, randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, signIn } from '../support/appliance.js';
import { Podman, run } from './support/podman.js';
import { contextHash, debianImage, ensureBaseImages, removeOtherTags, repoRoot, treeApplianceImage } from './support/images.js';
import { containerReport, expectConsoleServed, until as waitUntil } from './support/wait.js';

const runId = randomBytes(4).toString('hex');
const project = `hwcluster${runId}`;
const rootPassword = `root-${randomBytes(8).toString('hex')}`;
const replicas = ['hopwatch-1', 'hopwatch-2', 'hopwatch-3'];
const composeFile = resolve(repoRoot, 'compose.cluster.yaml');
/** The service images compose.cluster.yaml builds from deploy/<name>, with the variable naming each. */
const services = [
  { name: 'postgres', variable: 'HOPWATCH_POSTGRES_IMAGE' },
  { name: 'redis', variable: 'HOPWATCH_REDIS_IMAGE' },
  { name: 'haproxy', variable: 'HOPWATCH_HAPROXY_IMAGE' },
];

let podman: Podman;
let env: NodeJS.ProcessEnv = {};
let url = '';
let cookie = '';
const started = Date.now();

function compose(args: string[], globalArgs: string[] = []) {
  return run('podman-compose', [...globalArgs, '-p', project, '-f', composeFile, ...args], env, 20 * 60_000);
}

const container = (service: string) => `${project}_${service}_1`;

/** The project's containers and their logs, for a failure message. */
const until = <T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 180_000) =>
  waitUntil(what, fn, () => containerReport(podman, (n) => n.startsWith(`${project}_`), 30), timeoutMs);

/** A request through HAProxy pinned to one replica by HAProxy's stickiness cookie. */
function viaReplica(path: string, replica: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('cookie', [`HOPWATCH_REPLICA=${replica}`, headers.get('cookie')].filter(Boolean).join('; '));
  return fetch(url + path, { ...init, headers });
}

beforeAll(async () => {
  podman = await Podman.open();
  await ensureBaseImages(podman);
  const appliance = await treeApplianceImage(podman);
  console.log(`[cluster] appliance image ${appliance.image}: ${appliance.builtSeconds ? `built in ${appliance.builtSeconds.toFixed(0)} s` : 'cached'}`);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const images: Record<string, string> = {};
  for (const s of services) {
    const repository = `localhost/hopwatch-${s.name}`;
    images[s.variable] = `${repository}:${contextHash(join(repoRoot, 'deploy', s.name), new Set())}`;
    await removeOtherTags(podman, repository, images[s.variable]);
  }
  env = {
    ...podman.env,
    ...images,
    // What .env holds for a user (docs/deploy.md "Running a cluster").
    HOPWATCH_IMAGE: appliance.image,
    DEBIAN_IMAGE: debianImage,
    BUILDAH_FORMAT: 'docker',
    HOPWATCH_HTTP_PORT: String(port),
    HOPWATCH_ROOT_PASSWORD: rootPassword,
    HOPWATCH_POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
  };
}, 40 * 60_000);

afterAll(async () => {
  if (!podman) return;
  await compose(['down', '-v']);
  // podman-compose 1.0.3 leaves the project's network behind.
  await podman.run(['network', 'rm', '-f', `${project}_default`]);
  podman.dispose();
  console.log(`[cluster] suite time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}, 5 * 60_000);

describe('compose.cluster.yaml with podman-compose 1.0.3', () => {
  it('comes up: PostgreSQL, Redis and HAProxy built from Debian packages, three replicas, HAProxy answering', async () => {
    const t0 = Date.now();
    // apt inside the builds reaches Debian through the host's network.
    const up = await compose(['up', '-d'], ['--podman-build-args', '--layers=false --network=host']);
    expect(up.code, up.stderr.slice(-4000) + up.stdout.slice(-2000)).toBe(0);
    expect(up.stderr + up.stdout).not.toContain('Traceback');
    for (const s of services) expect(await podman.imageExists(env[s.variable]!), `${s.name} image`).toBe(true);
    const page = await until('HAProxy serving the console', async () => {
      const r = await fetch(`${url}/`);
      return r.status === 200 ? r : undefined;
    });
    console.log(`[cluster] up -> console through HAProxy: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    // The first answer pins the browser to the replica that gave it.
    expect(page.headers.getSetCookie().join(';')).toMatch(/HOPWATCH_REPLICA=hopwatch-[123]/);
    await expectConsoleServed(url, page);
  }, 30 * 60_000);

  it('has every replica ready (/readyz through HAProxy, and its own health check)', async () => {
    for (const replica of replicas) {
      const r = await until(`${replica} ready`, async () => {
        const a = await viaReplica('/readyz', replica);
        return a.status === 200 && a.headers.get('x-hopwatch-replica') === replica ? a : undefined;
      });
      expect(await r.json()).toMatchObject({ Status: 'ready' });
      const health = await until(`${replica}'s health check`, async () => ((await podman.run(['healthcheck', 'run', container(replica)])).code === 0 ? true : undefined));
      expect(health).toBe(true);
    }
    // One root user for the three replicas that started together on one database.
    const created = await Promise.all(replicas.map(async (r) => (await podman.run(['logs', container(r)])).stdout));
    expect(created.join('\n').match(/Root user "admin" created/g) ?? []).toHaveLength(1);
  }, 5 * 60_000);

  it('signs the root user in through HAProxy; the session holds on every replica', async () => {
    // A forged X-Forwarded-For: HAProxy replaces it, so the replica logs the address HAProxy saw.
    const forged = '198.51.100.7';
    const r = await fetch(`${url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
      body: JSON.stringify({ Username: 'admin', Password: rootPassword, RememberMe: false }),
    });
    expect(r.status).toBe(200);
    const signedInOn = r.headers.get('x-hopwatch-replica')!;
    expect(replicas).toContain(signedInOn);
    cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).filter((c) => !c.startsWith('HOPWATCH_REPLICA=')).join('; ');
    for (const replica of replicas) {
      const me = await viaReplica('/cmd/getagentlist', replica, { headers: { cookie } });
      expect(me.status, `${replica}: ${await me.clone().text()}`).toBe(200);
      expect(me.headers.get('x-hopwatch-replica')).toBe(replica);
    }
    const haproxyIp = (await podman.must(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', container('haproxy')])).trim();
    const logged = (await podman.run(['logs', container(signedInOn)])).stdout
      .split('\n')
      .filter((l) => l.includes('"signed in"'))
      .map((l) => JSON.parse(l) as { remoteAddress: string })
      .at(-1);
    expect(logged, 'the replica logs the sign-in').toBeDefined();
    expect(logged!.remoteAddress).toMatch(/^[\d.:a-f]+$/);
    expect(logged!.remoteAddress).not.toBe(forged);
    expect(logged!.remoteAddress).not.toBe(haproxyIp);
    // The helper the other suites use signs in the same way.
    expect(await signIn(url, 'admin', rootPassword)).toContain('=');
  }, 2 * 60_000);

  it('gives each replica a /data volume of its own: the replicas have no volume in common', async () => {
    const mounts = await Promise.all(replicas.map(async (replica) => {
      const json = await podman.must(['inspect', '--format', '{{json .Mounts}}', container(replica)]);
      return (JSON.parse(json) as { Type: string; Name?: string; Source: string; Destination: string }[]).map((m) => ({ ...m, replica }));
    }));
    for (const [i, own] of mounts.entries()) {
      // One named volume of the project, at /data: the replica's scratch space.
      expect(own.map((m) => [m.Type, m.Name, m.Destination]), replicas[i]).toEqual([['volume', `${project}_${replicas[i]}-data`, '/data']]);
    }
    const all = mounts.flat();
    for (const m of all) {
      const sharers = all.filter((o) => o.Source === m.Source || (m.Name && o.Name === m.Name)).map((o) => o.replica);
      expect(sharers, `${m.Name ?? m.Source} (${m.Destination})`).toEqual([m.replica]);
    }
  });

  it('serves Auto Setup from any replica: one setup key for all, the agent bundle packed by each into its own /data', async () => {
    const asAdmin = (path: string, replica: string, init: RequestInit = {}) => viaReplica(path, replica, { ...init, headers: { cookie, ...init.headers } });
    const made = await asAdmin(`/cmd/createAgent?name=${encodeURIComponent('Cluster agent')}`, 'hopwatch-1');
    expect(made.status, await made.clone().text()).toBe(200);
    const agent = (await made.json()) as { ID: number };
    // The setup key is sealed by the replica that made it and opened by the others: the seal's
    // key is a row of server_keys, not a file (no replica sees another's /data).
    const links: string[] = [];
    for (const replica of replicas) {
      const r = await asAdmin(`/cmd/download-link/${agent.ID}`, replica);
      expect(r.status, `${replica}: ${await r.clone().text()}`).toBe(200);
      expect(r.headers.get('x-hopwatch-replica')).toBe(replica);
      links.push(((await r.json()) as { SetupLink: string }).SetupLink);
    }
    expect(new Set(links).size, links.join('\n')).toBe(1);
    expect(links[0]).toMatch(/^hopwatch:\/\/setup\?mode=sentinel&id=\d+&key=/);

    // The bundle the link's installer fetches, from every replica at once: each packs it into
    // its own cache (/data/agent-bundles), and all three serve the same bytes.
    const bundle = '/downloads/hopwatch-agent-linux-x64.tar.gz';
    const got = await Promise.all(replicas.map(async (replica) => {
      const r = await viaReplica(bundle, replica);
      expect(r.status, `${replica}: ${r.status === 200 ? '' : await r.clone().text()}`).toBe(200);
      expect(r.headers.get('x-hopwatch-replica')).toBe(replica);
      const body = Buffer.from(await r.arrayBuffer());
      expect([...body.subarray(0, 2)], 'gzip magic').toEqual([0x1f, 0x8b]);
      return createHash('sha256').update(body).digest('hex');
    }));
    expect(new Set(got).size).toBe(1);
    for (const replica of replicas) {
      const cached = await podman.must(['exec', container(replica), 'find', '/data/agent-bundles', '-name', '*.tar.gz']);
      expect(cached.trim(), replica).toMatch(/^\/data\/agent-bundles\/[^/]+\/hopwatch-agent-linux-x64\.tar\.gz$/);
    }

    // The agent program's first contact, on a replica that neither made nor showed the key first.
    const key = new URL(links[0]!.replace('hopwatch://', 'http://x/')).searchParams.get('key')!;
    const enrol = await viaReplica('/api/agent/enrol', 'hopwatch-3', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ AgentId: agent.ID, Key: key }),
    });
    expect(enrol.status, await enrol.clone().text()).toBe(200);
    expect(((await enrol.json()) as { Credential: string }).Credential.length).toBeGreaterThan(20);
  }, 5 * 60_000);

  it('keeps in each replica\'s /data only what it may lose: temporary files and its bundle cache, no key file', async () => {
    for (const replica of replicas) {
      const listed = await podman.must(['exec', container(replica), 'find', '/data', '-mindepth', '1', '-maxdepth', '1', '-printf', '%f\\n']);
      const entries = listed.split('\n').filter(Boolean).sort();
      console.log(`[cluster] ${replica} /data: ${entries.join(' ')}`);
      // tmp: per-request data files (server/datafiles); agent-bundles: the packed bundles;
      // alert-exports: what export actions this replica ran wrote (none here).
      for (const e of entries) expect(['agent-bundles', 'alert-exports', 'tmp'], `${replica}: /data/${e}`).toContain(e);
    }
  });

  it.each([
    ['WebSockets', HttpTransportType.WebSockets],
    ['long polling', HttpTransportType.LongPolling],
  ])('connects to the hub through HAProxy over %s, each replica in turn', async (_name, transport) => {
    for (const replica of replicas) {
      const c = new HubConnectionBuilder()
        .withUrl(`${url}/mainHub`, { transport, headers: { cookie: `${cookie}; HOPWATCH_REPLICA=${replica}` } })
        .configureLogging(LogLevel.None)
        .build();
      try {
        await c.start();
        expect(c.state).toBe(HubConnectionState.Connected);
        const agents = (await c.invoke('GetAgents')) as { ID: number }[];
        expect(Array.isArray(agents)).toBe(true);
        // A second call on the same connection: a long-polling connection lives on one replica.
        expect(await c.invoke('GetIsMagneto')).toBe(true);
      } finally {
        await c.stop();
      }
    }
  }, 2 * 60_000);

  it('sends a stopped replica\'s browsers to another one (health checks on /readyz, redispatch)', async () => {
    expect((await podman.run(['stop', '-t', '20', container('hopwatch-3')])).code).toBe(0);
    const answered = await until('HAProxy answering for hopwatch-3 from another replica', async () => {
      const r = await viaReplica('/cmd/getagentlist', 'hopwatch-3', { headers: { cookie } });
      return r.status === 200 ? r : undefined;
    }, 60_000);
    expect(['hopwatch-1', 'hopwatch-2']).toContain(answered.headers.get('x-hopwatch-replica'));
    // Back: HAProxy sees it ready again and sends its cookie's requests to it.
    expect((await podman.run(['start', container('hopwatch-3')])).code).toBe(0);
    await until('hopwatch-3 back behind HAProxy', async () => {
      const r = await viaReplica('/readyz', 'hopwatch-3');
      return r.status === 200 && r.headers.get('x-hopwatch-replica') === 'hopwatch-3' ? true : undefined;
    });
  }, 3 * 60_000);
});
