// Every agent call of spec 1 section 7 (/cmd) and spec 3 section 7.5 (/mainHub), the agent
// program's enrolment, and the agent link's refusals: a wrong key, a deleted agent, a forged
// session id, malformed, oversized and repeated batches. Runs on the simulated engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createUser } from '../security/support.js';
import type { Agent, AgentDownloadLink } from '../../server/contract/agents.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { agentList, cmd, createAgentWithLink, waitFor } from './support.js';
import { enrol, enrolled, link, round } from './link-client.js';

const get = (hw: Appliance, cookie: string, path: string) => fetch(hw.url + path, { headers: { cookie } });

async function hub(hw: Appliance, cookie: string): Promise<HubConnection> {
  const c = new HubConnectionBuilder()
    .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
    .configureLogging(LogLevel.None)
    .build();
  await c.start();
  return c;
}

describe('agent calls', () => {
  let hw: Appliance;
  let cookie: string;

  beforeAll(async () => {
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_ENTITLED_TRACES: '2' } });
    cookie = await signIn(hw.url, 'admin', 'pw');
  });
  afterAll(async () => {
    await hw?.dispose();
  });

  it('creates, lists, renames and deletes agents over /cmd, PENDING until set up', async () => {
    const created = await cmd<Agent>(hw.url, cookie, `/cmd/createAgent?name=${encodeURIComponent('Branch%20A')}`);
    expect(created).toMatchObject({ Name: 'Branch A', IsOnline: false, Configured: false, SecurityKey: '', OpenSessions: 0, MachineID: '' });
    const list = await agentList(hw.url, cookie);
    expect(list[0]).toMatchObject({ ID: -1, Name: 'Local Machine', IsOnline: true });
    // Issue 41 item 4: the Local Machine is the server: its version, its start, its OS (not blank, not UNKNOWN on Linux).
    expect(list[0]).toMatchObject({ Version: expect.stringMatching(/^\d+\.\d+/), Platform: process.platform === 'linux' ? 3 : expect.any(Number), OsDescription: expect.stringMatching(/\S/) });
    expect(Math.abs(list[0].LastMessageUnixTime! * 1000 - Date.now())).toBeLessThan(3_600_000);
    expect(list.map((a) => a.ID)).toContain(created.ID);
    expect((await cmd<Agent[]>(hw.url, cookie, '/cmd/getAgentsListWithDetails')).map((a) => a.ID)).toEqual(list.map((a) => a.ID));

    const renamed = await cmd<Agent>(hw.url, cookie, `/cmd/updateSentinelName?agentId=${created.ID}&newName=${encodeURIComponent('Branch%20B')}`);
    expect(renamed.Name).toBe('Branch B');
    expect((await get(hw, cookie, `/cmd/updateSentinelName?agentId=${created.ID}&newName=%2520`)).status).toBe(400);

    expect(await cmd(hw.url, cookie, '/cmd/cloudconnect-entitlement')).toEqual({ ActiveTraces: 0, EntitledTraces: 2, UncountedLocalMachineTraces: 0 });

    // PENDING: never installed, so nothing to reconnect (issue 40 item 8: it said "not connected").
    const r = await get(hw, cookie, `/cmd/forceReconnect?sentinelId=${created.ID}`);
    expect(r.status).toBe(409);
    expect(await r.json()).toEqual({ Error: expect.stringMatching(/^The agent has not been installed yet, so there is nothing to reconnect/) });

    expect((await get(hw, cookie, `/cmd/deleteAgent?sentinelId=${created.ID}&shouldUninstall=false`)).status).toBe(204);
    expect((await agentList(hw.url, cookie)).map((a) => a.ID)).not.toContain(created.ID);
    const gone = await get(hw, cookie, `/cmd/deleteAgent?sentinelId=${created.ID}&shouldUninstall=false`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ Error: `Agent ${created.ID} not found.` });
    expect((await get(hw, cookie, '/cmd/createAgent?name=')).status).toBe(400);
  });

  it('makes setup links whose key works once (kept until used: issue 40 item 3, test/agents/setup-key.test.ts)', async () => {
    const { agent, link } = await createAgentWithLink(hw.url, cookie, 'Linked');
    const first = parseSetupLink(link.SetupLink);
    expect(first).toEqual({ id: agent.ID, key: expect.any(String), server: hw.url });
    expect(link.DownloadUrl).toBe(`${hw.url}/downloads/hopwatch-agent-linux-x64.tar.gz`);
    const again = await cmd<AgentDownloadLink>(hw.url, cookie, `/cmd/download-link/${agent.ID}`);
    const second = parseSetupLink(again.SetupLink);
    expect(second.key).toBe(first.key);
    expect((await enrol(hw, agent.ID, second.key)).status).toBe(200);
    const stale = await enrol(hw, agent.ID, second.key);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ Error: expect.stringMatching(/new Auto Setup link/) });
    expect((await agentList(hw.url, cookie)).find((a) => a.ID === agent.ID)).toMatchObject({ Configured: true, IsOnline: false });
    expect(hw.output()).not.toContain(second.key);
  });

  it('answers every agent hub method through the same services', async () => {
    const c = await hub(hw, cookie);
    const changed: number[] = [];
    c.on('CloudConnectAccountUpdated', () => changed.push(Date.now()));
    try {
      expect(await c.invoke('GetIsMagneto')).toBe(true);
      const a = (await c.invoke('CreateAgent', 'Hub%20agent')) as Agent;
      expect(a).toMatchObject({ Name: 'Hub agent', Configured: false });
      expect(((await c.invoke('GetAgents')) as Agent[]).find((x) => x.ID === a.ID)).toMatchObject({ Name: 'Hub agent' });
      expect(await c.invoke('UpdateSentinelName', a.ID, 'Hub%20renamed')).toMatchObject({ Name: 'Hub renamed' });
      const l = (await c.invoke('AgentDownloadLink', a.ID)) as AgentDownloadLink;
      expect(parseSetupLink(l.SetupLink).id).toBe(a.ID);
      expect(await c.invoke('GetCloudConnectEntitlement')).toEqual({ ActiveTraces: 0, EntitledTraces: 2, UncountedLocalMachineTraces: 0 });
      await expect(c.invoke('ForceReconnect', a.ID)).rejects.toThrow(/has not been installed yet/);
      await c.invoke('DeleteAgent', a.ID, true);
      await expect(c.invoke('DeleteAgent', a.ID, true)).rejects.toThrow(/not found/);
      await expect(c.invoke('DeleteAgent', a.ID)).rejects.toThrow(/argument/);
      await waitFor('CloudConnectAccountUpdated', async () => changed.length >= 3);
    } finally {
      await c.stop();
    }
  });

  it('needs the CloudConnectManagement claim', async () => {
    await createUser(hw, cookie, 'viewer@example.test', 'Agents-reader-pw-1', ['TargetManagement']);
    const viewer = await signIn(hw.url, 'viewer@example.test', 'Agents-reader-pw-1');
    const r = await get(hw, viewer, '/cmd/createAgent?name=x');
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ Error: 'This needs the CloudConnectManagement permission.' });
    // The target window's picker still gets the Local Machine.
    expect((await agentList(hw.url, viewer)).map((a) => a.ID)).toEqual([-1]);
    const c = await hub(hw, viewer);
    try {
      await expect(c.invoke('GetCloudConnectEntitlement')).rejects.toThrow(/CloudConnectManagement/);
    } finally {
      await c.stop();
    }
  });

  it('refuses a link without or with a wrong credential', async () => {
    const { id, credential } = await enrolled(hw, cookie, 'Keyed');
    await expect(link(hw, id, 'x'.repeat(32))).rejects.toThrow(/401/);
    await expect(link(hw, id + 1000, credential)).rejects.toThrow(/401/);
    const ws = new WebSocket(`${hw.url.replace('http', 'ws')}/agentLink`);
    const status = await new Promise<number>((ok) => ws.once('unexpected-response', (_q, res) => ok(res.statusCode!)));
    expect(status).toBe(401);
    expect(hw.output()).not.toContain(credential);
  });

  it('turns ONLINE on hello, ingests batches once, and refuses forged, malformed and oversized ones', async () => {
    const a = await enrolled(hw, cookie, 'Sender');
    const b = await enrolled(hw, cookie, 'Other');
    const c = await link(hw, a.id, a.credential);
    expect((await agentList(hw.url, cookie)).find((x) => x.ID === a.id)).toMatchObject({ IsOnline: true, MachineName: 'branch-1', Mode: 2, Platform: 3, MachineID: 'm-1' });

    const { ID: mine } = await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${a.id}`);
    const { ID: theirs } = await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${b.id}`);
    const start = (await c.next('start')) as unknown as { trace: { traceId: number; target: string; intervalMs: number } };
    expect(start.trace).toMatchObject({ traceId: mine, target: '127.0.0.1', intervalMs: 1000 });
    // Entitlement: 2 remote traces run; a third is refused.
    // 409 with spec 1's capacity text (a 403 would sign the console user out).
    const third = await get(hw, cookie, `/cmd/newtarget?target=127.0.0.1&agentID=${a.id}`);
    expect(third.status).toBe(409);
    expect(await third.json()).toEqual({
      Error: "Looks like you're running all 2 of your CloudConnect traces. You can manage your traces in the CloudConnect tab",
    });

    const t0 = Date.now() - 10_000;
    c.send({ t: 'batch', seq: 1, rounds: [round(mine, t0), round(mine, t0 + 1000)] });
    expect(await c.next('ack')).toEqual({ t: 'ack', seq: 1 });
    // The same batch again, and a new batch repeating a committed round: stored once.
    c.send({ t: 'batch', seq: 1, rounds: [round(mine, t0), round(mine, t0 + 1000)] });
    expect(await c.next('ack')).toEqual({ t: 'ack', seq: 1 });
    c.send({ t: 'batch', seq: 2, rounds: [round(mine, t0 + 1000), round(mine, t0 + 2000)] });
    expect(await c.next('ack')).toEqual({ t: 'ack', seq: 2 });
    // Rounds for another agent's session: the whole batch is refused, nothing stored.
    c.send({ t: 'batch', seq: 3, rounds: [round(mine, t0 + 3000), round(theirs, t0 + 3000)] });
    expect(await c.next('refused')).toMatchObject({ seq: 3, Error: `Session ${theirs} is not a session of this agent; the batch was not stored.` });

    const h = await hub(hw, cookie);
    try {
      expect(await h.invoke('GetSampleCountForSession', mine)).toBe(3);
      expect(await h.invoke('GetSampleCountForSession', theirs)).toBe(0);
      // The agent's name in the Agent column and the sessions page; its targets as the 'Agent' list.
      const rows = await h.invoke('TraceGraphRows', [{ ID: String(mine), Start: '0' }], [], 'Target', String(mine));
      expect(rows.Details.HubSentinelID).toBe(a.id);
      expect(new Set(rows.Rows.map((r: { Columns: { Agent: string } }) => r.Columns.Agent))).toEqual(new Set(['Sender']));
      const list = await h.invoke('TraceGraphRows', [], [], 'Agent', String(a.id));
      expect(list.Rows.map((r: { UniqueID: string; Columns: { Agent: string } }) => [r.UniqueID.split('_')[0], r.Columns.Agent])).toEqual([[String(mine), 'Sender']]);
      await expect(h.invoke('TraceGraphRows', [], [], 'Agent', '999999')).rejects.toThrow(/Agent 999999 not found/);
      const sessions = (await (await get(hw, cookie, '/api/Sessions')).json()) as { SessionID: number; AgentName: string }[];
      expect(sessions.filter((x) => x.SessionID === mine || x.SessionID === theirs).map((x) => x.AgentName).sort()).toEqual(['Other', 'Sender']);
    } finally {
      await h.stop();
    }

    // Malformed: the connection is closed with a clear reason; the server stays up.
    c.send({ t: 'batch', seq: 4, rounds: [{ traceId: mine, time: 'soon', hops: [] }] });
    expect(await c.closed).toEqual({ code: 1008, reason: 'Malformed agent message.' });
    const d = await link(hw, a.id, a.credential);
    d.send('{not json');
    expect((await d.closed).code).toBe(1008);
    const e = await link(hw, a.id, a.credential, false);
    e.send({ t: 'batch', seq: 5, rounds: [] });
    expect(await e.closed).toEqual({ code: 1008, reason: 'The agent must say hello first.' });
    const f = await link(hw, a.id, a.credential);
    f.send('x'.repeat(9 * 1024 * 1024));
    // ws closes with 1009 before reading it whole; the client may see the socket end first (1006).
    expect([1006, 1009]).toContain((await f.closed).code);
    expect((await fetch(`${hw.url}/readyz`)).status).toBe(200);
  });

  it('closes a deleted agent at once, asks it to uninstall, and refuses it afterwards', async () => {
    const a = await enrolled(hw, cookie, 'Doomed');
    const c = await link(hw, a.id, a.credential);
    expect((await get(hw, cookie, `/cmd/deleteAgent?sentinelId=${a.id}&shouldUninstall=true`)).status).toBe(204);
    expect(await c.next('uninstall')).toEqual({ t: 'uninstall' });
    expect((await c.closed).code).toBe(4001);
    await expect(link(hw, a.id, a.credential)).rejects.toThrow(/401/);
  });

  it('forces a reconnect of a connected agent', async () => {
    const a = await enrolled(hw, cookie, 'Reconnecting');
    const c = await link(hw, a.id, a.credential);
    expect((await get(hw, cookie, `/cmd/forceReconnect?sentinelId=${a.id}`)).status).toBe(204);
    expect((await c.closed).code).toBe(4000);
    await waitFor('OFFLINE', async () => (await agentList(hw.url, cookie)).find((x) => x.ID === a.id && !x.IsOnline && x.Configured));
  });

  it('answers the interfaces an agent reported in its hello for the settings editor (issue 19), and says so when it is offline', async () => {
    const a = await enrolled(hw, cookie, 'Interfaces');
    const interfaces = (id: number) => fetch(`${hw.url}/api/Settings/getnetworkinterfaces?agentId=${id}`, { method: 'POST', headers: { cookie } });
    const offline = await interfaces(a.id);
    expect(offline.status).toBe(409);
    expect(((await offline.json()) as { Error: string }).Error).toMatch(/not connected/);
    const c = await link(hw, a.id, a.credential, false);
    c.send({ t: 'hello', protocol: 1, machineId: 'm-9', machineName: 'branch-9', platform: 3, version: '0.1.0.0', mode: 2, interfaces: [{ ID: 'eth7', Name: 'eth7 (10.9.9.9)' }] });
    await c.next('assign');
    const r = await interfaces(a.id);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual([{ ID: '', Name: 'Default (the routing table chooses)' }, { ID: 'eth7', Name: 'eth7 (10.9.9.9)' }]);
    c.ws.close();
  });
});

describe('remote agents turned off (HOPWATCH_REMOTE_AGENTS=0)', () => {
  let hw: Appliance;
  beforeAll(async () => {
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_REMOTE_AGENTS: '0' } });
  });
  afterAll(async () => {
    await hw?.dispose();
  });

  it('offers only the Local Machine and refuses agent management', async () => {
    const cookie = await signIn(hw.url, 'admin', 'pw');
    const r = await get(hw, cookie, '/cmd/createAgent?name=x');
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ Error: expect.stringMatching(/turned off/) });
    expect((await agentList(hw.url, cookie)).map((a) => a.ID)).toEqual([-1]);
    const c = await hub(hw, cookie);
    try {
      expect(await c.invoke('GetIsMagneto')).toBe(false);
    } finally {
      await c.stop();
    }
  });
});
