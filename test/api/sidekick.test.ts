// The Sidekick calls (issue 24, spec 3 section 7.2) on the simulated engine: the stages,
// the answers against their OpenAPI schemas, the licence rules (Standard and trial servers
// answer Disabled and refuse to start with 409), a user without TargetManagement may use
// Sidekick, StartDiscovery is refused cross-site, and the share links are made once. Under
// the Sidekick licence (112) the export links open for a signed-out visitor, kept to the
// Sidekick targets and read-only, while any other LiveShare link (made before a licence
// change) is refused and users keep their 112 rights (no summaries, no LiveShare management).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SidekickShareUrlListSchema, SidekickStateSchema } from '../../server/openapi/answers.js';
import type { SidekickShareUrl, SidekickState } from '../../server/contract/sidekick.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';
import { connectHub } from '../security/support.js';
import { sidekickNetworkEnv } from '../sidekick/network-env.js';

const password = 'Sidekick-api-pw-1';
const scenarios = resolve(import.meta.dirname, '../sidekick/scenarios');
const ajv = new Ajv({ strict: false, allErrors: true });
const validState = ajv.compile(SidekickStateSchema);
const validShares = ajv.compile(SidekickShareUrlListSchema);

describe('Sidekick calls', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-sidekick-api-'));
  let hw: Appliance;
  let standard: Appliance;
  let trial: Appliance;
  let admin = '';
  let plain = '';

  const call = (app: Appliance, path: string, cookie: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers: { cookie, ...headers } });
  const state = async (app: Appliance, cookie: string): Promise<SidekickState> => {
    const r = await call(app, '/api/Sidekick/SidekickState', cookie);
    expect(r.status).toBe(200);
    const body = (await r.json()) as SidekickState;
    expect(validState(body), JSON.stringify(validState.errors)).toBe(true);
    return body;
  };

  beforeAll(async () => {
    const env = sidekickNetworkEnv(dir, scenarios, password);
    const future = new Date(Date.now() + 30 * 86400_000).toISOString();
    [hw, standard, trial] = await Promise.all([
      startAppliance({ env }),
      startAppliance({ env: { ...env, HOPWATCH_LICENSE_MODE: '1' } }),
      startAppliance({ env: { ...env, HOPWATCH_TRIAL_EXPIRES: future } }),
    ]);
    admin = await signIn(hw.url, 'admin', password);
    // A user with no claims at all: Sidekick needs only a signed-in user on a licensed server.
    await createWebUser(hw.url, admin, { email: 'sidekick-user@example.org', password: 'Plain-user-pw-1', roles: [] });
    plain = await signIn(hw.url, 'sidekick-user@example.org', 'Plain-user-pw-1');
  }, 120_000);

  afterAll(async () => {
    await Promise.all([hw?.dispose(), standard?.dispose(), trial?.dispose()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a Standard or trial server answers Disabled and refuses to start', async () => {
    for (const app of [standard, trial]) {
      const cookie = await signIn(app.url, 'admin', password);
      const s = await state(app, cookie);
      expect(s).toMatchObject({ SidekickAvailable: false, Stage: 0, Targets: [] });
      const r = await call(app, '/api/Sidekick/StartDiscovery', cookie);
      expect(r.status).toBe(409);
      expect(((await r.json()) as { Error: string }).Error).toMatch(/Sidekick is not available/);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await fetch(`${hw.url}/api/Sidekick/SidekickState`)).status).toBe(401);
    expect((await fetch(`${hw.url}/api/Sidekick/StartDiscovery`)).status).toBe(401);
  });

  it('starts Uninitialized; share links need targets first', async () => {
    expect(await state(hw, plain)).toMatchObject({ LicenseMode: 3, SidekickAvailable: true, Stage: 1, SidekickSummaryID: 0, Targets: [], StartTime: null });
    expect((await call(hw, '/api/Sidekick/GetShareUrlsForSidekickTargets', plain)).status).toBe(409);
  });

  it('refuses StartDiscovery sent by another site, and bad input', async () => {
    expect((await call(hw, '/api/Sidekick/StartDiscovery', plain, { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' })).status).toBe(403);
    expect((await call(hw, '/api/Sidekick/StartDiscovery?agentId=abc', plain)).status).toBe(400);
    expect((await call(hw, '/api/Sidekick/StartDiscovery?agentId=Infinity', plain)).status).toBe(400);
    expect((await call(hw, '/api/Sidekick/StartDiscovery?agentId=999', plain)).status).toBe(404);
    expect((await state(hw, plain)).Stage).toBe(1);
  });

  it('discovers the five targets for a user without TargetManagement', async () => {
    const r = await call(hw, '/api/Sidekick/StartDiscovery', plain);
    expect(r.status, await r.text()).toBe(204);
    expect([2, 3]).toContain((await state(hw, plain)).Stage);
    await expect.poll(async () => (await state(hw, plain)).Stage, { timeout: 40_000, interval: 500 }).toBe(3);
    const s = await state(hw, plain);
    expect(s.Targets.map((t) => [t.Kind, t.OriginalTarget, t.ContentLink === `/sktargets/${t.WebTargetID}`])).toEqual([
      ['DefaultGateway', '10.251.131.1', true],
      ['DnsResolver', '10.251.131.53', true],
      ['ProviderEdge', '10.251.131.66', true],
      ['External1', '10.251.131.100', true],
      ['External2', '10.251.131.101', true],
    ]);
    expect(Date.parse(s.StartTime!)).toBeGreaterThan(0);
  });

  it('makes one share link per target, once', async () => {
    const get = async () => {
      const r = await call(hw, '/api/Sidekick/GetShareUrlsForSidekickTargets', plain);
      expect(r.status).toBe(200);
      const body = (await r.json()) as SidekickShareUrl[];
      expect(validShares(body), JSON.stringify(validShares.errors)).toBe(true);
      return body;
    };
    const first = await get();
    expect(first.map((u) => u.TargetDefinition.Kind)).toEqual(['DefaultGateway', 'DnsResolver', 'ProviderEdge', 'External1', 'External2']);
    for (const u of first) expect(u.ShareUrl).toMatch(new RegExp(`^${hw.url}/LiveShare/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}$`));
    expect((await get()).map((u) => u.ShareUrl)).toEqual(first.map((u) => u.ShareUrl));
    // They are LiveShare links of the Sidekick summary, listed with the others.
    const s = await state(hw, admin);
    const links = (await (await call(hw, `/api/liveshare/GetLinksForSummary?summaryID=SUM-${s.SidekickSummaryID}`, admin)).json()) as { TargetID: string }[];
    expect(links.map((l) => l.TargetID).sort()).toEqual(s.Targets.map((t) => t.WebTargetID).sort());
  });

  it('is Done when its traces were stopped elsewhere, and Restart starts over', async () => {
    const before = await state(hw, admin);
    for (const t of before.Targets) expect((await call(hw, `/cmd/stoptrace?ID=${t.WebTargetID}`, admin)).status).toBeLessThan(300);
    expect((await state(hw, admin)).Stage).toBe(4);
    expect((await call(hw, '/api/Sidekick/StartDiscovery', admin)).status).toBe(204);
    await expect.poll(async () => (await state(hw, admin)).Stage, { timeout: 40_000, interval: 500 }).toBe(3);
    const after = await state(hw, admin);
    expect(after.SidekickSummaryID).not.toBe(before.SidekickSummaryID);
    expect(after.Targets.filter((t) => before.Targets.some((b) => b.WebTargetID === t.WebTargetID))).toEqual([]);
  });
});

describe('Sidekick export links under the Sidekick licence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-sidekick-112-'));
  let sk: Appliance;
  let admin = '';
  let exported: SidekickShareUrl[] = [];
  let sidekick: SidekickState;
  /** A LiveShare link to another summary and one to the Local Machine's targets, made while the server was Professional. */
  let otherSummaryLink = '';
  let agentLink = '';
  let otherTarget = '';
  let otherSummary = '';

  const q = encodeURIComponent;
  const call = (path: string, cookie: string | undefined, init: RequestInit = {}) =>
    fetch(`${sk.url}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const ok = async <T>(path: string, cookie: string): Promise<T> => {
    const r = await call(path, cookie);
    const text = await r.text();
    expect(r.status, `${path}: ${text}`).toBe(200);
    return JSON.parse(text) as T;
  };
  const status = async (path: string, cookie: string | undefined, init: RequestInit = {}) => {
    const r = await call(path, cookie, init);
    return { status: r.status, body: await r.text() };
  };
  const visitorOf = (shareUrl: string) => `liveshareid=${q(new URL(shareUrl).pathname.split('/').slice(2).join('/'))}`;
  const summaryRows = (summaryId: string | number, cookie: string) =>
    ok<{ Rows: { UniqueID: string }[] }>(`/api/data/TraceGraphRows?listType=Summary&uniqueID=${summaryId}&${q('requests[0].ID')}=${summaryId}`, cookie);

  beforeAll(async () => {
    const env = sidekickNetworkEnv(dir, scenarios, password);
    // First as Professional: a summary of another target with a LiveShare link, and a link to
    // the Local Machine's targets, as a server that changed its licence to 112 later has them.
    const pro = await startAppliance({ env });
    try {
      const root = await signIn(pro.url, 'admin', password);
      const get = async <T>(path: string, init: RequestInit = {}) => {
        const r = await fetch(`${pro.url}${path}`, { ...init, headers: { cookie: root, 'content-type': 'application/json' } });
        const text = await r.text();
        expect(r.status, `${path}: ${text}`).toBe(200);
        return JSON.parse(text) as T;
      };
      otherTarget = String((await get<{ ID: number }>('/cmd/newtarget?target=10.251.131.100')).ID);
      otherSummary = (await get<{ UniqueID: string }>(`/cmd/newsummary?name=Branch&addhost=${otherTarget}`)).UniqueID;
      const link = (ref: string) => get<{ ShareId: string; SecurePW: string }>('/api/liveshare', { method: 'POST', body: JSON.stringify({ SummaryID: ref }) });
      const a = await link(`SUM-${otherSummary}`);
      otherSummaryLink = `liveshareid=${q(`${a.ShareId}/${a.SecurePW}`)}`;
      const b = await link('AGT--1');
      agentLink = `liveshareid=${q(`${b.ShareId}/${b.SecurePW}`)}`;
      // Both open for a visitor while the server is Professional.
      for (const c of [otherSummaryLink, agentLink]) expect((await fetch(`${pro.url}/api/Account/GetCurrentUser`, { headers: { cookie: c } })).status).toBe(200);
    } finally {
      await pro.stop();
    }
    sk = await startAppliance({ dataDir: pro.dataDir, port: pro.port, env: { ...env, HOPWATCH_LICENSE_MODE: '112' } });
    admin = await signIn(sk.url, 'admin', password);
    expect((await call('/api/Sidekick/StartDiscovery', admin)).status).toBe(204);
    // Running (3); expect.poll is for tests only.
    for (const until = Date.now() + 40_000; (await ok<SidekickState>('/api/Sidekick/SidekickState', admin)).Stage !== 3; ) {
      if (Date.now() > until) throw new Error('Sidekick discovery did not finish in 40 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    sidekick = await ok<SidekickState>('/api/Sidekick/SidekickState', admin);
    exported = await ok<SidekickShareUrl[]>('/api/Sidekick/GetShareUrlsForSidekickTargets', admin);
  }, 150_000);

  afterAll(async () => {
    await sk?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an export link signs a visitor in, and the viewer\'s calls answer with the Sidekick targets', async () => {
    expect(sidekick.LicenseMode).toBe(112);
    expect(exported).toHaveLength(5);
    const ids = sidekick.Targets.map((t) => t.WebTargetID).sort();
    for (const u of exported) {
      const visitor = visitorOf(u.ShareUrl);
      expect(await ok('/api/Account/GetCurrentUser', visitor)).toMatchObject({ IsLiveshare: true, IsUser: false, LicenseMode: 112, Claims: [] });
      const sums = await ok<{ UniqueID: string; Name: string }[]>('/cmd/getsummaries', visitor);
      expect(sums).toEqual([expect.objectContaining({ UniqueID: String(sidekick.SidekickSummaryID), Name: 'Sidekick', Editable: false })]);
      const rows = await summaryRows(sidekick.SidekickSummaryID, visitor);
      expect([...new Set(rows.Rows.map((r) => r.UniqueID.split('_')[0]))].sort()).toEqual(ids);
    }
    const visitor = visitorOf(exported[0].ShareUrl);
    await ok(`/api/data/ColumnDefs?uniqueID=${exported[0].TargetDefinition.WebTargetID}`, visitor);
    const end = new Date();
    const start = new Date(end.getTime() - 600_000);
    await ok(`/api/data/DataPointBuckets?targetId=${exported[0].TargetDefinition.WebTargetID}&startTime=${q(start.toISOString())}&endTime=${q(end.toISOString())}&periodSeconds=10&includeJitter=false`, visitor);
    // The other target and summary of the account stay out of its reach.
    expect((await status(`/api/data/TraceGraphRows?listType=Target&uniqueID=${otherTarget}&${q('requests[0].ID')}=${otherTarget}`, visitor)).status).toBe(404);
    expect((await status(`/api/data/TraceGraphRows?listType=Summary&uniqueID=${otherSummary}&${q('requests[0].ID')}=${otherSummary}`, visitor)).status).toBe(404);
  });

  it('the export visitor may call nothing else: state-changing and management calls answer 403', async () => {
    const visitor = visitorOf(exported[0].ShareUrl);
    const target = exported[0].TargetDefinition.WebTargetID;
    for (const [path, init] of [
      ['/api/Sidekick/StartDiscovery', {}],
      ['/api/Sidekick/GetShareUrlsForSidekickTargets', {}],
      ['/api/Sidekick/SidekickState', {}],
      [`/cmd/stoptrace?ID=${target}`, {}],
      ['/cmd/newtarget?target=10.251.131.101', {}],
      ['/cmd/createsummary?name=nope', {}],
      [`/cmd/removefromsummary?host=${target}&ID=${sidekick.SidekickSummaryID}`, {}],
      ['/api/liveshare', {}],
      ['/api/liveshare', { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${sidekick.SidekickSummaryID}` }) }],
      ['/api/user', {}],
    ] as const) {
      const r = await status(path, visitor, init);
      expect(r.status, `${path}: ${r.body}`).toBe(403);
      expect(JSON.parse(r.body).Error).toMatch(/^This needs the sign-in of a user/);
    }
    // Nothing changed: the Sidekick still runs its five traces.
    expect((await ok<SidekickState>('/api/Sidekick/SidekickState', admin)).Targets.map((t) => t.WebTargetID)).toEqual(sidekick.Targets.map((t) => t.WebTargetID));
  });

  it('the export visitor reaches the Sidekick targets over /mainHub and nothing else', async () => {
    const hub = await connectHub(sk, visitorOf(exported[0].ShareUrl), HttpTransportType.WebSockets);
    try {
      await hub.connection.invoke('RegisterForChangesToSummary', sidekick.SidekickSummaryID);
      await hub.connection.invoke('RegisterForNewSamples', exported[1].TargetDefinition.WebTargetID);
      await expect(hub.connection.invoke('RegisterForNewSamples', otherTarget)).rejects.toThrow(/not found/);
      await expect(hub.connection.invoke('RegisterForChangesToSummary', otherSummary)).rejects.toThrow(/not found/);
      await expect(hub.connection.invoke('ResetAndRestart', exported[0].TargetDefinition.WebTargetID)).rejects.toThrow(/This needs the /);
      await expect(hub.connection.invoke('CreateSummary', 'nope')).rejects.toThrow(/This needs the /);
    } finally {
      await hub.connection.stop();
    }
  });

  it('any other LiveShare link is refused there: the visitor is not signed in', async () => {
    for (const cookie of [otherSummaryLink, agentLink]) {
      for (const path of ['/api/Account/GetCurrentUser', '/cmd/getsummaries', `/api/data/TraceGraphRows?listType=Target&uniqueID=${otherTarget}&${q('requests[0].ID')}=${otherTarget}`]) {
        expect((await status(path, cookie)).status, path).toBe(401);
      }
      expect((await fetch(`${sk.url}/mainHub/negotiate?negotiateVersion=1`, { method: 'POST', headers: { cookie } })).status).toBe(401);
    }
  });

  it('signed-in users keep the rights of licence 112: no summaries, no LiveShare management', async () => {
    for (const path of ['/cmd/getsummaries', '/api/liveshare', `/api/liveshare/GetLinksForSummary?summaryID=SUM-${sidekick.SidekickSummaryID}`]) {
      const r = await status(path, admin);
      expect(r.status, `${path}: ${r.body}`).toBe(403);
      expect(JSON.parse(r.body).Error).toMatch(/Professional licence/);
    }
    const hub = await connectHub(sk, admin, HttpTransportType.WebSockets);
    try {
      await expect(hub.connection.invoke('RegisterForChangesToSummary', sidekick.SidekickSummaryID)).rejects.toThrow(/Professional licence/);
    } finally {
      await hub.connection.stop();
    }
  });

  it('the export links of a cleared Sidekick no longer open', async () => {
    const old = visitorOf(exported[0].ShareUrl);
    expect((await call('/api/Sidekick/StartDiscovery', admin)).status).toBe(204);
    // The previous Sidekick summary is deleted at once: what the link shared is gone.
    await expect.poll(async () => (await call('/api/Account/GetCurrentUser', old)).status, { timeout: 10_000 }).toBe(401);
    await expect.poll(async () => (await ok<SidekickState>('/api/Sidekick/SidekickState', admin)).Stage, { timeout: 40_000, interval: 500 }).toBe(3);
    const fresh = await ok<SidekickShareUrl[]>('/api/Sidekick/GetShareUrlsForSidekickTargets', admin);
    expect(fresh.map((u) => u.ShareUrl)).not.toContain(exported[0].ShareUrl);
    expect((await call('/api/Account/GetCurrentUser', visitorOf(fresh[0].ShareUrl))).status).toBe(200);
  });
});
