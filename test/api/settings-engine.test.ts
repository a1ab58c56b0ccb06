// What saved settings do to running targets (issue 19 part 3): saving a configuration's engine
// settings restarts its running targets with them at once; /cmd/updateConfigurationId moves a
// target to another configuration's engine settings; every console of the account hears
// SettingsChanged. Topology id 80: router 1 drops ICMP echo requests, so an ICMP trace never
// reaches the target and a UDP or TCP one does. As root the chain is network namespaces and
// nftables counts what reaches the target on TCP port 443; otherwise its simulated twin.
import { execFileSync } from 'node:child_process';
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsNode, SettingsResult } from '../../server/contract/settings.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { traceNetwork, type TraceNetwork } from '../support/trace-network.js';

const TopologyId = 80;
let topo: TraceNetwork;
let hw: Appliance;
let cookie: string;
let id: number;

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
const engineChange = (configId: number, values: Record<string, SettingsNode['Value']>) =>
  node('Root', [node('ServerSettings', [node('Configurations', [node(String(configId), [leaf('ID', configId), ...Object.entries(values).map(([k, v]) => leaf(k, v))])])])]);
const version = async () => ((await call('GET', '/api/Settings/getsettings')).body as SettingsResult).Settings.Version;

type Row = { HopNum: number; IP: string; GoodCount: number };
const rows = async (): Promise<Row[]> =>
  (await call('GET', `/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`)).body.Rows.slice(1);
const targetAnswers = async () => (await rows()).find((r) => r.IP === topo.target.v4)?.GoodCount ?? 0;
async function until(what: string, ok: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Packets to TCP port 443 that reached the target namespace (root only). */
function tcp443AtTarget(): number {
  const out = execFileSync('ip', ['netns', 'exec', `hw${TopologyId}-t`, 'nft', 'list', 'chain', 'ip', 'hwsettings', 'in'], { encoding: 'utf8' });
  return Number(/packets (\d+)/.exec(out)?.[1] ?? 'NaN');
}

beforeAll(async () => {
  topo = traceNetwork({ id: TopologyId, routers: 2, icmpFirewallAtHop1: true });
  if (!topo.simulated) {
    execFileSync('ip', ['netns', 'exec', `hw${TopologyId}-t`, 'nft', '-f', '-'], {
      input: 'table ip hwsettings {\n chain in {\n type filter hook input priority 0;\n tcp dport 443 counter\n }\n}\n',
    });
  }
  const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
  hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: 'settings-engine-pw', ...topo.env } });
  cookie = await signIn(hw.url, 'admin', 'settings-engine-pw');
  const started = await call('GET', `/cmd/newtarget?target=${topo.target.v4}&traceInterval=0.5`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  id = started.body.ID;
  await until('hop 1 answering', async () => ((await rows()).find((r) => r.HopNum === 1)?.GoodCount ?? 0) >= 3);
}, 120_000);

afterAll(async () => {
  await hw?.dispose();
  topo?.destroy();
});

describe('saved engine settings drive the running targets', () => {
  it('an ICMP trace does not get past the firewall; saving UDP on its configuration restarts it and it reaches the target', async () => {
    expect(await targetAnswers()).toBe(0);
    const r = await call('POST', '/api/Settings/savesettings', { Version: await version(), Root: engineChange(1, { PacketType: 'UDP' }) });
    expect(r.status).toBe(200);
    await until('the target answering UDP probes', async () => (await targetAnswers()) > 0);
  });

  it('switching the target to a second configuration (TCP port 443) sends TCP SYNs to port 443', async () => {
    const created = await call('POST', '/api/Settings/createnewconfig', {});
    const https = created.body.NewConfigId as number;
    const saved = await call('POST', '/api/Settings/savesettings', {
      Version: await version(),
      Root: engineChange(https, { PacketType: 'TCP', TcpPort: 443, PacketSize: 40, Timeout: 300 }),
    });
    expect(saved.status).toBe(200);
    if (!topo.simulated) expect(tcp443AtTarget()).toBe(0);
    const answersBefore = await targetAnswers();
    const switched = await call('GET', `/cmd/updateConfigurationId?webId=${id}&configId=${https}`);
    expect(switched.status).toBe(204);
    const details = (await call('GET', `/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`)).body.Details;
    expect(details.ConfigurationID).toBe(https);
    // The closed port answers the SYNs with resets: the target still answers, now to TCP.
    await until('the target answering TCP probes', async () => (await targetAnswers()) > answersBefore + 2);
    if (!topo.simulated) expect(tcp443AtTarget()).toBeGreaterThan(0);
  });

  it('every console of the account hears SettingsChanged when settings are saved', async () => {
    const hub = new HubConnectionBuilder()
      .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    let heard = 0;
    hub.on('SettingsChanged', () => heard++);
    await hub.start();
    try {
      const r = await call('POST', '/api/Settings/savesettings', {
        Version: await version(),
        Root: node('Root', [node('ClientSettings', [node('Configurations', [node('1', [leaf('ID', 1), leaf('Warn', 42)])])])]),
      });
      expect(r.status).toBe(200);
      await until('SettingsChanged', async () => heard > 0, 10_000);
    } finally {
      await hub.stop();
    }
  });
});
