// The rest of issue 22's alerts (docs/alerts.md): the "agent offline for more than T"
// condition (a hand-driven agent link goes away: start after T; it comes back: end), the
// "export a data file" action (a .pp2 of the condition's window in the export directory, or
// the error on the alert), and editing an alert keeping its unchanged actions' ids and the
// notifications queued for them. Runs on the simulated engine without root.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { createAgentWithLink } from '../agents/support.js';
import { readKv } from '../api/datafile-fixtures.js';
import { LoopbackWebhooks, startHttpSink, sleep, waitFor, type HttpSink } from './support.js';

let hw: Appliance;
let cookie: string;
let hook: HttpSink;
let exportDir: string;

const send = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
/** Starts a target (on the Local Machine, or the agent) and answers its id. */
const newTarget = async (query: string) => {
  const r = await send('GET', `/cmd/newtarget?target=127.0.0.1&${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.ID as number;
};
const alertOf = async (id: number) => (await send('GET', `/api/alerts/${id}`)).body;
const notificationsOf = async (id: number) => (await send('GET', `/api/alerts/${id}/notifications`)).body as { id: number; actionId: number; event: string; status: string; answer: string }[];
/** Latency above 0 ms at the target: holds as soon as the window is full. */
const always = (samples: number) => ({ Kind: 'latency', Hop: 0, Samples: samples, ThresholdMs: 0 });

/** A hand-driven agent link that says hello (as the agent program does) until closed. */
async function agentLink(id: number, credential: string): Promise<WebSocket> {
  const ws = new WebSocket(`${hw.url.replace('http', 'ws')}/agentLink`, { headers: { authorization: `Bearer ${id}.${credential}` } });
  const assigned = new Promise<void>((ok) => ws.on('message', (d) => JSON.parse(d.toString()).t === 'assign' && ok()));
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  ws.send(JSON.stringify({ t: 'hello', protocol: 1, machineId: 'm-offline', machineName: 'branch-offline', platform: 3, version: '0.1.0.0', mode: 2 }));
  await assigned;
  return ws;
}

beforeAll(async () => {
  hook = await startHttpSink();
  hw = await startAppliance({ env: { ...LoopbackWebhooks, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'alertsrest-root-pw' } });
  exportDir = join(hw.dataDir, 'alert-exports');
  cookie = await signIn(hw.url, 'admin', 'alertsrest-root-pw');
});
afterAll(async () => {
  if (hw) {
    mkdirSync('test-results', { recursive: true });
    writeFileSync('test-results/alerts-rest-server.log', hw.output());
  }
  await hw?.dispose();
  await hook?.close();
});

describe('agent offline for more than T', () => {
  it('starts T after the agent link went away, ends once it is back, each exactly once', async () => {
    const { agent, link } = await createAgentWithLink(hw.url, cookie, 'Branch offline');
    const enrol = await fetch(`${hw.url}/api/agent/enrol`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ AgentId: agent.ID, Key: parseSetupLink(link.SetupLink).key }) });
    expect(enrol.status).toBe(200);
    const { Credential: credential } = (await enrol.json()) as { Credential: string };
    let ws = await agentLink(agent.ID, credential);
    const remote = await newTarget(`traceInterval=1&agentID=${agent.ID}`);
    const local = await newTarget('traceInterval=1');

    // Hop and Samples do not apply; a bad threshold is refused.
    expect((await send('POST', '/api/alerts', { Name: 'x', Condition: { Kind: 'agentOffline' }, Events: ['start'], Targets: [remote] })).status).toBe(400);
    const created = await send('POST', '/api/alerts', {
      Name: 'Branch away',
      Condition: { Kind: 'agentOffline', OfflineSeconds: 3 },
      Events: ['start', 'end'],
      Targets: [remote, local],
      Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/offline`, Format: 'custom', Template: '{"event":"$event","host":"$host","agent":"$agent","condition":"$condition"}' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.AlertID as number;
    expect(created.body.ConditionText).toBe("the target's agent offline for more than 3 s");
    const got = () => hook.requests.filter((r) => r.url === '/offline').map((r) => JSON.parse(r.body) as Record<string, string>);

    // Connected: nothing holds, even after T.
    await sleep(4000);
    expect(got()).toEqual([]);
    expect((await alertOf(id)).Firing).toEqual([]);

    // The link dies: the start comes T later, for the remote target only.
    const wentAt = Date.now();
    ws.terminate();
    const start = await waitFor('the start', () => got().find((b) => b.event === 'start'), 20_000);
    expect(Date.now() - wentAt).toBeGreaterThanOrEqual(3000);
    expect(start).toMatchObject({ agent: 'Branch offline', condition: "the target's agent offline for more than 3 s" });
    expect((await alertOf(id)).Firing).toEqual([remote]);

    // Back: the end, at once.
    ws = await agentLink(agent.ID, credential);
    await waitFor('the end', () => got().find((b) => b.event === 'end'), 20_000);
    expect((await alertOf(id)).Firing).toEqual([]);
    await sleep(4000);
    expect(got().map((b) => b.event)).toEqual(['start', 'end']);
    ws.close();
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
  });
});

describe('export a data file', () => {
  let target: number;
  beforeAll(async () => {
    target = await newTarget('traceInterval=0.5');
    // Some rounds before the alert exists: the file must hold the window, not the whole target.
    await sleep(6000);
  });

  it('writes the target data file of the condition window into the export directory', async () => {
    const created = await send('POST', '/api/alerts', { Name: 'Keep evidence', Condition: always(3), Events: ['start'], Targets: [target], Actions: [{ Kind: 'export', Config: {} }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.AlertID as number;
    const sent = await waitFor('the export', async () => (await notificationsOf(id)).find((n) => n.status === 'sent'), 30_000);
    const m = /^Data file written: (.+\.pp2) \((\d+) samples\)$/.exec(sent.answer);
    expect(m, sent.answer).not.toBeNull();
    // Named relative to the export folder, in the account's own folder (issue 39 item 7).
    const shown = m![1];
    expect(shown).toMatch(/^account-\d+\/alert-/);
    const path = join(exportDir, shown);
    expect(readFileSync(path).subarray(0, 4).toString()).toBe('PAR1');
    const kv = await readKv(path);
    expect(JSON.parse(kv['hopwatch.target']).SourceSessionId).toBe(target);
    const range = JSON.parse(kv['hopwatch.range']) as { Begin: number; End: number; Samples: number };
    expect(range.Samples).toBe(Number(m![2]));

    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const rounds = Number((await c.runAndReadAll(`SELECT count(DISTINCT time_ms) AS n FROM read_parquet('${path.replace(/'/g, "''")}')`)).getRowObjectsJS()[0].n);
      // The window: its three rounds (a round the window skips, such as a pending one, may sit between).
      expect(rounds).toBeGreaterThanOrEqual(3);
      expect(rounds).toBeLessThan(8);
    } finally {
      c.closeSync();
      db.closeSync();
    }
    // The path is on the alert, and on its row of the alerts page.
    expect(await alertOf(id)).toMatchObject({ LastError: '', LastAnswer: sent.answer });
    const page = await send('GET', `/cmd/getpage?page=Alerts%2FManagement.html&parameters=%7B%7D&selectedTargets=%5B%22${target}%22%5D`);
    expect(page.status).toBe(200);
    expect(page.body.HTML).toContain(`Last result: Data file written: ${shown}`);
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
  });

  it('shows why it could not write on the alert, and writes once the directory is usable', async () => {
    // A file where the directory should be.
    rmSync(exportDir, { recursive: true, force: true });
    writeFileSync(exportDir, 'not a directory');
    const created = await send('POST', '/api/alerts', { Name: 'Blocked export', Condition: always(2), Events: ['start'], Targets: [target], Actions: [{ Kind: 'export', Config: { MaxSamples: 1 } }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.AlertID as number;
    const failing = await waitFor('the error on the alert', async () => ((await alertOf(id)).LastError ? alertOf(id) : undefined), 30_000);
    expect(failing.LastError).toMatch(/^Attempt \d+ failed, retrying: Could not write account-\d+\/alert-\d+_target-\d+_start_\d{8}-\d{6}\.pp2: /);
    expect(failing.LastError).not.toContain(hw.dataDir);
    expect(failing.Pending).toBe(1);
    rmSync(exportDir);
    const sent = await waitFor('the export after the fix', async () => (await notificationsOf(id)).find((n) => n.status === 'sent'), 40_000);
    expect(sent.answer).toMatch(/^Data file written: .*\.pp2 \(1 samples, cut at MaxSamples\)$/);
    expect(existsSync(join(exportDir, sent.answer.split(': ')[1].split(' (')[0]))).toBe(true);
    expect(await alertOf(id)).toMatchObject({ LastError: '', Pending: 0 });
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
  });

  it('is refused with a bad MaxSamples and tested from the editor', async () => {
    expect((await send('POST', '/api/alerts', { Name: 'Bad', Condition: always(2), Events: ['start'], Targets: [target], Actions: [{ Kind: 'export', Config: { MaxSamples: 0 } }] })).status).toBe(400);
    const test = await send('POST', '/api/alerts/test-action', { Kind: 'export', Config: {}, TargetID: target });
    expect(test.status).toBe(200);
    expect(test.body.Ok).toBe(true);
    expect(test.body.Answer).toMatch(/^Data file written: .*alert-0_target-\d+_start_.*\.pp2/);
  });
});

describe('editing an alert', () => {
  it('keeps the ids of unchanged actions and the notifications queued for them', async () => {
    const target = await newTarget('traceInterval=0.5');
    hook.status = 503;
    const webhook = { Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/edit`, Format: 'custom', Template: '{"event":"$event"}' } };
    const log = { Kind: 'log', Config: { Text: 'edited alert $event' } };
    const created = await send('POST', '/api/alerts', { Name: 'Before edit', Condition: always(2), Events: ['start'], Targets: [target], Actions: [webhook, log] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.AlertID as number;
    const [hookId, logId] = created.body.Actions.map((a: { ActionID: number }) => a.ActionID);
    await waitFor('the webhook retrying', async () => ((await alertOf(id)).Pending === 1 ? true : undefined), 30_000);

    // The same actions sent back as the DTO has them, a new name, and one more action.
    const edited = await send('PUT', `/api/alerts/${id}`, {
      Name: 'After edit',
      Condition: always(2),
      Events: ['start'],
      Targets: [target],
      Actions: [...created.body.Actions.map((a: { ActionID: number; Kind: string; Config: unknown }) => ({ ActionID: a.ActionID, Kind: a.Kind, Config: a.Config })), { Kind: 'log', Config: {} }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.Actions.slice(0, 2).map((a: { ActionID: number }) => a.ActionID)).toEqual([hookId, logId]);
    expect(edited.body.Actions).toHaveLength(3);
    expect(edited.body.Pending).toBe(1);

    // Without ActionID, an identical action is recognised too.
    const again = await send('PUT', `/api/alerts/${id}`, { Name: 'After edit', Condition: always(2), Events: ['start'], Targets: [target], Actions: [webhook, log] });
    expect(again.body.Actions.map((a: { ActionID: number }) => a.ActionID)).toEqual([hookId, logId]);
    expect(again.body.Pending).toBe(1);

    // The receiver is back: the queued notification arrives (once), under the kept action.
    hook.status = 200;
    const row = await waitFor('the queued webhook delivered', async () => (await notificationsOf(id)).find((n) => n.actionId === hookId && n.status === 'sent'), 40_000);
    expect(row.event).toBe('start');
    await sleep(2000);
    // One notification for the webhook, delivered (after its 503 attempts), none dropped or doubled.
    const rows = (await notificationsOf(id)).filter((n) => n.actionId === hookId);
    expect(rows.map((n) => n.status)).toEqual(['sent']);
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
  });

  it('drops the waiting notifications of an action the edit removes', async () => {
    const target = await newTarget('traceInterval=0.5');
    hook.status = 503;
    const webhook = { Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/removed`, Format: 'custom', Template: '{"event":"$event"}' } };
    const created = await send('POST', '/api/alerts', { Name: 'Remove action', Condition: always(2), Events: ['start'], Targets: [target], Actions: [webhook] });
    const id = created.body.AlertID as number;
    await waitFor('the webhook retrying', async () => ((await alertOf(id)).Pending === 1 ? true : undefined), 30_000);
    const edited = await send('PUT', `/api/alerts/${id}`, { Name: 'Remove action', Condition: always(2), Events: ['start'], Targets: [target], Actions: [{ Kind: 'log', Config: {} }] });
    expect(edited.status).toBe(200);
    expect(edited.body.Pending).toBe(0);
    expect((await notificationsOf(id)).map((n) => n.status)).toEqual(['cancelled']);
    hook.status = 200;
    expect((await send('DELETE', `/api/alerts/${id}`)).status).toBe(204);
  });
});
