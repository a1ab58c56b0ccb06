// The remote-server packet type (ptTraceViaRemoteServer, issue 19 point 4) with two appliances on
// loopback: "here" has a configuration whose traces another Hopwatch ("there", on the simulated
// network) runs; here signs in to there, starts the target there and mirrors its rounds. A
// wrong address or password is refused by savesettings naming the setting, and by newtarget;
// the password never comes back to a console, never in a log line, and is stored sealed.
// Here reaches there on loopback because its operator opened loopback (HOPWATCH_WEBHOOK_ALLOW,
// the outbound address policy of webhooks); there, without that, refuses a loopback address.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testStore } from '../../server/store/testing/test-store.js';
import type { SettingsNode, SettingsResult } from '../../server/contract/settings.js';
import { LoopbackWebhooks } from '../alerts/support.js';
import { freePort, signIn, startAppliance, type Appliance } from '../support/appliance.js';

const TherePassword = 'there-root-pw-7';
const HerePassword = 'here-root-pw-7';
let there: Appliance;
let here: Appliance;
let hereCookie: string;
let thereCookie: string;
let configId: number;

async function call(hw: Appliance, cookie: string, method: string, path: string, body?: unknown) {
  const r = await fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, text, body: text ? JSON.parse(text) : null };
}
const callHere = (method: string, path: string, body?: unknown) => call(here, hereCookie, method, path, body);
const callThere = (method: string, path: string, body?: unknown) => call(there, thereCookie, method, path, body);

const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
const engine = (id: number, values: Record<string, SettingsNode['Value']>) =>
  node('Root', [node('ServerSettings', [node('Configurations', [node(String(id), [leaf('ID', id), ...Object.entries(values).map(([k, v]) => leaf(k, v))])])])]);
const settings = async () => (await callHere('GET', '/api/Settings/getsettings')).body as SettingsResult;
const saveEngine = async (values: Record<string, SettingsNode['Value']>) =>
  callHere('POST', '/api/Settings/savesettings', { Version: (await settings()).Settings.Version, Root: engine(configId, values) });
const engineValue = (s: SettingsResult, name: string) =>
  s.Settings.Root.Children.find((c) => c.Name === 'ServerSettings')!.Children[0].Children.find((c) => c.Name === String(configId))!.Children.find((c) => c.Name === name)!.Value;

async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

interface Sample { Time: string; Hop: number; IP: string; LatencyMs: number | null; Status: string }
interface Session { SessionID: number; TargetIP: string; State: number }

beforeAll(async () => {
  [there, here] = await Promise.all([
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: TherePassword, HOPWATCH_ENGINE: 'simulated' } }),
    startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: HerePassword, HOPWATCH_ENGINE: 'simulated', ...LoopbackWebhooks } }),
  ]);
  [hereCookie, thereCookie] = await Promise.all([signIn(here.url, 'admin', HerePassword), signIn(there.url, 'admin', TherePassword)]);
  const created = await callHere('POST', '/api/Settings/createnewconfig', {});
  expect(created.status).toBe(200);
  configId = created.body.NewConfigId;
}, 120_000);
afterAll(async () => {
  await Promise.all([here?.dispose(), there?.dispose()]);
});

describe('the remote-server packet type', () => {
  it('is offered by getpackettypes with the id ptTraceViaRemoteServer', async () => {
    const types = (await callHere('POST', '/api/Settings/getpackettypes')).body as { ID: string; Name: string; GenericPacketType: number }[];
    expect(types.find((t) => t.ID === 'ptTraceViaRemoteServer')).toMatchObject({ Name: 'Remote server', GenericPacketType: 3 });
  });

  it('saves the type first (the editor shows its fields after that); a target of it is refused until they are set', async () => {
    const r = await saveEngine({ PacketType: 'Remote server' });
    expect(r.status).toBe(200);
    expect(engineValue(r.body, 'PacketType')).toBe('Remote server');
    const refused = await callHere('GET', `/cmd/newtarget?target=127.0.0.1&configID=${configId}&traceInterval=1`);
    expect(refused.status).toBe(409);
    expect(refused.body.Error).toBe("This target's configuration traces via a remote server, but its address, user name or password is not set: set them in Settings, the configuration's Engine page.");
    const notUrl = await saveEngine({ RemoteServerAddress: 'ftp://x', RemoteServerUserName: 'admin', RemoteServerPassword: TherePassword });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.Error).toBe(`Setting ServerSettings.Configurations.${configId}.RemoteServerAddress: must start with http:// or https://`);
    expect(engineValue(await settings(), 'RemoteServerAddress')).toBe('');
  });

  it('refuses an address where no Hopwatch answers, and wrong credentials, saving nothing', async () => {
    const closed = await freePort();
    const unreachable = await saveEngine({ PacketType: 'Remote server', RemoteServerAddress: `http://127.0.0.1:${closed}`, RemoteServerUserName: 'admin', RemoteServerPassword: TherePassword });
    expect(unreachable.status).toBe(400);
    // The class of failure only, never the system's code.
    expect(unreachable.body.Error).toBe(`Setting ServerSettings.Configurations.${configId}.RemoteServerAddress: the remote Hopwatch at http://127.0.0.1:${closed} cannot be reached (connection refused). Check the address and that it answers over the network from this server.`);
    const wrong = await saveEngine({ PacketType: 'Remote server', RemoteServerAddress: there.url, RemoteServerUserName: 'admin', RemoteServerPassword: 'not-the-password-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.Error).toBe(`Setting ServerSettings.Configurations.${configId}.RemoteServerPassword: the remote Hopwatch at ${there.url} refused the user name or password (401).`);
    const s = await settings();
    expect(engineValue(s, 'RemoteServerAddress')).toBe('');
    expect(engineValue(s, 'RemoteServerPassword')).toBe('');
  });

  it('refuses a remote server on loopback where the operator did not open it (HOPWATCH_WEBHOOK_ALLOW), connecting nowhere', async () => {
    // There runs without the allow list: here's address (127.0.0.1) is refused before any connection.
    const made = await callThere('POST', '/api/Settings/createnewconfig', {});
    expect(made.status).toBe(200);
    const id = made.body.NewConfigId as number;
    const saveThere = async (values: Record<string, SettingsNode['Value']>) => {
      const version = ((await callThere('GET', '/api/Settings/getsettings')).body as SettingsResult).Settings.Version;
      const root = node('Root', [node('ServerSettings', [node('Configurations', [node(String(id), [leaf('ID', id), ...Object.entries(values).map(([k, v]) => leaf(k, v))])])])]);
      return callThere('POST', '/api/Settings/savesettings', { Version: version, Root: root });
    };
    expect((await saveThere({ PacketType: 'Remote server' })).status).toBe(200);
    // Here logs each sign-in ("signed in"): none comes from there.
    const signIns = () => (here.output().match(/signed in/g) ?? []).length;
    const signInsBefore = signIns();
    const refused = await saveThere({ RemoteServerAddress: here.url, RemoteServerUserName: 'admin', RemoteServerPassword: HerePassword });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      Error: `Setting ServerSettings.Configurations.${id}.RemoteServerAddress: the remote server address 127.0.0.1 is refused: loopback; set HOPWATCH_WEBHOOK_ALLOW to allow it.`,
    });
    expect(signIns()).toBe(signInsBefore);
  });

  it('saves a working access; the password comes back only as a mask and is not stored in clear', async () => {
    const r = await saveEngine({ PacketType: 'Remote server', RemoteServerAddress: there.url, RemoteServerUserName: 'admin', RemoteServerPassword: TherePassword });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(TherePassword);
    const s = await settings();
    expect(engineValue(s, 'PacketType')).toBe('Remote server');
    expect(engineValue(s, 'RemoteServerAddress')).toBe(there.url);
    expect(engineValue(s, 'RemoteServerPassword')).toBe('\u2022'.repeat(8));
    expect(JSON.stringify(s)).not.toContain(TherePassword);
    // A save that sends the mask back (or leaves the password out) keeps the stored one.
    expect((await saveEngine({ RemoteServerUserName: 'admin', RemoteServerPassword: '\u2022'.repeat(8) })).status).toBe(200);
    // The screen and traits carry no value at all.
    const screen = await callHere('GET', `/cmd/getscreen?screenName=Engine&configId=${configId}`);
    expect(screen.text).not.toContain(TherePassword);
  });

  it('runs a target on the other appliance and mirrors its rounds here', async () => {
    const started = await callHere('GET', `/cmd/newtarget?target=127.0.0.1&configID=${configId}&traceInterval=1`);
    expect(started.status).toBe(200);
    const id = started.body.ID as number;
    // The target there: started by this appliance's sign-in, to the same address.
    const remote = await until('the target on the other appliance', async () => {
      const list = (await callThere('GET', '/api/Sessions')).body as Session[];
      return list.find((x) => x.TargetIP === '127.0.0.1' && x.State === 0);
    });
    const mirrored = await until('mirrored samples', async () => {
      const r = await callHere('GET', `/api/data/SamplesReport?ID=${id}`);
      const ok = (r.body.Samples as Sample[]).filter((x) => x.Status === 'ok');
      return ok.length >= 3 ? ok : undefined;
    });
    const theirs = (await callThere('GET', `/api/data/SamplesReport?ID=${remote.SessionID}`)).body.Samples as Sample[];
    // Every sample here is one of there's: same time, hop, address and latency.
    const key = (x: Sample) => `${x.Time}|${x.Hop}|${x.IP}|${x.LatencyMs}`;
    const theirKeys = new Set(theirs.map(key));
    for (const x of mirrored) expect(theirKeys.has(key(x))).toBe(true);
    expect(mirrored[0]).toMatchObject({ Hop: 1, IP: '127.0.0.1' });

    // Pause and close here pause and close the target there.
    expect((await callHere('GET', `/cmd/stoptrace?ID=${id}`)).status).toBe(204);
    await until('the target there paused', async () => {
      const list = (await callThere('GET', '/api/Sessions')).body as Session[];
      return list.find((x) => x.SessionID === remote.SessionID && x.State === 1);
    });
    expect((await callHere('GET', `/cmd/close?ID=${id}`)).status).toBe(204);
    await until('the target there closed', async () => {
      const list = (await callThere('GET', '/api/Sessions')).body as Session[];
      return list.find((x) => x.SessionID === remote.SessionID && x.State === 2);
    });
  });

  it('never writes the password to a log line or in clear to the data directory', async () => {
    expect(here.output()).not.toContain(TherePassword);
    const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
    for (const f of files(here.dataDir)) expect(readFileSync(f).includes(Buffer.from(TherePassword)), f).toBe(false);
    if (testStore() === 'duckdb') {
      expect(files(here.dataDir).some((f) => f.endsWith('remote-server.key'))).toBe(true);
      return;
    }
    // PostgreSQL: the key is a row every replica reads (server/store/server-keys.ts), the stored configuration holds no clear password.
    const db = new pg.Client(await testDatabaseUrl(here.dataDir));
    await db.connect();
    try {
      expect((await db.query(`SELECT name FROM server_keys WHERE name = 'remote-server.key'`)).rowCount).toBe(1);
      expect((await db.query('SELECT id FROM configurations WHERE engine_json LIKE $1', [`%${TherePassword}%`])).rowCount).toBe(0);
    } finally {
      await db.end();
    }
  });

  it('refuses to start a target when the other appliance no longer answers', async () => {
    await there.stop();
    const r = await callHere('GET', `/cmd/newtarget?target=127.0.0.1&configID=${configId}&traceInterval=1`);
    expect(r.status).toBe(502);
    expect(r.body.Error).toMatch(/traces via a remote server, and the remote Hopwatch at .* cannot be reached \(connection refused\)/);
  });
});
