// Issue 43 "Proof": the whole cluster on real components. Debian's postgresql-15, redis-server
// and haproxy on their own ports and temp dirs; three replicas of dist/server/main.js (the real
// engine) behind HAProxy, whose config is deploy/haproxy/haproxy.cfg with only the addresses
// changed (same health checks on /readyz, sticky cookie, WebSocket tunnel, redispatch) and one
// extra frontend that stamps the sticky cookie of a follower on agent 1's requests; two real
// agents (the agent program) in network namespaces tracing their own small networks, joined by
// Auto Setup links through HAProxy; two consoles in Chromium through HAProxy pinned by the cookie
// to different replicas, each showing a live target (console 1 by long polling: its browser has
// no WebSocket); a LiveShare visitor; two webhook alerts to a receiver on loopback.
// Then: SIGKILL the follower that holds agent 1's link. The agent reconnects through HAProxy
// (wait limit 10 s); console 1's long polling is relocated by HAProxy and hears HostUpdated from
// another replica (wait limit 5 s), console 2 keeps hearing it; the visitor keeps its view;
// leadership stays; agent 1's route changes, and the alert on it fires once from the replica
// that took the target over; the replica restarts, rejoins and takes load (a console pinned to
// it hears agent 1). Then Redis is stopped for HOPWATCH_TEST_REDIS_OUTAGE_SECONDS (the issue's
// 30 s by default): every replica stays ready and says so in /readyz detail, and recovers
// without a restart. At the end every round each agent measured (its round log) is stored
// exactly once, each alert fired once and retention ran once. Root only (namespaces, raw
// sockets), PostgreSQL phase (test/run-all.mjs). The leader's SIGKILL: test/cluster/leadership.test.ts
// and bench:cluster's handover.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { freePort, signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { redisInstalled, startRedis, type ThrowawayRedis } from '../support/redis.js';
import { signInWithForm } from '../support/browser.js';
import { testStore } from '../../server/store/testing/test-store.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import { LoopbackWebhooks, startHttpSink, type HttpSink } from '../alerts/support.js';
import { cmd, createAgentWithLink, hubCall, roundsPerSecond, startAgent, waitAgentIdle, waitFor, type AgentProcess } from '../agents/support.js';
import type { DataPointBuckets } from '../../server/contract/data.js';

const HaproxyBin = '/usr/sbin/haproxy';
const ChromiumBin = '/usr/bin/chromium';
const run = asRoot && testStore() === 'postgres' && postgresInstalled() && redisInstalled() && existsSync(HaproxyBin) && existsSync(ChromiumBin);
if (!run) console.log('cluster-proof: skipped (needs root, HOPWATCH_TEST_STORE=postgres, postgresql-15, redis-server, haproxy and chromium: test/setup.sh)');
const Password = 'cluster-proof-root-pw';
/** How long Redis stays away: the 30 s (HOPWATCH_TEST_REDIS_OUTAGE_SECONDS overrides it). */
const redisOutageMs = Number(process.env.HOPWATCH_TEST_REDIS_OUTAGE_SECONDS ?? 30) * 1000;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const always = { Kind: 'latency', Hop: 0, Samples: 2, ThresholdMs: 0 };

/** An extra frontend for one client: its requests carry HOPWATCH_REPLICA=`server`, as a sticky browser's would. */
interface Pin {
  port: number;
  server: string;
}

/**
 * deploy/haproxy/haproxy.cfg with the replicas at 127.0.0.1 and the frontend on `port`: the rules
 * stay the file's. `pin` adds a frontend to the same backend that stamps HAProxy's own sticky
 * cookie on each request (the agent keeps no cookies): the backend's rules then send it to that
 * replica while it is up and elsewhere (option redispatch, health checks) once it is not.
 */
function haproxyConfig(port: number, replicaPorts: number[], pin: Pin): string {
  const source = readFileSync(resolve(import.meta.dirname, '../../deploy/haproxy/haproxy.cfg'), 'utf8');
  const edits: [RegExp, string | ((...m: string[]) => string)][] = [
    // No DNS here: the replicas have fixed loopback addresses.
    [/^resolvers compose\n(?:  .*\n)+/m, ''],
    [/ resolvers compose init-addr last,libc,none/, ''],
    [/^  bind :8080$/m, `  bind 0.0.0.0:${port}`],
    [/^  server (hopwatch-(\d)) hopwatch-\d:8080/gm, (_m, name, n) => `  server ${name} 127.0.0.1:${replicaPorts[Number(n) - 1]}`],
    // The status page is not needed (and would take a fixed port).
    [/^# HAProxy's own status page[\s\S]*$/m, ''],
  ];
  let cfg = source;
  for (const [re, to] of edits) {
    const next = cfg.replace(re, to as string);
    if (next === cfg) throw new Error(`deploy/haproxy/haproxy.cfg changed: ${re} no longer matches`);
    cfg = next;
  }
  const main = /^frontend hopwatch\n((?:  .*\n)+)/m.exec(cfg);
  if (!main) throw new Error('deploy/haproxy/haproxy.cfg changed: no frontend hopwatch');
  const pinned = main[1].replace(/^  bind .*$/m, `  bind 0.0.0.0:${pin.port}`).replace(/^(  default_backend )/m, `  http-request add-header Cookie HOPWATCH_REPLICA=${pin.server}\n$1`);
  return `${cfg.trimEnd()}\n\nfrontend pinned\n${pinned}`;
}

interface Haproxy {
  port: number;
  /** The `pinned` frontend's port. */
  pinPort: number;
  output(): string;
  stop(): Promise<void>;
}

async function startHaproxy(dir: string, replicaPorts: number[], pinTo: string): Promise<Haproxy> {
  const port = await freePort();
  const pinPort = await freePort();
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, replicaPorts, { port: pinPort, server: pinTo }));
  execOk(HaproxyBin, ['-c', '-f', file]);
  const child: ChildProcess = spawn(HaproxyBin, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  await waitFor('HAProxy answering', async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 20_000);
  return {
    port,
    pinPort,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function execOk(bin: string, args: string[]): void {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

/** JSON log lines of a process output with this message. */
const lines = (out: string, msg: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; agentId?: number })
    .filter((l) => l.msg.startsWith(msg));

/**
 * A console page that records the HostUpdated and SummaryHostUpdated frames of each hub
 * connection it opens: a WebSocket's frames, or a long-polling connection's polls (each a
 * GET /mainHub?id=...), with the replica that answered each poll (X-Hopwatch-Replica).
 */
interface Watched {
  page: Page;
  sockets: { transport: 'WebSockets' | 'LongPolling'; openedAt: number; hostUpdated: { at: number; payload: string; replica?: string }[]; last: string[] }[];
}
const hostEvent = /"(?:Summary)?HostUpdated"/;
function watch(page: Page): Watched {
  const w: Watched = { page, sockets: [] };
  page.on('websocket', (ws) => {
    if (!ws.url().includes('/mainHub')) return;
    const s = { transport: 'WebSockets' as const, openedAt: Date.now(), hostUpdated: [] as { at: number; payload: string }[], last: [] as string[] };
    w.sockets.push(s);
    ws.on('framereceived', (f) => {
      const payload = typeof f.payload === 'string' ? f.payload : f.payload.toString();
      s.last = [...s.last.slice(-5), payload.slice(0, 300)];
      if (hostEvent.test(payload)) s.hostUpdated.push({ at: Date.now(), payload });
    });
  });
  const polls = new Map<string, Watched['sockets'][number]>();
  page.on('request', (r) => {
    const id = new URL(r.url()).searchParams.get('id');
    if (r.method() !== 'GET' || !new URL(r.url()).pathname.endsWith('/mainHub') || !id || polls.has(id)) return;
    const s = { transport: 'LongPolling' as const, openedAt: Date.now(), hostUpdated: [], last: [] };
    polls.set(id, s);
    w.sockets.push(s);
  });
  page.on('response', async (r) => {
    const s = polls.get(new URL(r.url()).searchParams.get('id') ?? '');
    if (!s || r.request().method() !== 'GET') return;
    const replica = r.headers()['x-hopwatch-replica'];
    const body = await r.text().catch(() => '');
    for (const payload of body.split('\x1e').filter(Boolean)) {
      s.last = [...s.last.slice(-5), `${r.status()} ${replica}: ${payload.slice(0, 300)}`];
      if (hostEvent.test(payload)) s.hostUpdated.push({ at: Date.now(), payload, replica });
    }
    if (!body) s.last = [...s.last.slice(-5), `${r.status()} ${replica}: (empty)`];
  });
  return w;
}
/** Whether the page heard HostUpdated of `target` (its ID the first argument) after `since`. */
const heard = (w: Watched, target: number, since: number) =>
  w.sockets.some((s) => s.hostUpdated.some((h) => h.at > since && h.payload.includes(`"HostUpdated","arguments":["${target}"`)));
/** Whether a summary page heard SummaryHostUpdated of `target` in `summary` after `since`. */
const heardInSummary = (w: Watched, summary: string, target: number, since: number) =>
  w.sockets.some((s) => s.hostUpdated.some((h) => h.at > since && h.payload.includes(`"SummaryHostUpdated","arguments":["${summary}","${target}"`)));

let pg: ThrowawayPostgres | undefined;
let redis: ThrowawayRedis | undefined;
let lb: Haproxy | undefined;
let hook: HttpSink | undefined;
let browser: Browser | undefined;
let dir: string | undefined;
const topologies: Topology[] = [];
const agents: AgentProcess[] = [];
/** Replica i (hopwatch-{i+1}); a restarted one replaces its entry; every output is kept. */
const replicas: Appliance[] = [];
const pastOutputs: string[] = [];
let visitorFrames = () => '(no visitor yet)';
let consoleFrames = () => '(no consoles yet)';
const allOutput = () => [...pastOutputs, ...replicas.map((r) => r.output())].join('\n');

beforeAll(async () => {
  if (!run) return;
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-cluster-proof-'));
  pg = await startPostgres();
  redis = await startRedis();
  hook = await startHttpSink();
}, 60_000);

afterAll(async () => {
  if (!run) return;
  mkdirSync('test-results', { recursive: true });
  replicas.forEach((r, i) => writeFileSync(`test-results/cluster-proof-replica-${i + 1}.log`, r.output()));
  pastOutputs.forEach((o, i) => writeFileSync(`test-results/cluster-proof-killed-${i + 1}.log`, o)); // before its restart
  agents.forEach((a, i) => writeFileSync(`test-results/cluster-proof-agent-${i + 1}.log`, a.output()));
  if (lb) writeFileSync('test-results/cluster-proof-haproxy.log', lb.output());
  const steps: (() => unknown)[] = [
    () => browser?.close(),
    ...agents.map((a) => () => a.dispose()),
    ...replicas.map((r) => () => r.dispose()),
    () => lb?.stop(),
    () => hook?.close(),
    () => redis?.stop(),
    () => pg?.stop(),
    ...topologies.map((t) => () => t.destroy()),
    () => dir && rmSync(dir, { recursive: true, force: true }),
  ];
  for (const step of steps) {
    try {
      await step();
    } catch (err) {
      console.log(`cluster-proof cleanup: ${String(err)}`);
    }
  }
}, 60_000);

describe.skipIf(!run)('the cluster proof: three replicas behind HAProxy, real agents and consoles', () => {
  it('loses nobody data or a page when a replica dies, and rides out a Redis outage', async () => {
    onTestFailed(() => console.log(`frames heard by the visitor:\n${visitorFrames()}`));
    onTestFailed(() => console.log(`frames heard by the consoles:\n${consoleFrames()}`));
    onTestFailed(() => console.log(`agent outputs:\n${agents.map((a) => a.output()).join('\n---\n')}`));
    const env = {
      ...LoopbackWebhooks,
      HOPWATCH_DATABASE_URL: pg!.url,
      HOPWATCH_REDIS_URL: redis!.url,
      HOPWATCH_ROOT_PASSWORD: Password,
      HOPWATCH_LOG_LEVEL: 'info',
      HOPWATCH_TRUSTED_PROXIES: 'loopback',
    };
    // The first replica migrates the empty database and takes the once-only lease; then the others.
    replicas.push(await startAppliance({ env }));
    replicas.push(...(await Promise.all([startAppliance({ env }), startAppliance({ env })])));
    const name = (i: number) => `hopwatch-${i + 1}`;
    const readiness = async (r: Appliance) => (await (await fetch(`${r.url}/readyz`)).json()) as { Status: string; Detail: { Redis?: string; Leadership: { Leader: boolean } } };
    // The replica that dies is a follower (the leader's SIGKILL is leadership.test.ts's and
    // bench:cluster's): agent 1 links through HAProxy's `pinned` frontend, sticky to it.
    const leader = await waitFor('a leader', async () => {
      const i = (await Promise.all(replicas.map(readiness))).findIndex((r) => r.Detail.Leadership.Leader);
      return i >= 0 ? i : undefined;
    }, 20_000);
    const k = (leader + 1) % 3;
    const other = (k + 1) % 3;
    lb = await startHaproxy(dir!, replicas.map((r) => r.port), name(k));

    // Two branches, each a namespace chain; the agent runs in router 1's namespace and reaches
    // HAProxy on the host end of its link (the address its Auto Setup link names).
    const ids = [243, 244];
    // Agent 1's branch has a second router beside router 2: its route changes after the kill.
    for (const id of ids) topologies.push(buildTopology({ id, routers: 2, ...(id === ids[0] ? { alternateRouter: 2 } : {}) }));
    const lbFor = (t: Topology) => `http://${t.hostAddress.v4}:${t === topologies[0] ? lb!.pinPort : lb!.port}`;
    const lbLocal = `http://127.0.0.1:${lb.port}`;
    const cookie = await signIn(lbLocal, 'admin', Password);
    const created: { agentId: number; target: number }[] = [];
    for (const [i, topo] of topologies.entries()) {
      const { agent, link } = await createAgentWithLink(lbFor(topo), cookie, `Branch ${i + 1}`);
      expect(link.SetupLink).toContain(encodeURIComponent(lbFor(topo)));
      agents.push(startAgent(['setup', link.SetupLink], { netns: `hw${ids[i]}-r1` }));
      await waitFor(`agent ${i + 1} online`, async () => (await cmd<{ ID: number; IsOnline: boolean }[]>(lbLocal, cookie, '/cmd/getagentlist')).some((x) => x.ID === agent.ID && x.IsOnline), 30_000);
      const target = (await cmd<{ ID: number }>(lbLocal, cookie, `/cmd/newtarget?target=${topo.target.v4}&traceInterval=0.5&agentID=${agent.ID}`)).ID;
      created.push({ agentId: agent.ID, target });
    }
    const roundsOf = (i: number) => agents[i].rounds().filter((r) => r[0] === created[i].target);
    await waitFor('rounds of both agents', async () => roundsOf(0).length >= 3 && roundsOf(1).length >= 3, 30_000);

    /** The replica whose log says it took this agent's link last. */
    const linkHolder = (agentId: number) => {
      const counts = replicas.map((r) => lines(r.output(), 'agent connected').filter((l) => l.agentId === agentId).length);
      return counts.findIndex((n) => n > 0);
    };
    expect(linkHolder(created[0].agentId), `agent 1 linked to ${name(k)}, a follower`).toBe(k);

    // Two webhook alerts on agent 1's target: "Branch 1" holds from the start (it fires before
    // the kill and must not fire again when another replica takes the target over); "Branch 1
    // route" becomes true only after the kill, when the route changes (the replica that took
    // the target over notices it and the leader delivers it once).
    const newAlert = async (Name: string, Condition: object, path: string) => {
      const alert = await fetch(`${lbLocal}/api/alerts`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ Name, Condition, Events: ['start'], Targets: [created[0].target], Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook!.url}${path}`, Format: 'custom', Template: '{"text": "$alert $event on $host"}' } }] }),
      });
      expect(alert.status, await alert.clone().text()).toBe(200);
    };
    await newAlert('Branch 1', always, '/branch1');
    await newAlert('Branch 1 route', { Kind: 'routeChanged', Hop: 0, Samples: 1 }, '/branch1-route');
    const webhooks = (path = '/branch1') => hook!.requests.filter((r) => r.url === path);
    await waitFor('the alert webhook', async () => webhooks().length > 0, 30_000);

    // A summary of both targets shared by LiveShare.
    const summary = (await cmd<{ UniqueID: string }>(lbLocal, cookie, '/cmd/createsummary?name=Branches')).UniqueID;
    for (const c of created) await cmd(lbLocal, cookie, `/cmd/addhost?host=${c.target}&ID=${summary}`);
    const share = await fetch(`${lbLocal}/api/liveshare`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ SummaryID: `SUM-${summary}` }) });
    expect(share.status).toBe(200);
    const link = (await share.json()) as { ShareId: string; SecurePW: string };

    // Consoles and the visitor in Chromium, pinned by HAProxy's cookie: console 1 and the
    // visitor to the replica that will die, console 2 to another. Both consoles show agent 1's
    // target (its ingest moves with the failover); the visitor's summary shows both targets.
    // Console 1's browser has no WebSocket (as behind a proxy that blocks them): its hub
    // connection falls back to long polling, each poll a request that HAProxy routes by the
    // cookie, so the kill proves long polling's relocation too. The others use WebSockets.
    browser = await chromium.launch({ executablePath: ChromiumBin, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const pinned = async (replica: number, transport: 'WebSockets' | 'LongPolling' = 'WebSockets') => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies([{ name: 'HOPWATCH_REPLICA', value: name(replica), url: lbLocal }]);
      if (transport === 'LongPolling') await context.addInitScript(() => Object.defineProperty(window, 'WebSocket', { value: undefined }));
      const page = await context.newPage();
      return watch(page);
    };
    const consoles = [await pinned(k, 'LongPolling'), await pinned(other)];
    consoleFrames = () => consoles.map((c, i) => c.sockets.map((s, j) => `console ${i + 1} ${s.transport} ${j}: ${s.last.join(' | ')}`).join('\n')).join('\n');
    for (const [i, c] of consoles.entries()) {
      await signInWithForm(c.page, lbLocal, 'admin', Password);
      await c.page.goto(`${lbLocal}/targets/${created[0].target}`);
    }
    const visitor = await pinned(k);
    visitorFrames = () => visitor.sockets.map((s, i) => `socket ${i}: ${s.last.join(' | ')}`).join('\n');
    await visitor.page.goto(`${lbLocal}/LiveShare/${link.ShareId}/${link.SecurePW}`);
    const start = Date.now();
    for (const [i, c] of consoles.entries()) await waitFor(`console ${i + 1} hearing its target`, async () => heard(c, created[0].target, start), 20_000);
    // What each console shows: agent 1's path (router 2 of its branch, then the target) in the
    // grid's cells (the grid draws on a canvas; its accessible cells carry the text).
    const showsPath = async (p: Page, hop = topologies[0].hop(2).v4) => {
      for (const address of [hop, topologies[0].target.v4]) await p.locator('[role="gridcell"]').filter({ hasText: new RegExp(`^${address.replace(/\./g, '\\.')}$`) }).first().waitFor({ state: 'attached', timeout: 15_000 });
    };
    for (const c of consoles) await showsPath(c.page);
    await waitFor('the visitor hearing the shared targets', async () => created.every((c) => heardInSummary(visitor, summary, c.target, start)), 20_000);
    const stamp = async (p: Page) => (await p.context().cookies(lbLocal)).find((c) => c.name === 'HOPWATCH_REPLICA')?.value;
    expect(await stamp(consoles[0].page)).toBe(name(k));
    expect(await stamp(consoles[1].page)).toBe(name(other));
    // (A page opens a hub connection per load: the sign-in page's, then the target page's.)
    expect(new Set(consoles[0].sockets.map((c) => c.transport))).toEqual(new Set(['LongPolling']));
    expect(new Set(consoles[0].sockets.flatMap((c) => c.hostUpdated.map((h) => h.replica)))).toEqual(new Set([name(k)]));
    expect(new Set(consoles[1].sockets.map((c) => c.transport))).toEqual(new Set(['WebSockets']));

    // Retention ran once, on the leader; the route alert has not fired (the route is the same).
    expect(lines(allOutput(), 'retention: expired')).toHaveLength(1);
    expect(webhooks('/branch1-route')).toHaveLength(0);

    // ---- SIGKILL the follower that holds agent 1's link.
    const socketsBefore = consoles.map((c) => c.sockets.length);
    const visitorSocketsBefore = visitor.sockets.length;
    const outputs = replicas.map((r) => r.output().length);
    await replicas[k].kill();
    const killedAt = Date.now();
    const reconnected = await waitFor(
      'agent 1 linked to another replica',
      async () => {
        const i = replicas.findIndex((r, j) => j !== k && lines(r.output().slice(outputs[j]), 'agent connected').some((l) => l.agentId === created[0].agentId));
        return i >= 0 ? { replica: i, ms: Date.now() - killedAt } : undefined;
      },
      10_000,
    );
    console.log(`cluster-proof: SIGKILL of ${name(k)} (a follower; ${name(leader)} leads); agent 1 relinked through HAProxy to ${name(reconnected.replica)} ${reconnected.ms} ms after`);
    // Console 1 (long polling): its poll on the dead replica fails, it negotiates again, and
    // HAProxy (the cookie's server down or refusing: option redispatch) sends it to another
    // replica, which answers its polls with agent 1's HostUpdated again.
    await waitFor('console 1 on a new hub connection', async () => consoles[0].sockets.length > socketsBefore[0], 5_000);
    const relocated = await waitFor(
      'console 1 hearing HostUpdated from another replica',
      async () => consoles[0].sockets.flatMap((c) => c.hostUpdated).find((h) => h.at > killedAt && h.replica !== name(k) && h.payload.includes(`"HostUpdated","arguments":["${created[0].target}"`)),
      5_000,
    );
    expect(consoles[0].sockets.map((c) => c.transport)).toEqual(consoles[0].sockets.map(() => 'LongPolling'));
    console.log(`cluster-proof: console 1 (long polling) on a new hub connection ${consoles[0].sockets[socketsBefore[0]].openedAt - killedAt} ms after SIGKILL, hearing HostUpdated from ${relocated.replica} ${relocated.at - killedAt} ms after`);
    await waitFor('console 2 hearing HostUpdated after the kill', async () => heard(consoles[1], created[0].target, killedAt), 20_000);
    for (const c of consoles) await showsPath(c.page);
    await waitFor('the visitor on a new hub connection', async () => visitor.sockets.length > visitorSocketsBefore, 5_000);
    await waitFor('the visitor hearing both targets after the kill', async () => created.every((c) => heardInSummary(visitor, summary, c.target, killedAt)), 20_000);
    // The visitor's page still shows the shared summary (it was not sent to a login page).
    expect(new URL(visitor.page.url()).pathname).toBe(`/LiveShare/${link.ShareId}/${link.SecurePW}`);
    // A follower's death leaves leadership where it was (retention does not run again: checked at the end).
    expect((await readiness(replicas[leader])).Detail.Leadership.Leader).toBe(true);

    // ---- Agent 1's route changes after the kill: the replica that took its target over sees
    // it and "Branch 1 route" fires (exactly once: checked at the end); both consoles show the new path.
    topologies[0].changeRoute();
    const routeChangedAt = Date.now();
    await waitFor('the route alert webhook', async () => webhooks('/branch1-route').length > 0, 30_000);
    console.log(`cluster-proof: route alert delivered ${Date.now() - routeChangedAt} ms after the route changed`);
    for (const c of consoles) await showsPath(c.page, topologies[0].alternateHop().v4);

    // ---- Restart it: it rejoins (ready behind HAProxy) and takes load: new requests reach
    // it, and a console pinned to it hears agent 1's target, which another replica ingests.
    pastOutputs.push(replicas[k].output());
    replicas[k] = await replicas[k].restart();
    await waitFor(`HAProxy sending new requests to ${name(k)}`, async () => (await fetch(`${lbLocal}/readyz`)).headers.get('x-hopwatch-replica') === name(k), 20_000);
    const pinnedCookie = `${cookie.split('; ').filter((c) => !c.startsWith('HOPWATCH_REPLICA=')).join('; ')}; HOPWATCH_REPLICA=${name(k)}`;
    const viaRestarted = await fetch(`${lbLocal}/cmd/getagentlist`, { headers: { cookie: pinnedCookie } });
    expect(viaRestarted.headers.get('x-hopwatch-replica')).toBe(name(k));
    expect(((await viaRestarted.json()) as { ID: number; IsOnline: boolean }[]).filter((a) => created.some((c) => c.agentId === a.ID)).map((a) => a.IsOnline)).toEqual([true, true]);
    const negotiated = await fetch(`${lbLocal}/mainHub/negotiate?negotiateVersion=1`, { method: 'POST', headers: { cookie: pinnedCookie } });
    expect(negotiated.headers.get('x-hopwatch-replica')).toBe(name(k));
    const onRestarted = new HubConnectionBuilder().withUrl(`${lbLocal}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie: pinnedCookie } }).configureLogging(LogLevel.None).build();
    const restartedHeard: number[] = [];
    onRestarted.on('HostUpdated', (id: string) => id === String(created[0].target) && restartedHeard.push(Date.now()));
    try {
      await onRestarted.start();
      await onRestarted.invoke('RegisterForNewSamples', created[0].target);
      await waitFor(`a console on the restarted ${name(k)} hearing agent 1's target`, async () => restartedHeard.length > 0, 10_000);
    } finally {
      await onRestarted.stop();
    }

    // ---- Redis away: every replica stays ready, says so, serves its own connections (a console
    // connected to the replica that ingests agent 1 goes on hearing it) and recovers without a restart.
    const ingesting = replicas[reconnected.replica];
    const own = new HubConnectionBuilder().withUrl(`${ingesting.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } }).configureLogging(LogLevel.None).build();
    const ownHeard: number[] = [];
    own.on('HostUpdated', (id: string) => id === String(created[0].target) && ownHeard.push(Date.now()));
    await own.start();
    await own.invoke('RegisterForNewSamples', created[0].target);
    const beforeOutage = replicas.map((r) => r.output().length);
    await redis!.pause();
    const outageStart = Date.now();
    try {
      for (const r of replicas) await waitFor('/readyz detail naming Redis', async () => (await readiness(r)).Detail.Redis !== undefined, 15_000);
      for (const r of replicas) {
        const ready = await fetch(`${r.url}/readyz`);
        expect(ready.status).toBe(200);
        expect(((await ready.json()) as { Detail: { Redis: string } }).Detail.Redis).toMatch(/this replica serves only its own connections/);
      }
      const outageRounds = roundsOf(0).length;
      const detected = Date.now();
      await waitFor('the ingesting replica serving its own console during the outage', async () => ownHeard.some((t) => t > detected), 10_000);
      await sleep(Math.max(0, redisOutageMs - (Date.now() - outageStart)));
      expect(roundsOf(0).length, 'agent 1 measuring during the outage').toBeGreaterThan(outageRounds);
    } finally {
      await redis!.resume();
      await own.stop();
    }
    const back = Date.now();
    console.log(`cluster-proof: Redis away for ${back - outageStart} ms`);
    for (const r of replicas) await waitFor('Redis back in /readyz', async () => (await readiness(r)).Detail.Redis === undefined, 20_000);
    replicas.forEach((r, i) => expect(r.output().slice(beforeOutage[i]), `${name(i)} logs the outage`).toMatch(/Redis is back:/));
    for (const [i, c] of consoles.entries()) await waitFor(`console ${i + 1} hearing HostUpdated after Redis returned`, async () => heard(c, created[0].target, back), 20_000);

    // ---- Every round each agent measured stored exactly once.
    for (const c of created) expect((await fetch(`${lbLocal}/cmd/stoptrace?ID=${c.target}`, { headers: { cookie } })).status).toBeLessThan(300);
    for (const a of agents) await waitAgentIdle(a);
    await sleep(500);
    for (const [i, c] of created.entries()) {
      const measured = roundsOf(i);
      // Each round's time its own (the server takes a second round in a millisecond as the first again).
      expect(measured.filter((r, j) => measured.findIndex((q) => q[1] === r[1]) !== j), `rounds of agent ${i + 1} sharing a time`).toEqual([]);
      const count = await hubCall<number>(lbLocal, cookie, 'GetSampleCountForSession', c.target);
      expect(count, `samples of agent ${i + 1}`).toBe(measured.reduce((sum, r) => sum + r[2], 0));
      const { start: from, end, expected } = roundsPerSecond(measured);
      const perSecond = await hubCall<DataPointBuckets>(lbLocal, cookie, 'DataPointBuckets', `${c.target}_h_1`, from, end, 1, false);
      expect(new Map(perSecond.Points.filter((p) => p.LatencyCount > 0 || expected.has(p.UnitNumber)).map((p) => [p.UnitNumber, p.LatencyCount])), `rounds per second of agent ${i + 1}`).toEqual(expected);
      console.log(`cluster-proof: agent ${i + 1}: ${measured.length} rounds, ${count} samples, each stored once`);
    }
    // Each alert fired exactly once: "Branch 1" before the kill and not again when its target
    // moved or Redis went, "Branch 1 route" after the kill; retention ran once (one leader throughout).
    expect(webhooks()).toHaveLength(1);
    expect(webhooks('/branch1-route')).toHaveLength(1);
    expect(lines(allOutput(), 'retention: expired')).toHaveLength(1);
  }, 180_000);
});
