// Sidekick's destinations (issue 41 item 13): before Get Started the welcome screen's call
// GET /api/Sidekick/PlannedSources says what will be traced (gateway and resolver as read from
// the routing table and resolv.conf, the provider edge as found later, the two external
// sources), and the external sources are Settings > General's, which round-trip through
// getsettings/savesettings (checked, the path named on a bad value) and are what discovery then
// traces: here two hosts "of a closed network" on the simulated engine (10.251.131.110/111),
// not the variable's 10.251.131.100/101. Only simulated addresses; nothing leaves the machine.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SidekickPlannedSourceListSchema } from '../../server/openapi/answers.js';
import type { SidekickPlannedSource, SidekickState } from '../../server/contract/sidekick.js';
import type { SettingsNode } from '../../server/contract/settings.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { sidekickNetworkEnv } from '../sidekick/network-env.js';

const password = 'Sidekick-sources-pw-1';
const validPlan = new Ajv({ strict: false, allErrors: true }).compile(SidekickPlannedSourceListSchema);

describe('Sidekick destinations said first, external sources from Settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-sidekick-sources-'));
  let hw: Appliance;
  let cookie = '';
  const call = (path: string, init: RequestInit = {}) => fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const plan = async (): Promise<SidekickPlannedSource[]> => {
    const r = await call('/api/Sidekick/PlannedSources');
    const body = await r.json();
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(validPlan(body), JSON.stringify(validPlan.errors)).toBe(true);
    return body as SidekickPlannedSource[];
  };
  const general = async () => {
    const s = await (await call('/api/Settings/getsettings')).json();
    const node = (s.Settings.Root as SettingsNode).Children.find((n) => n.Name === 'ClientSettings')!.Children.find((n) => n.Name === 'General')!;
    return { version: s.Settings.Version as number, values: Object.fromEntries(node.Children.map((n) => [n.Name, n.Value])) };
  };
  const save = async (values: Record<string, string>) => {
    const leaf = (Name: string, Value: string): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
    const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
    const Root = node('Root', [node('ClientSettings', [node('General', Object.entries(values).map(([k, v]) => leaf(k, v)))])]);
    return call('/api/Settings/savesettings', { method: 'POST', body: JSON.stringify({ Version: (await general()).version, Root }) });
  };
  const state = async () => (await (await call('/api/Sidekick/SidekickState')).json()) as SidekickState;

  beforeAll(async () => {
    const scenarios = join(dir, 'scenarios');
    cpSync(resolve(import.meta.dirname, '../sidekick/scenarios'), scenarios, { recursive: true });
    for (const n of [110, 111]) {
      writeFileSync(
        join(scenarios, `own${n}.yaml`),
        [`name: sidekick-own-${n}`, 'hops:', '  - { v4: 10.251.131.1, v6: "fd00:251:131::1", rttMs: 0.4 }', '  - { v4: 10.251.131.66, v6: "fd00:251:131::66", rttMs: 3 }', `target: { v4: 10.251.131.${n}, v6: "fd00:251:131::${n}", rttMs: 5 }`, ''].join('\n'),
      );
    }
    hw = await startAppliance({ env: sidekickNetworkEnv(dir, scenarios, password) });
    cookie = await signIn(hw.url, 'admin', password);
  }, 120_000);
  afterAll(async () => {
    await hw?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says what Get Started will trace, without starting anything', async () => {
    expect((await plan()).map((s) => [s.Kind, s.Address])).toEqual([
      ['DefaultGateway', '10.251.131.1'],
      ['DnsResolver', '10.251.131.53'],
      ['ProviderEdge', ''],
      ['External1', '10.251.131.100'],
      ['External2', '10.251.131.101'],
    ]);
    expect((await plan())[2].Note).toMatch(/first hop with a public address/);
    expect((await state()).Stage).toBe(1);
    expect((await fetch(`${hw.url}/api/Sidekick/PlannedSources`)).status).toBe(401);
    expect((await call('/api/Sidekick/PlannedSources?agentId=999')).status).toBe(404);
  });

  it('shows the external sources in force in Settings > General and round-trips new ones', async () => {
    // The variable's sources are what the page shows while none is saved (what Sidekick uses).
    expect((await general()).values).toMatchObject({ SidekickExternalSource1: '10.251.131.100', SidekickExternalSource2: '10.251.131.101' });
    const bad = await save({ SidekickExternalSource1: 'not a host/' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).Error).toContain('ClientSettings.General.SidekickExternalSource1');
    expect((await save({ SidekickExternalSource1: '10.251.131.110', SidekickExternalSource2: '10.251.131.111' })).status).toBe(200);
    expect((await general()).values).toMatchObject({ SidekickExternalSource1: '10.251.131.110', SidekickExternalSource2: '10.251.131.111' });
    expect((await plan()).filter((s) => s.Kind.startsWith('External')).map((s) => s.Address)).toEqual(['10.251.131.110', '10.251.131.111']);
  });

  it('traces the configured external sources', async () => {
    expect((await call('/api/Sidekick/StartDiscovery')).status).toBe(204);
    await expect.poll(async () => (await state()).Stage, { timeout: 40_000, interval: 500 }).toBe(3);
    const s = await state();
    expect(s.Targets.map((t) => [t.Kind, t.OriginalTarget, t.WebTargetID !== ''])).toEqual([
      ['DefaultGateway', '10.251.131.1', true],
      ['DnsResolver', '10.251.131.53', true],
      ['ProviderEdge', '10.251.131.66', true],
      ['External1', '10.251.131.110', true],
      ['External2', '10.251.131.111', true],
    ]);
    // The traces reach those hosts: their final hop answers from the configured address.
    for (const t of s.Targets.filter((x) => x.Kind.startsWith('External'))) {
      await expect
        .poll(async () => {
          const r = await call(`/api/data/TraceGraphRows?listType=Target&uniqueID=${t.WebTargetID}&${encodeURIComponent('requests[0].ID')}=${t.WebTargetID}`);
          const rows = ((await r.json()) as { Rows: { IP: string }[] }).Rows;
          return rows.map((row) => row.IP);
        }, { timeout: 20_000, interval: 500 })
        .toContain(t.OriginalTarget);
    }
  });
});
