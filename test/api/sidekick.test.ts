// The Sidekick calls (issue 24, spec 3 section 7.2) on the simulated engine: the stages,
// the answers against their OpenAPI schemas, the licence rules (Standard and trial servers
// answer Disabled and refuse to start with 409), a user without TargetManagement may use
// Sidekick, StartDiscovery is refused cross-site, and the share links are made once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SidekickShareUrlListSchema, SidekickStateSchema } from '../../server/openapi/answers.js';
import type { SidekickShareUrl, SidekickState } from '../../server/contract/sidekick.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';

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
    writeFileSync(join(dir, 'route'), 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth0\t00000000\t0183FB0A\t0003\t0\t0\t0\t00000000\t0\t0\t0\n');
    writeFileSync(join(dir, 'resolv.conf'), 'nameserver 10.251.131.53\n');
    const env = {
      HOPWATCH_ROOT_PASSWORD: password,
      HOPWATCH_ENGINE: 'simulated',
      HOPWATCH_SIM_SCENARIOS: scenarios,
      HOPWATCH_SIDEKICK_ROUTE_TABLE: join(dir, 'route'),
      HOPWATCH_SIDEKICK_RESOLV_CONF: join(dir, 'resolv.conf'),
      HOPWATCH_SIDEKICK_PRIVATE_RANGES: '10.251.131.0/26',
      HOPWATCH_SIDEKICK_EXTERNAL_SOURCES: '10.251.131.100,10.251.131.101',
      HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS: '30',
    };
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
