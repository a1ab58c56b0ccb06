// Issue 43 item 3: ingest takeover. An agent program (simulated engine) links to replica A through
// a small TCP proxy; A commits a few seconds of rounds whose acknowledgements the proxy holds back
// (so the agent sends them again), then A is killed (SIGKILL) and the proxy sends the agent to
// replica B on the same PostgreSQL. B takes the agent's session over from the store: the rounds
// sent again are not stored twice, none is lost, and the trace goes on there. The stored samples
// are counted against what the agent measured, per round second. One target was running before B
// started (B must not trust what it read of it then), one was started after (B must learn it).
// PostgreSQL phase only (HOPWATCH_TEST_STORE=postgres, test/run-all.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { testStore } from '../../server/store/testing/test-store.js';
import { cmd, createAgentWithLink, hubCall, roundsPerSecond, startAgent, waitAgentIdle, waitFor, type AgentProcess } from '../agents/support.js';
import type { DataPointBuckets } from '../../server/contract/data.js';
import { startProxy, type Proxy } from './proxy.js';

const run = testStore() === 'postgres' && postgresInstalled();
const Password = 'takeover-root-pw-1';
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

let pg: ThrowawayPostgres;
let simDir: string;
let proxy: Proxy;
let agent: AgentProcess | undefined;
const replicas: Appliance[] = [];

const serverEnv = () => ({ HOPWATCH_DATABASE_URL: pg.url, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: Password, HOPWATCH_LOG_LEVEL: 'info' });

beforeAll(async () => {
  if (!run) return;
  pg = await startPostgres();
  simDir = mkdtempSync(join(tmpdir(), 'hopwatch-takeover-'));
}, 30_000);
afterAll(async () => {
  mkdirSync('test-results', { recursive: true });
  replicas.forEach((hw, i) => writeFileSync(`test-results/cluster-takeover-${i}.log`, hw.output()));
  if (agent) writeFileSync('test-results/cluster-takeover-agent.log', agent.output());
  await agent?.dispose();
  for (const hw of replicas) await hw.dispose();
  await proxy?.close();
  pg?.stop();
  if (simDir) rmSync(simDir, { recursive: true, force: true });
});

describe.skipIf(!run)('an agent whose replica dies', () => {
  it('reconnects to another replica, which takes its sessions over: every measured round stored once', async () => {
    onTestFailed(() => console.log(`agent output:\n${agent?.output()}`));
    const a = await startAppliance({ env: serverEnv() });
    replicas.push(a);
    proxy = await startProxy(a.port);
    const viaProxy = `http://127.0.0.1:${proxy.port}`;
    const cookie = await signIn(a.url, 'admin', Password);

    const scenario = join(simDir, 'branch.json');
    writeFileSync(scenario, JSON.stringify({ name: 'branch', seed: 43, hops: [{ v4: '10.251.143.1', rttMs: 0.4 }, { v4: '10.251.143.2', rttMs: 0.8 }], target: { v4: '10.251.143.9', rttMs: 1.5 } }));
    const { agent: created, link } = await createAgentWithLink(viaProxy, cookie, 'Branch');
    agent = startAgent(['setup', link.SetupLink], { env: { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenario } });
    await waitFor('the agent online', async () => (await cmd<{ ID: number; IsOnline: boolean }[]>(a.url, cookie, '/cmd/getagentlist')).some((x) => x.ID === created.ID && x.IsOnline));
    const newTarget = async (hw: Appliance) => (await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=10.251.143.9&traceInterval=0.5&agentID=${created.ID}`)).ID;
    const roundsOf = (id: number) => agent!.rounds().filter((r) => r[0] === id);

    // The first target runs before B starts; the second is started on A after.
    const early = await newTarget(a);
    await waitFor('rounds of the first target', async () => roundsOf(early).length >= 4);
    const b = await startAppliance({ env: serverEnv() });
    replicas.push(b);
    const late = await newTarget(a);
    const targets = [early, late];
    await waitFor('rounds of the second target stored', async () => (await hubCall<number>(a.url, cookie, 'GetSampleCountForSession', late)) > 0);

    // A stores what the agent sends, but its acknowledgements do not reach the agent: those
    // batches are sent again after the takeover. Then A dies.
    proxy.holdReplies = true;
    const stored = await hubCall<number>(a.url, cookie, 'GetSampleCountForSession', early);
    await waitFor('A storing rounds the agent has no acknowledgement of', async () => (await hubCall<number>(b.url, cookie, 'GetSampleCountForSession', early)) > stored + 6);
    proxy.upstream = b.port;
    await a.kill();
    proxy.holdReplies = false;

    // The agent reconnects through the proxy to B, which runs both traces on it from now on.
    await waitFor('the spool sent to B', async () => agent!.spooled() === 0, 30_000);
    const after = Object.fromEntries(targets.map((id) => [id, roundsOf(id).length]));
    await waitFor('new rounds of both targets on B', async () => targets.every((id) => roundsOf(id).length >= after[id] + 4), 20_000);
    for (const id of targets) {
      const stop = await fetch(`${b.url}/cmd/stoptrace?ID=${id}`, { headers: { cookie } });
      expect(stop.status).toBeLessThan(300);
    }
    await waitAgentIdle(agent);
    await sleep(500);

    for (const id of targets) {
      const measured = roundsOf(id);
      expect(new Set(measured.map((r) => r[1])).size).toBe(measured.length);
      const count = await hubCall<number>(b.url, cookie, 'GetSampleCountForSession', id);
      expect(count, `samples of target ${id}`).toBe(measured.reduce((sum, r) => sum + r[2], 0));
      // Per round second: the first hop's samples are the rounds measured in it (none doubled, none lost).
      const { start, end, expected } = roundsPerSecond(measured);
      const perSecond = await hubCall<DataPointBuckets>(b.url, cookie, 'DataPointBuckets', `${id}_h_1`, start, end, 1, false);
      expect(new Map(perSecond.Points.filter((p) => p.LatencyCount > 0 || expected.has(p.UnitNumber)).map((p) => [p.UnitNumber, p.LatencyCount])), `rounds per second of target ${id}`).toEqual(expected);
    }
    expect(b.output()).toMatch(/"msg":"agent connected"/);
  }, 90_000);
});
