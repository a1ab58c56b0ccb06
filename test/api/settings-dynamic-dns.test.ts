// Settings > General Dynamic DNS mode Auto (issue 19): a running target named by a DNS name
// resolves it again every HOPWATCH_DYNAMIC_DNS_SECONDS and follows a new address; an Off
// target keeps its address. The app runs in-process on the simulated network, with the
// engine's name lookup replaced by one this test controls (what "localhost" resolves to).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimScenario } from '../../engine/index.js';
import type * as AppModule from '../../server/app.js';
import type * as ConfigModule from '../../server/config.js';
import type * as RootUserModule from '../../server/account/root-user.js';
import type * as TargetsRepositoryModule from '../../server/targets/repository.js';
import type * as SessionsContractModule from '../../server/contract/sessions.js';
import { engine as engineModule, Store } from '../support/built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

// The built server (its ingest workers are found beside it), typed by its sources (test/support/built.ts).
const built = <T>(path: string): Promise<T> => import(new URL(`../../dist/${path}`, import.meta.url).href) as Promise<T>;
const { buildApp } = await built<typeof AppModule>('server/app.js');
const { loadConfig } = await built<typeof ConfigModule>('server/config.js');
const { ensureRootUser } = await built<typeof RootUserModule>('server/account/root-user.js');
const { setSessionTargetIp } = await built<typeof TargetsRepositoryModule>('server/targets/repository.js');
const { SessionState } = await built<typeof SessionsContractModule>('server/contract/sessions.js');

// Two addresses the name may stand for (simulated only: nothing is sent), and loopback for Off.
const First = '10.251.134.1';
const Second = '10.251.134.2';
const scenarios: SimScenario[] = [
  { name: 'first', hops: [{ v4: '10.251.134.254', rttMs: 0.2 }], target: { v4: First, rttMs: 0.5 } },
  { name: 'second', hops: [{ v4: '10.251.134.253', rttMs: 0.2 }], target: { v4: Second, rttMs: 0.7 } },
  { name: 'loopback', hops: [], target: { v4: '127.0.0.1', v6: '::1', rttMs: 0.05 } },
];
const Password = 'dynamic-dns-pw-1';
/** What the controlled lookup answers for any name. */
let answer = First;
const lookups: string[] = [];

let dir: string;
let store: Awaited<ReturnType<typeof Store.open>>;
let app: FastifyInstance;
let cookie: string;

async function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const r = await app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: r.statusCode, body: r.body ? JSON.parse(r.body) : null };
}
interface Session { SessionID: number; TargetIP: string; DynamicDnsMode: number }
const session = async (id: number) => ((await call('GET', '/api/Sessions')).body as Session[]).find((s) => s.SessionID === id)!;
interface Sample { Hop: number; IP: string; Status: string; Time: string }
const samples = async (id: number) => (await call('GET', `/api/data/SamplesReport?ID=${id}`)).body.Samples as Sample[];

async function until<T>(what: string, read: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
async function saveDynamicDns(mode: number) {
  const version = (await call('GET', '/api/Settings/getsettings')).body.Settings.Version;
  const Root = { Name: 'Root', Children: [{ Name: 'ClientSettings', Children: [{ Name: 'General', Children: [{ Name: 'DynamicDnsMode', Value: mode }] }] }] };
  expect((await call('POST', '/api/Settings/savesettings', { Version: version, Root })).status).toBe(200);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-dyndns-'));
  const config = loadConfig({ HOPWATCH_DATA_DIR: dir, HOPWATCH_ROOT_PASSWORD: Password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_DYNAMIC_DNS_SECONDS: '1' });
  store = await openTestStore(config.dataDir);
  await ensureRootUser(store, config, () => undefined);
  const engine = engineModule.createSimulatedEngine({ scenarios, clock: 'real' });
  app = await buildApp({
    config,
    store,
    version: 'test',
    logger: false,
    engine,
    // The resolver this test controls, in place of the system's.
    startTrace: (o) =>
      engine.startTrace({
        ...o,
        resolveName: async (name) => {
          lookups.push(name);
          return answer;
        },
      }),
  });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/Account/Login', payload: { Username: 'admin', Password, RememberMe: false } });
  expect(login.statusCode).toBe(200);
  cookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Dynamic DNS mode', () => {
  it('Auto: a running target follows its name to a new address; Off: a target keeps its address', async () => {
    await saveDynamicDns(1);
    const auto = (await call('GET', '/cmd/newtarget?target=localhost&traceInterval=1')).body.ID as number;
    await saveDynamicDns(0);
    const off = (await call('GET', '/cmd/newtarget?target=localhost&traceInterval=1')).body.ID as number;
    expect((await session(auto)).DynamicDnsMode).toBe(1);
    expect((await session(off)).DynamicDnsMode).toBe(0);

    // Auto traces the name: the controlled lookup's answer, and the rounds reach it.
    await until('the Auto target at the first address', async () => (await session(auto)).TargetIP === First);
    await until('rounds to the first address', async () => (await samples(auto)).some((s) => s.Hop === 2 && s.IP === First && s.Status === 'ok'));
    // Off traces the address the name had when it started (the system's answer for localhost).
    const offIp = (await session(off)).TargetIP;
    expect(offIp).toBe('127.0.0.1');

    // The name moves: within a re-resolve period the Auto target moves too, without a restart.
    const before = lookups.length;
    answer = Second;
    await until('the Auto target at the second address', async () => (await session(auto)).TargetIP === Second);
    expect(lookups.length).toBeGreaterThan(before);
    await until('rounds to the second address', async () => (await samples(auto)).some((s) => s.Hop === 2 && s.IP === Second && s.Status === 'ok'));
    // Same session: the trace moved, it was not replaced.
    expect((await call('GET', '/api/Sessions')).body.filter((s: Session) => s.DynamicDnsMode === 1)).toHaveLength(1);

    // Off stays where it started, whatever the name says now.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await session(off)).TargetIP).toBe(offIp);
    const offSamples = await samples(off);
    expect(offSamples.length).toBeGreaterThan(0);
    expect(offSamples.every((s) => s.IP === '127.0.0.1' || s.IP === '')).toBe(true);
    await call('GET', `/cmd/close?ID=${auto}`);
    await call('GET', `/cmd/close?ID=${off}`);
  });

  it('a paused Auto target is left alone until it runs again', async () => {
    await saveDynamicDns(1);
    answer = First;
    const id = (await call('GET', '/cmd/newtarget?target=localhost&traceInterval=1')).body.ID as number;
    await until('the target at the first address', async () => (await session(id)).TargetIP === First);
    expect((await call('GET', `/cmd/stoptrace?ID=${id}`)).status).toBe(204);
    answer = Second;
    // A pass that read the target as running and whose answer lands after the pause (a race a
    // CI run hit): its write is refused, so the paused target keeps its address.
    expect(await store.exclusive((q) => setSessionTargetIp(q, id, Second, SessionState.Active))).toBe(false);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await session(id)).TargetIP).toBe(First);
    expect((await call('GET', `/cmd/resumetrace?ID=${id}`)).status).toBe(204);
    await until('the resumed target at the second address', async () => (await session(id)).TargetIP === Second);
    await call('GET', `/cmd/close?ID=${id}`);
  });
});
