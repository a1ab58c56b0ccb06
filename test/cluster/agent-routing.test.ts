// Agent links on several replicas (issue 43 item 1; docs/agents.md "Several replicas"): an agent
// linked to replica A is online on replica B, and what a console does through B (start a target
// on it, change its interval, pause it, close it) reaches the agent through A. When A dies the
// agent shows offline on B within the presence TTL (HOPWATCH_REDIS_PRESENCE_SECONDS, 3 s here).
// A replica restarted while a trace was paused gets the trace back when it is resumed elsewhere.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { AssignedTrace } from '../../agent/protocol.js';
import { signIn } from '../support/appliance.js';
import { startCluster, type TestCluster } from '../support/cluster.js';
import { agentList, cmd, createAgentWithLink, startAgent, waitFor, type AgentProcess } from '../agents/support.js';

const traces = (agent: AgentProcess): AssignedTrace[] => {
  try {
    return JSON.parse(readFileSync(join(agent.dir, 'traces.json'), 'utf8')) as AssignedTrace[];
  } catch {
    return [];
  }
};

describe('agent links across replicas', () => {
  let cluster: TestCluster;
  let agent: AgentProcess | undefined;
  let a: string;
  let b: string;
  let cookieB: string;

  beforeAll(async () => {
    cluster = await startCluster(2, { HOPWATCH_REDIS_PRESENCE_SECONDS: '3' });
    [a, b] = cluster.replicas.map((r) => r.url);
    cookieB = await signIn(b, 'admin', cluster.password);
  }, 60_000);

  afterAll(async () => {
    await agent?.dispose();
    await cluster?.dispose();
  });

  it("routes B's commands to the agent linked to A, shows it online on B, and offline once A is gone", async () => {
    onTestFailed(() => console.log(`agent:\n${agent?.output()}\nA:\n${cluster.replicas[0].output().slice(-3000)}\nB:\n${cluster.replicas[1].output().slice(-3000)}`));
    const cookieA = await signIn(a, 'admin', cluster.password);
    // The Auto Setup link made on A names A: the agent links to A.
    const { agent: created, link } = await createAgentWithLink(a, cookieA, 'Branch');
    agent = startAgent(['setup', link.SetupLink], { env: { HOPWATCH_ENGINE: 'simulated' } });
    await waitFor('the agent online on A', async () => (await agentList(a, cookieA)).find((x) => x.ID === created.ID && x.IsOnline));
    // Presence: B holds no link of it, yet lists it online.
    await waitFor('the agent online on B', async () => (await agentList(b, cookieB)).find((x) => x.ID === created.ID && x.IsOnline), 10_000);

    // Started through B: the start reaches the agent through A.
    const { ID: targetId } = await cmd<{ ID: number }>(b, cookieB, `/cmd/newtarget?target=127.0.0.1&traceInterval=1&agentID=${created.ID}`);
    await waitFor('the trace on the agent', async () => traces(agent!).find((t) => t.traceId === targetId), 10_000);
    await waitFor('rounds measured by the agent', async () => agent!.rounds().filter((r) => r[0] === targetId).length >= 2, 10_000);

    // Interval and pause through B.
    expect((await fetch(`${b}/cmd/updateTraceInterval?webId=${targetId}&traceIntervalInMS=3000`, { headers: { cookie: cookieB } })).status).toBe(204);
    await waitFor('the new interval on the agent', async () => traces(agent!).find((t) => t.traceId === targetId)?.intervalMs === 3000, 10_000);
    expect((await fetch(`${b}/cmd/stoptrace?ID=${targetId}`, { headers: { cookie: cookieB } })).status).toBe(204);
    await waitFor('the trace paused on the agent', async () => traces(agent!).find((t) => t.traceId === targetId)?.paused === true, 10_000);
    // A restarts while the trace is paused: it runs only the active sessions at start, so it no
    // longer holds this one when the agent links to it again. Resumed through B, the trace
    // still reaches the agent (B hands A the whole assignment).
    cluster.replicas[0] = await cluster.replicas[0].restart();
    await waitFor('the agent online on A again', async () => (await agentList(a, await signIn(a, 'admin', cluster.password))).find((x) => x.ID === created.ID && x.IsOnline), 20_000);
    expect((await fetch(`${b}/cmd/resumetrace?ID=${targetId}`, { headers: { cookie: cookieB } })).status).toBe(204);
    await waitFor('the trace resumed on the agent', async () => traces(agent!).find((t) => t.traceId === targetId)?.paused === false, 10_000);

    // Closed through B: the agent stops it.
    const closed = await fetch(`${b}/cmd/close?ID=${targetId}`, { headers: { cookie: cookieB } });
    expect(closed.status).toBeLessThan(300);
    await waitFor('the trace gone from the agent', async () => !traces(agent!).some((t) => t.traceId === targetId), 10_000);

    // A dies without a goodbye: its presence keys expire, and B shows the agent offline.
    process.kill(Number(/pid=(\d+)/.exec(String(await pidOf(cluster.replicas[0].port)))?.[1]), 'SIGKILL');
    await waitFor('the agent offline on B', async () => (await agentList(b, cookieB)).find((x) => x.ID === created.ID && !x.IsOnline), 10_000);
  });
});

async function pidOf(port: number): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  return execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
}
