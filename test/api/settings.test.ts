// The settings editor's calls over real HTTP (spec 2 section 7 "Sessions and settings"):
// getsettings / getsettingtraits shapes, savesettings (only changed values, validated naming the
// setting path, all or nothing, version conflicts), cloneconfig / createnewconfig / deleteconfig,
// getpackettypes, getnetworkinterfaces, GET /cmd/getscreen (escaped HTML) and SettingsChanged.
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';
import { createWebUser } from '../support/web-users.js';
import type { SettingsNode, SettingsResult, Trait, TraitNode } from '../../server/contract/settings.js';

const RootPassword = 'settings-root-pw';
let hw: Appliance;
let admin: string;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  admin = await signIn(hw.url, 'admin', RootPassword);
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

async function call(method: string, path: string, body?: unknown, cookie = admin) {
  const r = await fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}
const getSettings = async () => (await call('GET', '/api/Settings/getsettings')).body as SettingsResult;

const child = (n: SettingsNode, name: string) => n.Children.find((c) => c.Name === name)!;
const at = (root: SettingsNode, path: string) => path.split('.').reduce(child, root);
const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
/** A save tree with changed values of one configuration in one list. */
function changed(list: 'ClientSettings' | 'ServerSettings', id: number, values: Record<string, SettingsNode['Value']>): SettingsNode {
  const item = node(String(id), [leaf('ID', id), ...Object.entries(values).map(([k, v]) => leaf(k, v))]);
  return node('Root', [node(list, [node('Configurations', [item])])]);
}
async function save(root: SettingsNode, version?: number) {
  return call('POST', '/api/Settings/savesettings', { Version: version ?? (await getSettings()).Settings.Version, Root: root });
}

describe('getsettings and getsettingtraits', () => {
  it('answers the Settings tree: Aliases, Root with General and the parallel configuration lists', async () => {
    const s = await getSettings();
    expect(Object.keys(s.Settings.Aliases)).toEqual(expect.arrayContaining(['General', 'Display', 'Engine']));
    const root = s.Settings.Root;
    expect(root).toMatchObject({ Name: 'Root', ComplexType: 'Settings', Value: null });
    expect(at(root, 'ClientSettings.General.DynamicDnsMode')).toEqual({ Name: 'DynamicDnsMode', Type: 4, ComplexType: '', Children: [], Value: 1 });
    expect(at(root, 'ClientSettings.Configurations').Type).toBe(14);
    const client = at(root, 'ClientSettings.Configurations.1');
    expect(client.Children.map((c) => c.Name)).toEqual(['ID', 'Name', 'Description', 'Warn', 'Bad', 'Scale']);
    expect(at(root, 'ClientSettings.Configurations.1.Warn')).toMatchObject({ Type: 10, Value: 100 });
    const server = at(root, 'ServerSettings.Configurations.1');
    expect(server.Children.map((c) => [c.Name, c.Value])).toEqual([
      ['ID', 1], ['Name', 'Default'], ['PacketType', 'ICMP'], ['TcpPort', 80], ['UdpBeginPort', 33434], ['UdpEndPort', 33534],
      ['PacketSize', 56], ['Timeout', expect.any(Number)], ['InterHopDelay', 0], ['NetworkInterface', ''], ['AllowFragmentation', false],
      ['FinalHopOnly', false], ['Dscp', 0], ['RemoteServerAddress', ''], ['RemoteServerUserName', ''], ['RemoteServerPassword', ''],
    ]);
  });

  it('answers a trait per setting with the spec\'s fields, configuration paths with *', async () => {
    const r = await call('GET', '/api/Settings/getsettingtraits');
    expect(r.status).toBe(200);
    const traits: Trait[] = [];
    const walk = (n: TraitNode) => (n.Trait && traits.push(n.Trait), n.Children.forEach(walk));
    walk(r.body.Root);
    const tcp = traits.find((t) => t.Setting === 'ServerSettings.Configurations.*.TcpPort')!;
    expect(Object.keys(tcp).sort()).toEqual(['Attributes', 'Content', 'Hint', 'Label', 'Name', 'Setting', 'Type', 'Validation']);
    expect(tcp.Hint).toBe('1-65535');
    expect(tcp.Attributes.Items.map((i) => i.Value)).toEqual([80, 53, 21, 443]);
    expect(traits.find((t) => t.Setting === 'ClientSettings.Configurations.*.Name')!.Attributes.MaxChars).toBe(50);
  });
});

describe('savesettings', () => {
  it('saves only the changed values and answers the new tree with the next version', async () => {
    const before = await getSettings();
    const r = await save(changed('ClientSettings', 1, { Warn: 80 }), before.Settings.Version);
    expect(r.status).toBe(200);
    expect(r.body.Settings.Version).toBe(before.Settings.Version + 1);
    expect(at(r.body.Settings.Root, 'ClientSettings.Configurations.1.Warn').Value).toBe(80);
    expect(at(r.body.Settings.Root, 'ClientSettings.Configurations.1.Bad').Value).toBe(250);
    const display = await call('GET', '/api/data/DisplaySettings?configId=1');
    expect(display.body).toMatchObject({ Warn: 80, Bad: 250 });
  });

  it('refuses a bad value naming its setting path, and changes nothing (all or nothing)', async () => {
    const before = await getSettings();
    const root = changed('ServerSettings', 1, { TcpPort: 70000, PacketType: 'TCP' });
    const r = await save(root, before.Settings.Version);
    expect(r.status).toBe(400);
    expect(r.body.Error).toContain('Setting ServerSettings.Configurations.1.TcpPort: must be an integer from 1 to 65535');
    const after = await getSettings();
    expect(at(after.Settings.Root, 'ServerSettings.Configurations.1.PacketType').Value).toBe('ICMP');
    expect(after.Settings.Version).toBe(before.Settings.Version);
  });

  it('refuses wrong types, unknown paths, a missing ID and cross-field rules', async () => {
    const cases: [SettingsNode, number, string][] = [
      [changed('ServerSettings', 1, { Timeout: '2000' }), 400, 'Setting ServerSettings.Configurations.1.Timeout: must be an integer'],
      [changed('ServerSettings', 1, { Timeout: 2.5 }), 400, 'Setting ServerSettings.Configurations.1.Timeout: must be an integer'],
      [changed('ClientSettings', 1, { Loud: true }), 400, 'Setting ClientSettings.Configurations.1.Loud not found'],
      [changed('ClientSettings', 9999, { Warn: 10 }), 404, 'Setting ClientSettings.Configurations.9999 not found'],
      [node('Root', [node('ClientSettings', [node('Elsewhere', [])])]), 400, 'Setting ClientSettings.Elsewhere not found'],
      [node('Root', [node('ClientSettings', [node('Configurations', [node('1', [leaf('Warn', 10)])])])]), 400, 'Setting ClientSettings.Configurations.1.ID is required'],
      [changed('ClientSettings', 1, { Bad: 50 }), 400, 'Setting ClientSettings.Configurations.1.Warn: must be below the critical level (50 ms)'],
      [changed('ServerSettings', 1, { UdpBeginPort: 40000, UdpEndPort: 39000 }), 400, 'Setting ServerSettings.Configurations.1.UdpEndPort: must not be below the beginning port (40000)'],
      [changed('ClientSettings', 1, { Name: '' }), 400, 'Setting ClientSettings.Configurations.1.Name: must not be empty'],
      [changed('ClientSettings', 1, { Scale: -5 }), 400, 'Setting ClientSettings.Configurations.1.Scale: must be 0 (automatic), -2'],
      [node('Root', [node('ClientSettings', [node('General', [leaf('DynamicDnsMode', 3)])])]), 400, 'Setting ClientSettings.General.DynamicDnsMode: must be 0 (Off) or 1 (Auto)'],
    ];
    for (const [root, status, message] of cases) {
      const r = await save(root);
      expect(r.status, JSON.stringify(root)).toBe(status);
      expect(r.body.Error).toContain(message);
    }
  });

  it('refuses a body without Version or Root, or with a Root that is no tree', async () => {
    expect((await call('POST', '/api/Settings/savesettings', { Root: node('Root', []) })).status).toBe(400);
    expect((await call('POST', '/api/Settings/savesettings', { Version: 1 })).status).toBe(400);
    const r = await call('POST', '/api/Settings/savesettings', { Version: (await getSettings()).Settings.Version, Root: { Children: 3 } });
    expect(r.status).toBe(400);
    expect(typeof r.body.Error).toBe('string');
  });

  it('gives the second of two consoles saving from the same version a clear 409, and keeps the first change', async () => {
    const version = (await getSettings()).Settings.Version;
    const [a, b] = await Promise.all([save(changed('ClientSettings', 1, { Warn: 90 }), version), save(changed('ClientSettings', 1, { Bad: 300 }), version)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.Error).toMatch(/changed in another console/);
    const now = await getSettings();
    expect(now.Settings.Version).toBe(version + 1);
    // The winner's change is there, the loser's is not.
    const warn = at(now.Settings.Root, 'ClientSettings.Configurations.1.Warn').Value;
    const bad = at(now.Settings.Root, 'ClientSettings.Configurations.1.Bad').Value;
    expect(a.status === 200 ? [warn, bad] : [warn, bad]).toEqual(a.status === 200 ? [90, 250] : [80, 300]);
  });

  it('keeps both changes when the console that got the conflict saves its edits again on the new version', async () => {
    const version = (await getSettings()).Settings.Version;
    const edits = [changed('ClientSettings', 1, { Description: 'set by console A' }), changed('ClientSettings', 1, { Scale: 150 })];
    const answers = await Promise.all(edits.map((e) => save(e, version)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = edits[answers.findIndex((r) => r.status === 409)];
    // The console reloads (its edits kept) and saves them again on the version it now has.
    const again = await save(loser, (await getSettings()).Settings.Version);
    expect(again.status).toBe(200);
    const now = (await getSettings()).Settings.Root;
    expect(at(now, 'ClientSettings.Configurations.1.Description').Value).toBe('set by console A');
    expect(at(now, 'ClientSettings.Configurations.1.Scale').Value).toBe(150);
  });

  it('lets exactly one of many saves from the same version through', async () => {
    const version = (await getSettings()).Settings.Version;
    const answers = await Promise.all([110, 120, 130, 140, 160].map((scale) => save(changed('ClientSettings', 1, { Scale: scale }), version)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(4);
    expect((await getSettings()).Settings.Version).toBe(version + 1);
  });

  it('refuses callers without SettingsManagement and callers not signed in', async () => {
    expect((await call('POST', '/api/Settings/savesettings', { Version: 1, Root: node('Root', []) }, '')).status).toBe(401);
    await createWebUser(hw.url, admin, { email: 'viewer@example.org', password: 'watch-only-9' });
    const viewer = await signIn(hw.url, 'viewer@example.org', 'watch-only-9');
    const r = await call('POST', '/api/Settings/savesettings', { Version: 1, Root: node('Root', []) }, viewer);
    expect(r.status).toBe(403);
    expect((await call('GET', '/api/Settings/getsettings', undefined, viewer)).status).toBe(200);
    expect((await call('GET', '/cmd/getscreen?screenName=General', undefined, viewer)).status).toBe(403);
  });
});

describe('cloneconfig, createnewconfig and deleteconfig', () => {
  it('clones a configuration with its values and a new name, saving the changes sent with it', async () => {
    const s = await getSettings();
    const r = await call('POST', '/api/Settings/cloneconfig?configId=1', { Version: s.Settings.Version, Root: changed('ClientSettings', 1, { Description: 'edited before the clone' }) });
    expect(r.status).toBe(200);
    const id = r.body.NewConfigId as number;
    const root = r.body.Settings.Root as SettingsNode;
    expect(at(root, `ClientSettings.Configurations.${id}.Name`).Value).toBe('Copy of Default');
    expect(at(root, `ClientSettings.Configurations.${id}.Description`).Value).toBe('edited before the clone');
    expect(at(root, `ClientSettings.Configurations.${id}.Warn`).Value).toBe(at(root, 'ClientSettings.Configurations.1.Warn').Value);
    expect(at(root, 'ServerSettings.Configurations').Children.at(-1)!.Name).toBe(String(id));
    expect((await call('POST', '/api/Settings/cloneconfig?configId=9999', {})).status).toBe(404);
  });

  it('creates a configuration with the defaults; the settings list names it', async () => {
    const r = await call('POST', '/api/Settings/createnewconfig', {});
    expect(r.status).toBe(200);
    const id = r.body.NewConfigId as number;
    expect(at(r.body.Settings.Root, `ServerSettings.Configurations.${id}.PacketType`).Value).toBe('ICMP');
    expect(at(r.body.Settings.Root, `ClientSettings.Configurations.${id}.Bad`).Value).toBe(250);
    const list = (await call('GET', '/cmd/getsettingslist')).body as { id: number; name: string }[];
    expect(list.map((x) => x.name)).toContain('New configuration');
  });

  it('reorders the configurations when a save lists every one of them', async () => {
    const s = await getSettings();
    const ids = at(s.Settings.Root, 'ServerSettings.Configurations').Children.map((c) => Number(c.Name));
    const reversed = [...ids].reverse();
    const root = node('Root', [node('ServerSettings', [node('Configurations', reversed.map((id) => node(String(id), [leaf('ID', id)])))])]);
    const r = await save(root, s.Settings.Version);
    expect(r.status).toBe(200);
    expect(at(r.body.Settings.Root, 'ClientSettings.Configurations').Children.map((c: SettingsNode) => Number(c.Name))).toEqual(reversed);
    expect(((await call('GET', '/cmd/getsettingslist')).body as { id: number }[]).map((x) => x.id)).toEqual(reversed);
  });

  it('deletes a configuration, but never the last one', async () => {
    let s = await getSettings();
    const ids = at(s.Settings.Root, 'ServerSettings.Configurations').Children.map((c) => Number(c.Name));
    for (const id of ids.slice(1)) {
      const r = await call('POST', `/api/Settings/deleteconfig?configId=${id}`);
      expect(r.status).toBe(200);
    }
    s = await getSettings();
    expect(at(s.Settings.Root, 'ServerSettings.Configurations').Children).toHaveLength(1);
    const last = await call('POST', `/api/Settings/deleteconfig?configId=${ids[0]}`);
    expect(last.status).toBe(409);
    expect(last.body.Error).toMatch(/last configuration cannot be deleted/);
    expect((await call('POST', '/api/Settings/deleteconfig?configId=9999')).status).toBe(404);
  });
});

describe('packet types, interfaces and screens', () => {
  it('answers the packet types with ID, Name, GenericPacketType and RequiredLicenseMode', async () => {
    const r = await call('POST', '/api/Settings/getpackettypes');
    expect(r.status).toBe(200);
    expect(r.body.map((t: { Name: string; GenericPacketType: number }) => [t.Name, t.GenericPacketType])).toEqual([['ICMP', 0], ['UDP', 1], ['TCP', 2], ['Remote server', 3]]);
    expect(Object.keys(r.body[0]).sort()).toEqual(['GenericPacketType', 'ID', 'Name', 'RequiredLicenseMode']);
  });

  it('answers the interfaces of the machine that traces: this server for Local Machine', async () => {
    const r = await call('POST', '/api/Settings/getnetworkinterfaces');
    expect(r.status).toBe(200);
    const ids = r.body.map((i: { ID: string }) => i.ID);
    expect(ids[0]).toBe('');
    expect(ids.slice(1).sort()).toEqual(Object.keys(networkInterfaces()).sort());
    expect((await call('POST', '/api/Settings/getnetworkinterfaces?agentId=4242')).status).toBe(404);
  });

  it('renders a screen with its traits, and the configuration name escaped: no markup from a setting', async () => {
    const s = await getSettings();
    const id = Number(at(s.Settings.Root, 'ServerSettings.Configurations').Children[0].Name);
    const evil = '<img src=x onerror="alert(1)">';
    expect((await save(changed('ClientSettings', id, { Name: evil }), s.Settings.Version)).status).toBe(200);
    const r = await call('GET', `/cmd/getscreen?screenName=Engine&configId=${id}`);
    expect(r.status).toBe(200);
    expect(r.body.html).not.toContain('<img');
    expect(r.body.html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    const traits = JSON.parse(r.body.serializedTraits) as Trait[];
    expect(traits.map((t) => t.Name)).toContain('TcpPort');
    expect(traits[0].Setting).toBe(`ServerSettings.Configurations.${id}.PacketType`);
    expect((await call('GET', '/cmd/getscreen?screenName=Nowhere')).status).toBe(404);
    expect((await call('GET', '/cmd/getscreen?screenName=Display')).status).toBe(400);
  });
});
