// Issue 40 item 1: a dead agent link is seen within 30 s (docs/agents.md "Heartbeat"). The real
// agent program runs "at a branch office" (netns hw146-r1, raw sockets) against the appliance in
// the root namespace. The path between them is cut silently by nftables in the branch's
// namespace (packets dropped both ways, no FIN, no RST): the console's agent list says OFFLINE
// within 30 s (the goal, asserted; the figure printed), the agent's link.json says
// "down", the agentOffline alert's webhook arrives at a real receiver on loopback; when the path
// comes back the same agent process reconnects by itself, and every round measured in the gap
// is stored exactly once. Second case: the agent's socket is reset on its side (ss -K) while
// its packets are dropped, so the server never hears of it: OFFLINE within the same bound.
// The product's own heartbeat intervals are used (nothing is configured for the test).
// Root only (network namespaces), skipped otherwise like the other netns suites.
import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import type { Scenario } from '../netns/scenario.js';
import { connectHub } from '../security/support.js';
import { LoopbackWebhooks, startHttpSink, type HttpSink } from '../alerts/support.js';
import { readLinkStatus, type LinkStatus } from '../../agent/link-status.js';
import { agentStatus, type Agent } from '../../server/contract/agents.js';
import type { DataPointBuckets } from '../../server/contract/data.js';
import { agentList, cmd, createAgentWithLink, roundsPerSecond, startAgent, waitAgentIdle, waitFor, type AgentProcess } from './support.js';

const scenario: Scenario = { id: 146, routers: 3 };
const branch = `hw${scenario.id}-r1`;
/** The goal: OFFLINE in the console within 30 s of a silent drop. */
const GoalMs = 30_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

describe.skipIf(!asRoot)('agent link heartbeat (netns, issue 40 item 1)', () => {
  let topo: Topology;
  let hw: Appliance;
  let hook: HttpSink;
  let hub: HubConnection;
  let agent: AgentProcess;
  let cookie: string;
  let serverUrl: string;
  let agentId: number;
  /** The agent process (link.json's writer), which must not need a restart to come back. */
  let agentPid: number;
  const figures: string[] = [];

  /** The agent's status as the console's agent list shows it (REST, as the Agents page reads it). */
  const statusOf = async () => {
    const a = (await agentList(hw.url, cookie)).find((x) => x.ID === agentId) as Agent;
    return agentStatus(a);
  };
  /** Milliseconds from `since` until `probe` holds (checked every 200 ms). */
  const msUntil = async (what: string, since: number, probe: () => Promise<boolean> | boolean, timeoutMs = 60_000) => {
    await waitFor(what, async () => (await probe()) || undefined, timeoutMs);
    return Date.now() - since;
  };
  const linkState = () => readLinkStatus(agent.dir);
  /** The branch's link to the server's port, dropped both ways inside the branch's namespace: nothing is answered, nothing reset. */
  const cutPath = () =>
    execFileSync('ip', ['netns', 'exec', branch, 'nft', '-f', '-'], {
      input: `table inet hwcut {
  chain in { type filter hook input priority -300; ip saddr ${topo.hostAddress.v4} tcp sport ${hw.port} drop; }
  chain out { type filter hook output priority -300; ip daddr ${topo.hostAddress.v4} tcp dport ${hw.port} drop; }
}\n`,
    });
  const restorePath = () => execFileSync('ip', ['netns', 'exec', branch, 'nft', 'delete', 'table', 'inet', 'hwcut']);
  const pathCut = () => execFileSync('ip', ['netns', 'exec', branch, 'nft', 'list', 'tables'], { encoding: 'utf8' }).includes('hwcut');
  /** The local ports of the agent's established connections to the server, seen in the branch. */
  const agentPorts = () =>
    execFileSync('ip', ['netns', 'exec', branch, 'ss', '-Htn', 'state', 'established', 'dst', topo.hostAddress.v4, 'dport', '=', `:${hw.port}`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => Number(/:(\d+)\s/.exec(l.trim().split(/\s+/)[2] + ' ')![1]));
  /** Whether the server still has an established connection from this port of the branch. */
  const serverHolds = (port: number) =>
    execFileSync('ss', ['-Htn', 'state', 'established', 'src', `${topo.hostAddress.v4}:${hw.port}`, 'dst', `${topo.hop(1).v4}:${port}`], { encoding: 'utf8' }).trim() !== '';
  const hooks = (event: string) => hook.requests.filter((r) => r.url === '/agent-offline').map((r) => JSON.parse(r.body) as Record<string, string>).filter((b) => b.event === event);

  beforeAll(async () => {
    topo = buildTopology(scenario);
    hook = await startHttpSink();
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_HOST: '0.0.0.0', ...LoopbackWebhooks } });
    serverUrl = `http://${topo.hostAddress.v4}:${hw.port}`;
    cookie = await signIn(hw.url, 'admin', 'pw');
    hub = (await connectHub(hw, cookie, HttpTransportType.WebSockets)).connection;
    const { agent: created, link } = await createAgentWithLink(serverUrl, cookie, 'Branch heartbeat');
    agentId = created.ID;
    agent = startAgent(['setup', link.SetupLink], { netns: branch });
    await waitFor('the agent online', async () => (await statusOf()) === 'ONLINE');
  }, 120_000);

  afterEach(() => {
    // A failed step must not leave the next test without a path.
    if (topo && pathCut()) restorePath();
  });

  afterAll(async () => {
    if (figures.length) console.log(`agent link heartbeat, measured:\n  ${figures.join('\n  ')}`);
    await hub?.stop();
    await agent?.dispose();
    await hw?.dispose();
    await hook?.close();
    topo?.destroy();
  });

  it('sees a silent drop within 30 s on both ends, alerts, reconnects by itself and delivers the gap once', async () => {
    onTestFailed(() => console.log(`agent output:\n${agent.output()}\nserver output (tail):\n${hw.output().slice(-4000)}`));
    const target = (await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=${topo.target.v4}&traceInterval=1&agentID=${agentId}`)).ID;
    const alert = await fetch(`${hw.url}/api/alerts`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        Name: 'Branch link lost',
        Condition: { Kind: 'agentOffline', OfflineSeconds: 1 },
        Events: ['start', 'end'],
        Targets: [target],
        Actions: [{ Kind: 'webhook', Config: { Method: 'POST', Url: `${hook.url}/agent-offline`, Format: 'custom', Template: '{"event":"$event","agent":"$agent"}' } }],
      }),
    });
    expect(alert.status, await alert.clone().text()).toBe(200);
    const roundsOf = () => agent.rounds().filter((r) => r[0] === target);
    await waitFor('5 rounds on the agent, delivered', async () => roundsOf().length >= 5 && agent.spooled() === 0);
    agentPid = linkState()!.pid;

    // The silent drop.
    cutPath();
    const cutAt = Date.now();
    const offlineMs = await msUntil('OFFLINE in the console', cutAt, async () => (await statusOf()) === 'OFFLINE');
    figures.push(`silent drop -> OFFLINE in the console: ${(offlineMs / 1000).toFixed(1)} s`);
    expect(offlineMs).toBeLessThan(GoalMs);
    let down: LinkStatus | undefined;
    const downMs = await msUntil('link.json "down"', cutAt, () => (down = linkState())?.state === 'down');
    figures.push(`silent drop -> the agent's link.json "down": ${(downMs / 1000).toFixed(1)} s`);
    expect(downMs).toBeLessThan(GoalMs);
    // Down because the agent's own heartbeat found the server silent.
    expect(down!.detail).toMatch(/^the server stopped answering: nothing heard for \d+ s \(heartbeat\)$/);
    const alertMs = await msUntil('the agentOffline webhook', cutAt, () => hooks('start').length > 0);
    figures.push(`silent drop -> agentOffline webhook (OfflineSeconds 1): ${(alertMs / 1000).toFixed(1)} s`);
    expect(hooks('start')).toEqual([{ event: 'start', agent: 'Branch heartbeat' }]);

    // The path stays cut a while: the agent's attempts go nowhere, the console stays OFFLINE,
    // the agent keeps measuring and spools.
    await sleep(cutAt + 45_000 - Date.now());
    expect(await statusOf()).toBe('OFFLINE');
    expect(linkState()!.state).toBe('down');
    expect(agent.spooled()).toBeGreaterThan(0);

    // The path returns: the same agent process reconnects by itself, the alert ends.
    restorePath();
    const restoredAt = Date.now();
    const reconnectMs = await msUntil('ONLINE again', restoredAt, async () => (await statusOf()) === 'ONLINE');
    figures.push(`path restored -> ONLINE again (agent not restarted): ${(reconnectMs / 1000).toFixed(1)} s`);
    await waitFor('link.json "up"', async () => linkState()?.state === 'up' || undefined);
    expect(linkState()!.pid).toBe(agentPid);
    await waitFor('the alert ended', async () => hooks('end').length > 0 || undefined);
    await waitFor('the spool backfilled', async () => agent.spooled() === 0 || undefined, 60_000);

    // Stop the trace and let the agent send all it has.
    expect((await fetch(`${hw.url}/cmd/stoptrace?ID=${target}`, { headers: { cookie } })).status).toBeLessThan(300);
    await waitAgentIdle(agent);

    const measured = roundsOf();
    // The gap was measured (one round a second) ...
    const inGap = measured.filter((r) => r[1] > cutAt && r[1] < restoredAt).length;
    expect(inGap).toBeGreaterThan(40);
    // ... and the server holds exactly the agent's samples ...
    expect(await hub.invoke('GetSampleCountForSession', target)).toBe(measured.reduce((sum, r) => sum + r[2], 0));
    // ... each at its own second: per second, the first hop's samples are the rounds measured in it.
    const { start, end, expected } = roundsPerSecond(measured);
    const perSecond = (await hub.invoke('DataPointBuckets', `${target}_h_1`, start, end, 1, false)) as DataPointBuckets;
    expect(new Map(perSecond.Points.map((p) => [p.UnitNumber, p.LatencyCount]))).toEqual(expected);
    figures.push(`rounds measured while the path was cut: ${inGap}, each stored once at its second`);
    expect(hooks('start')).toHaveLength(1);
    expect(hooks('end')).toHaveLength(1);
  }, 300_000);

  it('sees a link reset on the agent side that never reached the server within 30 s', async () => {
    onTestFailed(() => console.log(`agent output:\n${agent.output()}\nserver output (tail):\n${hw.output().slice(-4000)}`));
    await waitFor('the agent online', async () => (await statusOf()) === 'ONLINE' || undefined);
    const ports = agentPorts();
    expect(ports.length).toBeGreaterThan(0);

    // The agent's sockets to the server are reset on its side; the resets (and all else) are dropped on the way.
    cutPath();
    const resetAt = Date.now();
    execFileSync('ip', ['netns', 'exec', branch, 'ss', '-K', 'dst', topo.hostAddress.v4, 'dport', '=', `:${hw.port}`]);
    expect(agentPorts()).toEqual([]);
    let down: LinkStatus | undefined;
    const downMs = await msUntil('link.json "down"', resetAt, () => (down = linkState())?.state === 'down');
    figures.push(`reset on the agent side -> the agent's link.json "down": ${(downMs / 1000).toFixed(1)} s`);
    // The agent knows; the server still holds the connection and, until its heartbeat says otherwise, shows the agent ONLINE.
    expect(ports.some(serverHolds)).toBe(true);
    expect(await statusOf()).toBe('ONLINE');
    const offlineMs = await msUntil('OFFLINE in the console', resetAt, async () => (await statusOf()) === 'OFFLINE');
    figures.push(`reset on the agent side (not seen by the server) -> OFFLINE in the console: ${(offlineMs / 1000).toFixed(1)} s`);
    expect(offlineMs).toBeLessThan(GoalMs);
    // The agent saw the reset itself (no heartbeat needed on its side), and says so.
    expect(down!.detail).toBe('the connection was lost (1006)');

    restorePath();
    const restoredAt = Date.now();
    const reconnectMs = await msUntil('ONLINE again', restoredAt, async () => (await statusOf()) === 'ONLINE');
    figures.push(`path restored after the reset -> ONLINE again: ${(reconnectMs / 1000).toFixed(1)} s`);
    await waitFor('link.json "up"', async () => linkState()?.state === 'up' || undefined);
    expect(linkState()!.pid).toBe(agentPid);
  }, 180_000);
});
