// Settings > General's appliance settings (issue 21 point 5, issue 25 points 2 and 3): Insights
// on/off and the retention days travel in getsettings/savesettings like the account's General
// settings, are stored for the whole appliance (storage_settings), take effect at once
// (/api/app/config's InsightsEnabled, the retention in force of /api/settings/storage), are
// checked with the setting's path, and an environment variable overrides them with the traits
// saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsNode, Trait, TraitNode } from '../../server/contract/settings.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

const General = 'ClientSettings.General';
const NoOverrides = { HOPWATCH_INSIGHTS: '', HOPWATCH_RETENTION_RAW_DAYS: '', HOPWATCH_RETENTION_MINUTE_DAYS: '' };

interface Console {
  hw: Appliance;
  cookie: string;
}

const call = async (c: Console, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${c.hw.url}${path}`, {
    method,
    headers: { cookie: c.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
const generalTree = (values: Record<string, SettingsNode['Value']>) => node('Root', [node('ClientSettings', [node('General', Object.entries(values).map(([k, v]) => leaf(k, v)))])]);

async function readGeneral(c: Console): Promise<{ version: number; values: Record<string, SettingsNode['Value']> }> {
  const r = await call(c, 'GET', '/api/Settings/getsettings');
  expect(r.status).toBe(200);
  const client = (r.body.Settings.Root as SettingsNode).Children.find((n) => n.Name === 'ClientSettings')!;
  const general = client.Children.find((n) => n.Name === 'General')!;
  return { version: r.body.Settings.Version, values: Object.fromEntries(general.Children.map((n) => [n.Name, n.Value])) };
}
const saveGeneral = async (c: Console, values: Record<string, SettingsNode['Value']>) =>
  call(c, 'POST', '/api/Settings/savesettings', { Version: (await readGeneral(c)).version, Root: generalTree(values) });
const insightsEnabled = async (c: Console) => (await call(c, 'GET', '/api/app/config')).body.InsightsEnabled as boolean;

async function generalTraits(c: Console): Promise<Record<string, Trait>> {
  const r = await call(c, 'GET', '/api/Settings/getsettingtraits');
  expect(r.status).toBe(200);
  const general = (r.body.Root as TraitNode).Children.find((n) => n.Name === 'ClientSettings')!.Children.find((n) => n.Name === 'General')!;
  return Object.fromEntries(general.Children.map((n) => [n.Name, n.Trait!]));
}

async function start(env: Record<string, string>, password: string): Promise<Console> {
  const hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', ...env } });
  return { hw, cookie: await signIn(hw.url, 'admin', password) };
}

describe('appliance settings on Settings > General', () => {
  let c: Console;
  beforeAll(async () => {
    c = await start(NoOverrides, 'appliance-settings-pw');
  }, 120_000);
  afterAll(async () => {
    await c?.hw.dispose();
  });

  it('are offered with their defaults: Insights off, raw samples 30 days, 1-minute rollups 400 days', async () => {
    const { values } = await readGeneral(c);
    expect(values).toMatchObject({ Insights: false, RetentionRawDays: 30, RetentionMinuteDays: 400, DynamicDnsMode: 1 });
    expect(await insightsEnabled(c)).toBe(false);
    const traits = await generalTraits(c);
    expect(traits.RetentionRawDays).toMatchObject({ Setting: `${General}.RetentionRawDays`, Validation: 'integer days 1-36500' });
    expect(traits.Insights.Attributes.OverriddenBy).toBeUndefined();
    const screen = await call(c, 'GET', '/cmd/getscreen?screenName=General');
    expect((JSON.parse(screen.body.serializedTraits) as Trait[]).map((t) => t.Name)).toEqual(expect.arrayContaining(['Insights', 'RetentionRawDays', 'RetentionMinuteDays']));
  });

  it('a save stores them, reads them back and they take effect at once', async () => {
    const saved = await saveGeneral(c, { Insights: true, RetentionRawDays: 7, RetentionMinuteDays: 90, CreateCommentOnRouteChange: true });
    expect(saved.status).toBe(200);
    expect((await readGeneral(c)).values).toMatchObject({ Insights: true, RetentionRawDays: 7, RetentionMinuteDays: 90, CreateCommentOnRouteChange: true });
    expect(await insightsEnabled(c)).toBe(true);
    const storage = await call(c, 'GET', '/api/settings/storage');
    expect(storage.status).toBe(200);
    expect(storage.body).toMatchObject({ RetentionRawDays: 7, RetentionMinuteDays: 90 });

    expect((await saveGeneral(c, { Insights: false })).status).toBe(200);
    expect(await insightsEnabled(c)).toBe(false);
    expect((await readGeneral(c)).values).toMatchObject({ Insights: false, RetentionRawDays: 7, CreateCommentOnRouteChange: true });
  });

  it('refuses bad values naming each setting path, and writes nothing', async () => {
    const before = (await readGeneral(c)).values;
    const r = await saveGeneral(c, { Insights: 'yes', RetentionRawDays: 0, RetentionMinuteDays: 36501, DynamicDnsMode: 0 });
    expect(r.status).toBe(400);
    const lines = (r.body.Error as string).split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        `Setting ${General}.Insights: must be true or false`,
        `Setting ${General}.RetentionRawDays: must be an integer from 1 to 36500`,
        `Setting ${General}.RetentionMinuteDays: must be an integer from 1 to 36500`,
      ]),
    );
    expect(lines).toHaveLength(3);
    expect((await readGeneral(c)).values).toEqual(before);
    expect((await saveGeneral(c, { RetentionRawDays: 2.5 })).status).toBe(400);
  });
});

describe('appliance settings under environment overrides', () => {
  let c: Console;
  beforeAll(async () => {
    c = await start({ ...NoOverrides, HOPWATCH_INSIGHTS: '0', HOPWATCH_RETENTION_RAW_DAYS: '5' }, 'appliance-override-pw');
  }, 120_000);
  afterAll(async () => {
    await c?.hw.dispose();
  });

  it('the traits say which variable overrides which setting', async () => {
    const traits = await generalTraits(c);
    expect(traits.Insights.Attributes.OverriddenBy).toContain('HOPWATCH_INSIGHTS=false');
    expect(traits.RetentionRawDays.Attributes.OverriddenBy).toContain('HOPWATCH_RETENTION_RAW_DAYS=5');
    expect(traits.RetentionMinuteDays.Attributes.OverriddenBy).toBeUndefined();
    const screen = await call(c, 'GET', '/cmd/getscreen?screenName=General');
    const insights = (JSON.parse(screen.body.serializedTraits) as Trait[]).find((t) => t.Name === 'Insights')!;
    expect(insights.Attributes.OverriddenBy).toContain('HOPWATCH_INSIGHTS=false');
  });

  it('a save is stored but the variable stays in force', async () => {
    expect((await saveGeneral(c, { Insights: true, RetentionRawDays: 9, RetentionMinuteDays: 60 })).status).toBe(200);
    expect((await readGeneral(c)).values).toMatchObject({ Insights: true, RetentionRawDays: 9, RetentionMinuteDays: 60 });
    expect(await insightsEnabled(c)).toBe(false);
    expect((await call(c, 'GET', '/api/settings/storage')).body).toMatchObject({ RetentionRawDays: 5, RetentionMinuteDays: 60 });
  });
});
