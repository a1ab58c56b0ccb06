// Issue 41 item 7, end to end: "2 of the last 10 lost" on a path whose router 2 drops 20% sent
// 30 webhooks in 10 minutes. The app runs in-process on the simulated network with its virtual
// clock (time jumps from timer to timer: 15 minutes of 2.5 s rounds take a moment, the same
// rounds each run), the real ingest, evaluator, outbox and a real webhook receiver on
// loopback. Times asserted are the samples' times the webhooks carry ($time), never how long
// the test waited. Also: Send test with an empty custom template is a 400 naming the template.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimScenario } from '../../engine/index.js';
import type * as AppModule from '../../server/app.js';
import type * as ConfigModule from '../../server/config.js';
import type * as RootUserModule from '../../server/account/root-user.js';
import { engine as engineModule, Store } from '../support/built.js';
import { LoopbackWebhooks, startHttpSink, waitFor, type HttpSink } from './support.js';

const built = <T>(path: string): Promise<T> => import(new URL(`../../dist/${path}`, import.meta.url).href) as Promise<T>;
const { buildApp } = await built<typeof AppModule>('server/app.js');
const { loadConfig } = await built<typeof ConfigModule>('server/config.js');
const { ensureRootUser } = await built<typeof RootUserModule>('server/account/root-user.js');

const Target = '10.251.141.9';
/** Router 2: drops 20% of what reaches it (so does the path past it) while the test says so. */
const lossyRouter = { v4: '10.251.141.2', rttMs: 0.6, lossPercent: 0 };
const scenario: SimScenario = {
  name: 'lossy-router-2',
  seed: 41,
  hops: [{ v4: '10.251.141.1', rttMs: 0.3 }, lossyRouter],
  target: { v4: Target, rttMs: 1 },
};
const Password = 'hysteresis-sim-pw-1';
const Minute = 60_000;

let dir: string;
let store: Awaited<ReturnType<typeof Store.open>>;
let app: FastifyInstance;
let cookie: string;
let hook: HttpSink;
const sim = engineModule.createSimulatedEngine({ scenarios: [scenario], clock: 'virtual' });

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const r = await app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: r.statusCode, body: r.body ? JSON.parse(r.body) : null };
}

beforeAll(async () => {
  hook = await startHttpSink();
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-hysteresis-'));
  const config = loadConfig({ ...LoopbackWebhooks, HOPWATCH_DATA_DIR: dir, HOPWATCH_ROOT_PASSWORD: Password, HOPWATCH_ENGINE: 'simulated' });
  store = await Store.open(config.dataDir);
  await ensureRootUser(store, config, () => undefined);
  app = await buildApp({ config, store, version: 'test', logger: false, engine: sim });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/Account/Login', payload: { Username: 'admin', Password, RememberMe: false } });
  expect(login.statusCode).toBe(200);
  cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await store?.close();
  await hook?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Received {
  event: string;
  time: number;
  flapped: string;
  text: string;
}
const received = (): Received[] =>
  hook.requests.map((r) => {
    const b = JSON.parse(r.body) as { event: string; time: string; flapped: string; text: string };
    return { ...b, time: Date.parse(b.time) };
  });

describe('a steady 20% loss with "2 of the last 10 lost"', () => {
  it('pages once within two minutes, keeps firing while the loss goes on, and ends once after it really stopped', async () => {
    const id = (await call('GET', `/cmd/newtarget?target=${Target}&traceInterval=2.5`)).body.ID as number;
    const created = await call('POST', '/api/alerts', {
      Name: 'Loss on the branch path',
      Condition: { Kind: 'loss', Hop: 0, Samples: 10, Lost: 2 },
      Events: ['start', 'end'],
      Targets: [id],
      Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/hook`, Format: 'custom', Template: '{"event":"$event","time":"$time","flapped":"$flapped","text":"$alert $eventWords"}' } }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // The trace ran ahead (virtual time) while the alert was made, all clean. Now router 2
    // drops 20% for ten minutes, then stops; five clean minutes follow.
    lossyRouter.lossPercent = 20;
    const lossStarted = sim.clock.wallMs();
    await sim.sleep(10 * Minute);
    lossyRouter.lossPercent = 0;
    const lossStopped = sim.clock.wallMs();
    await sim.sleep(5 * Minute);
    expect((await call('GET', `/cmd/stoptrace?ID=${id}`)).status).toBe(204);

    // Until the end is delivered and every notification row before it (stored in order, before
    // it) is delivered too: then the receiver has everything the loss period made. After the
    // end only clean samples come, which cannot start anything.
    const notifications = async () => (await call('GET', `/api/alerts/${created.body.AlertID}/notifications`)).body as { event: string; status: string }[];
    await waitFor('the end and everything before it delivered', async () => {
      const rows = await notifications();
      return rows.some((n) => n.event === 'end') && rows.every((n) => n.status === 'sent') && hook.requests.length === rows.length;
    });
    const got = received();
    const alert = (await call('GET', `/api/alerts/${created.body.AlertID}`)).body;
    expect(alert.Pending).toBe(0);
    expect(got.map((x) => x.event)).toEqual(['start', 'end']);
    const [start, end] = got;
    // Paged once the loss began, within two minutes.
    expect(start.time).toBeGreaterThanOrEqual(lossStarted);
    expect(start.time - lossStarted).toBeLessThanOrEqual(2 * Minute);
    expect(start.text).toBe('Loss on the branch path started');
    // No end while the loss went on. Once it stopped, the window of 10 clears within 10
    // rounds, then 2 minutes of Recover (the exact rule is server/alerts/hysteresis.test.ts's;
    // here the condition may stop holding a little before the loss stops, on a lucky run of
    // answers): the end comes after the loss stopped, and by then.
    expect(end.time).toBeGreaterThan(lossStopped);
    expect(end.time - lossStopped).toBeLessThanOrEqual(10 * 2500 + 2 * Minute);
    expect(alert.Firing).toEqual([]);
    // Alerts created without them (and those stored before them): For 0, Recover 2 minutes.
    expect(alert).toMatchObject({ ForSeconds: 0, RecoverSeconds: 120, MinRepeatSeconds: 300 });
    expect((await notifications()).map((n) => [n.event, n.status])).toEqual([
      ['end', 'sent'],
      ['start', 'sent'],
    ]);
  }, 120_000);
});

describe('the API of For and Recover', () => {
  it('takes them on create and edit, and refuses what is out of range', async () => {
    const id = (await call('GET', `/cmd/newtarget?target=${Target}&traceInterval=2.5`)).body.ID as number;
    await call('GET', `/cmd/stoptrace?ID=${id}`);
    const body = { Name: 'Latency', Condition: { Kind: 'latency', Hop: 0, Samples: 5, ThresholdMs: 50 }, Events: ['start', 'end'], Targets: [id], ForSeconds: 30, RecoverSeconds: 600 };
    const created = await call('POST', '/api/alerts', body);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ForSeconds: 30, RecoverSeconds: 600 });
    const edited = await call('PUT', `/api/alerts/${created.body.AlertID}`, { ...body, RecoverSeconds: 0 });
    expect(edited.body).toMatchObject({ ForSeconds: 30, RecoverSeconds: 0 });
    // Without them on an edit: the defaults again (the body is the whole alert, as for MinRepeatSeconds).
    expect((await call('PUT', `/api/alerts/${created.body.AlertID}`, { ...body, ForSeconds: undefined, RecoverSeconds: undefined })).body).toMatchObject({ ForSeconds: 0, RecoverSeconds: 120 });
    for (const bad of [{ ForSeconds: -1 }, { RecoverSeconds: 86_401 }, { ForSeconds: 1.5 }]) {
      const r = await call('POST', '/api/alerts', { ...body, ...bad });
      expect(r.status).toBe(400);
      expect(r.body.Error).toMatch(/ForSeconds|RecoverSeconds/);
    }
  });
});

describe('Send test', () => {
  it('answers 400 naming the template when a custom webhook has an empty one', async () => {
    for (const Template of ['', '   ']) {
      const r = await call('POST', '/api/alerts/test-action', { Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/t`, Format: 'custom', Template } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.Error).toMatch(/template/i);
      expect(r.body.Error).not.toMatch(/Unexpected end of JSON input/);
    }
    // The same from the alert form's Send test.
    const form = await call('POST', '/cmd/testalertaction', { SerializedData: JSON.stringify({ ActionKind: 'webhook', Method: 'POST', Url: `${hook.url}/t`, Format: 'custom', Template: '' }) });
    expect(form.status).toBe(400);
    expect(form.body.Error).toMatch(/template/i);
    // A preset with no template sends the preset.
    const slack = await call('POST', '/api/alerts/test-action', { Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/t`, Format: 'slack', Template: '' } });
    expect(slack.body).toMatchObject({ Ok: true, Answer: '200 OK' });
  });
});

describe('Send test from the edit form', () => {
  it('runs the edited action with what the form does not show (the stored webhook headers)', async () => {
    const id = (await call('GET', `/cmd/newtarget?target=${Target}&traceInterval=2.5`)).body.ID as number;
    await call('GET', `/cmd/stoptrace?ID=${id}`);
    const created = await call('POST', '/api/alerts', {
      Name: 'With a header',
      Condition: { Kind: 'loss', Hop: 0, Samples: 10, Lost: 2 },
      Events: ['start'],
      Targets: [id],
      Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/old`, Format: 'custom', Template: '{"a":"$alert"}', Headers: { 'X-Team': 'noc' } } }],
    });
    const form = { AlertID: String(created.body.AlertID), ActionID: String(created.body.Actions[0].ActionID), ActionKind: 'webhook', Method: 'POST', Url: `${hook.url}/edited`, Format: 'custom', Template: '{"b":"$alert"}' };
    const r = await call('POST', '/cmd/testalertaction', { SerializedData: JSON.stringify(form), SessionID: id });
    expect(r.body).toMatchObject({ Ok: true });
    const got = hook.requests.find((x) => x.url === '/edited')!;
    expect(got.headers['x-team']).toBe('noc');
    expect(JSON.parse(got.body)).toEqual({ b: 'Test alert' });
  });
});
