// An agent's setup key is kept (issue 40 item 3): Create, Installer, Download Agent (the same
// REST call) and the hub's AgentDownloadLink show one Auto Setup link until its key is used or
// the user asks for a new one; the replaced link is then refused with the text the console
// shows. And the server address in the link (issue 40 item 4): the public URL once set in
// Settings > General, with a warning while it is a loopback address (a console at 127.0.0.1).
import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupKeySpentText, SetupLinkReplacedText, type AgentDownloadLink } from '../../server/contract/agents.js';
import type { SettingsNode } from '../../server/contract/settings.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { enrol } from './link-client.js';
import { cmd, createAgentWithLink } from './support.js';

const leaf = (Name: string, Value: SettingsNode['Value']): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });

describe('the Auto Setup link of an agent', () => {
  let hw: Appliance;
  let cookie: string;
  const link = (id: number, query = '') => cmd<AgentDownloadLink>(hw.url, cookie, `/cmd/download-link/${id}${query}`);
  const keyOf = (l: AgentDownloadLink) => parseSetupLink(l.SetupLink).key;

  beforeAll(async () => {
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_PUBLIC_URL: '' } });
    cookie = await signIn(hw.url, 'admin', 'pw');
  });
  afterAll(async () => {
    await hw?.dispose();
  });

  it('keeps one setup key across Installer, Download Agent and the hub until it is used', async () => {
    const { agent, link: created } = await createAgentWithLink(hw.url, cookie, 'Kept');
    const installer = await link(agent.ID);
    const download = await link(agent.ID);
    expect(keyOf(installer)).toBe(keyOf(created));
    expect(keyOf(download)).toBe(keyOf(created));
    expect(installer).toMatchObject({ Replaced: false, SetupLink: created.SetupLink });
    const hub = new HubConnectionBuilder()
      .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    await hub.start();
    try {
      expect(keyOf((await hub.invoke('AgentDownloadLink', agent.ID)) as AgentDownloadLink)).toBe(keyOf(created));
    } finally {
      await hub.stop();
    }
    // The link copied first still sets the agent up.
    expect((await enrol(hw, agent.ID, keyOf(created))).status).toBe(200);
    const spent = await enrol(hw, agent.ID, keyOf(created));
    expect(spent.status).toBe(401);
    expect(await spent.json()).toEqual({ Error: SetupKeySpentText });
    // Used: the next link has a new key (a reinstall), kept in turn.
    const next = await link(agent.ID);
    expect(keyOf(next)).not.toBe(keyOf(created));
    expect(keyOf(await link(agent.ID))).toBe(keyOf(next));
  });

  it('makes a new key only on request, and refuses the replaced link saying so', async () => {
    const { agent, link: first } = await createAgentWithLink(hw.url, cookie, 'Renewed');
    const renewed = await link(agent.ID, '?renew=true');
    expect(renewed.Replaced).toBe(true);
    expect(keyOf(renewed)).not.toBe(keyOf(first));
    expect(keyOf(await link(agent.ID))).toBe(keyOf(renewed));
    const old = await enrol(hw, agent.ID, keyOf(first));
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ Error: SetupLinkReplacedText });
    expect((await enrol(hw, agent.ID, keyOf(renewed))).status).toBe(200);
    // After the agent is set up, a renewal replaces no unused link.
    expect((await link(agent.ID, '?renew=true')).Replaced).toBe(false);
    expect(hw.output()).not.toContain(keyOf(renewed));
  });

  it('names the public URL once set, and warns while the link names the loopback address the browser used', async () => {
    const { agent, link: browser } = await createAgentWithLink(hw.url, cookie, 'Addressed');
    expect(browser).toMatchObject({ Server: hw.url, ServerSource: 'Browser' });
    expect(browser.Warning).toMatch(/^The link names 127\.0\.0\.1, a loopback address .*Set the public URL in Settings > General/);
    const settings = await cmd<{ Settings: { Version: number } }>(hw.url, cookie, '/api/Settings/getsettings');
    const save = await fetch(`${hw.url}/api/Settings/savesettings`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ Version: settings.Settings.Version, Root: node('Root', [node('ClientSettings', [node('General', [leaf('PublicUrl', 'http://hopwatch.example.org:8080/')])])]) }),
    });
    expect(save.status).toBe(200);
    const named = await link(agent.ID);
    expect(named).toMatchObject({ Server: 'http://hopwatch.example.org:8080', ServerSource: 'PublicUrl', Warning: '', DownloadUrl: 'http://hopwatch.example.org:8080/downloads/hopwatch-agent-linux-x64.tar.gz' });
    expect(parseSetupLink(named.SetupLink)).toEqual({ id: agent.ID, key: keyOf(browser), server: 'http://hopwatch.example.org:8080' });
  });
});
