// Issue 43 item 3, the harder half: the agent's link leaves a replica that is still alive and
// still committing a batch of it. Replica A's commits are held (the test locks sample_tallies in
// PostgreSQL), the agent is cut off and sent to B through the proxy; B must not read the
// session's newest stored round before A's held batch commits, or the rounds the agent sends
// again would be stored twice. B waits for A to give the agent's sessions up (an advisory lock
// A holds while it ingests them). Counted against what the agent measured, per round second.
// PostgreSQL phase only (HOPWATCH_TEST_STORE=postgres, test/run-all.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { testStore } from '../../server/store/testing/test-store.js';
import { cmd, createAgentWithLink, hubCall, roundsPerSecond, startAgent, waitAgentIdle, waitFor, type AgentProcess } from '../agents/support.js';
import type { DataPointBuckets } from '../../server/contract/data.js';
import { startProxy, type Proxy } from './proxy.js';

const run = testStore() === 'postgres' && postgresInstalled();
const Password = 'fence-root-pw-1';
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

let db: ThrowawayPostgres;
let simDir: string;
let proxy: Proxy;
let agent: AgentProcess | undefined;
const replicas: Appliance[] = [];

beforeAll(async () => {
  if (!run) return;
  db = await startPostgres();
  simDir = mkdtempSync(join(tmpdir(), 'hopwatch-fence-'));
}, 30_000);
afterAll(async () => {
  mkdirSync('test-results', { recursive: true });
  replicas.forEach((hw, i) => writeFileSync(`test-results/cluster-fence-${i}.log`, hw.output()));
  if (agent) writeFileSync('test-results/cluster-fence-agent.log', agent.output());
  await agent?.dispose();
  for (const hw of replicas) await hw.dispose();
  await proxy?.close();
  db?.stop();
  if (simDir) rmSync(simDir, { recursive: true, force: true });
});

describe.skipIf(!run)('an agent whose replica is alive but cut off', () => {
  it('is taken over once that replica committed what it had: every measured round stored once', async () => {
    onTestFailed(() => console.log(`agent output:\n${agent?.output()}`));
    const env = { HOPWATCH_DATABASE_URL: db.url, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: Password, HOPWATCH_LOG_LEVEL: 'info' };
    const a = await startAppliance({ env });
    replicas.push(a);
    const b = await startAppliance({ env });
    replicas.push(b);
    proxy = await startProxy(a.port);
    const cookie = await signIn(a.url, 'admin', Password);
    const scenario = join(simDir, 'branch.json');
    writeFileSync(scenario, JSON.stringify({ name: 'branch', seed: 44, hops: [{ v4: '10.251.144.1', rttMs: 0.4 }], target: { v4: '10.251.144.9', rttMs: 1.1 } }));
    const { agent: created, link } = await createAgentWithLink(`http://127.0.0.1:${proxy.port}`, cookie, 'Branch');
    agent = startAgent(['setup', link.SetupLink], { env: { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenario } });
    await waitFor('the agent online', async () => (await cmd<{ ID: number; IsOnline: boolean }[]>(a.url, cookie, '/cmd/getagentlist')).some((x) => x.ID === created.ID && x.IsOnline));
    const id = (await cmd<{ ID: number }>(a.url, cookie, `/cmd/newtarget?target=10.251.144.9&traceInterval=0.5&agentID=${created.ID}`)).ID;
    const roundsOf = () => agent!.rounds().filter((r) => r[0] === id);
    await waitFor('rounds stored on A', async () => (await hubCall<number>(a.url, cookie, 'GetSampleCountForSession', id)) >= 8);

    // A's commits wait (its flushes append tallies; the test holds the table), the agent goes on sending to A.
    const admin = new pg.Client(db.url);
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE sample_tallies IN EXCLUSIVE MODE');
    const held = roundsOf().length;
    await waitFor('batches sent to A while its commits wait', async () => roundsOf().length >= held + 4);
    // The agent is cut off from A (alive, its batches still in its commit) and reconnects to B.
    proxy.upstream = b.port;
    proxy.cut();
    await waitFor('the agent linked to B', async () => b.output().includes('"msg":"agent connected"'), 20_000);
    await sleep(2000);
    // A's held batch commits now; B goes on from what the store then holds.
    await admin.query('COMMIT');
    await admin.end();

    await waitFor('the spool sent to B', async () => agent!.spooled() === 0, 40_000);
    const after = roundsOf().length;
    await waitFor('new rounds on B', async () => roundsOf().length >= after + 4, 20_000);
    const stop = await fetch(`${b.url}/cmd/stoptrace?ID=${id}`, { headers: { cookie } });
    expect(stop.status).toBeLessThan(300);
    await waitAgentIdle(agent);
    await sleep(500);

    const measured = roundsOf();
    expect(new Set(measured.map((r) => r[1])).size).toBe(measured.length);
    expect(await hubCall<number>(b.url, cookie, 'GetSampleCountForSession', id)).toBe(measured.reduce((sum, r) => sum + r[2], 0));
    const { start, end, expected } = roundsPerSecond(measured);
    const perSecond = await hubCall<DataPointBuckets>(b.url, cookie, 'DataPointBuckets', `${id}_h_1`, start, end, 1, false);
    expect(new Map(perSecond.Points.filter((p) => p.LatencyCount > 0 || expected.has(p.UnitNumber)).map((p) => [p.UnitNumber, p.LatencyCount]))).toEqual(expected);
  }, 90_000);
});
