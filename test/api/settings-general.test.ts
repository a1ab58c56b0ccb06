// Settings > General taking effect on the server (issue 19): the create-comment option puts a
// comment on the target's graph when the route changes, and Dynamic DNS Off makes a target
// named by a DNS name keep its address. Runs on the simulated network with the route-change
// scenario (hop 2 moves to another router 6.5 s after the first probe), so it needs no root.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsNode } from '../../server/contract/settings.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

const scenario = resolve(import.meta.dirname, '../sim/scenarios/route-change.yaml');
const Target = '10.251.112.26';
let hw: Appliance;
let cookie: string;

const call = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
const general = (values: Record<string, SettingsNode['Value']>) => node('Root', [node('ClientSettings', [node('General', Object.entries(values).map(([k, v]) => leaf(k, v)))])]);
const saveGeneral = async (values: Record<string, SettingsNode['Value']>) => {
  const version = (await call('GET', '/api/Settings/getsettings')).body.Settings.Version;
  return call('POST', '/api/Settings/savesettings', { Version: version, Root: general(values) });
};

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'settings-general-pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenario } });
  cookie = await signIn(hw.url, 'admin', 'settings-general-pw');
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

describe('General settings', () => {
  it('with the create-comment option, a route change puts a comment on the graph at its time', async () => {
    expect((await saveGeneral({ CreateCommentOnRouteChange: true })).status).toBe(200);
    const t0 = Date.now();
    const started = await call('GET', `/cmd/newtarget?target=${Target}&traceInterval=1`);
    expect(started.status).toBe(200);
    const id = started.body.ID as number;
    let comments: { Text: string; When: string; ExtraAttributesJson: string }[] = [];
    const deadline = Date.now() + 30_000;
    while (!comments.length) {
      if (Date.now() > deadline) throw new Error('no route-change comment');
      await new Promise((r) => setTimeout(r, 500));
      comments = (await call('GET', `/cmd/getcomments?sessionWebId=${id}&startDate=${t0 - 60_000}&endDate=${Date.now() + 60_000}`)).body;
    }
    expect(comments[0].Text).toBe('Route changed at hop 2: 10.251.112.10 -> 10.251.112.242');
    expect(JSON.parse(comments[0].ExtraAttributesJson)).toEqual({ RouteChange: { Hop: 2, Previous: '10.251.112.10', Current: '10.251.112.242' } });
    expect(Date.parse(comments[0].When)).toBeGreaterThanOrEqual(t0);
    await call('GET', `/cmd/close?ID=${id}`);
  });

  it('Dynamic DNS mode Off marks new targets Off (they keep their address)', async () => {
    expect((await saveGeneral({ DynamicDnsMode: 0 })).status).toBe(200);
    const id = (await call('GET', `/cmd/newtarget?target=localhost&traceInterval=1`)).body?.ID as number | undefined;
    // localhost is outside the scenario; the target is still made (its trace reports NoRoute).
    expect(id).toBeDefined();
    const sessions = (await call('GET', '/api/Sessions')).body as { SessionID: number; DynamicDnsMode: number }[];
    expect(sessions.find((s) => s.SessionID === id)?.DynamicDnsMode).toBe(0);
    expect((await saveGeneral({ DynamicDnsMode: 1 })).status).toBe(200);
    const auto = (await call('GET', `/cmd/newtarget?target=localhost&traceInterval=1`)).body.ID as number;
    const again = (await call('GET', '/api/Sessions')).body as { SessionID: number; DynamicDnsMode: number }[];
    expect(again.find((s) => s.SessionID === auto)?.DynamicDnsMode).toBe(1);
  });
});

describe('General settings: without the create-comment option', () => {
  let other: Appliance;
  let otherCookie: string;
  beforeAll(async () => {
    other = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'settings-general-pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenario } });
    otherCookie = await signIn(other.url, 'admin', 'settings-general-pw');
  }, 120_000);
  afterAll(async () => {
    await other?.dispose();
  });

  it('a route change adds no comment (the default)', async () => {
    const get = async (path: string) => (await fetch(`${other.url}${path}`, { headers: { cookie: otherCookie } })).json();
    const t0 = Date.now();
    const id = (await get(`/cmd/newtarget?target=${Target}&traceInterval=1`)).ID as number;
    // Hop 2 answers from its first router, then (6.5 s in) from the other: the route changed.
    const seen: string[] = [];
    const deadline = Date.now() + 30_000;
    while (!(seen.includes('10.251.112.10') && seen.includes('10.251.112.242'))) {
      if (Date.now() > deadline) throw new Error(`no route change seen: ${seen.join(', ')}`);
      const rows = (await get(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`)).Rows as { HopNum: number; IP: string }[];
      const hop2 = rows.find((r) => r.HopNum === 2)?.IP;
      if (hop2 && !seen.includes(hop2)) seen.push(hop2);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seen).toEqual(['10.251.112.10', '10.251.112.242']);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await get(`/cmd/getcomments?sessionWebId=${id}&startDate=${t0 - 60_000}&endDate=${Date.now() + 60_000}`)).toEqual([]);
  });
});
