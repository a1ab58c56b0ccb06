// Issue 17 end to end: a remote agent "at a branch office" traces two targets over its own path
// while the server is killed (SIGKILL) and started again two minutes later; every round it
// measured is stored exactly once at its own time (spooled to disk while the server was away,
// backfilled in order on reconnect), and the agent's restart mid-spool loses nothing.
// As root the agent runs inside network namespace hw{id}-r1 (the branch) with the raw-socket
// engine and the server in the root namespace listening on 0.0.0.0; as any user the same
// flow runs on the simulated engine (server and agent: HOPWATCH_ENGINE=simulated).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { simScenarioOf } from '../support/trace-network.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import type { Scenario } from '../netns/scenario.js';
import type { DataPointBuckets } from '../../server/contract/data.js';
import { agentList, cmd, createAgentWithLink, roundsPerSecond, startAgent, waitAgentIdle, waitFor, hubCall, type AgentProcess } from './support.js';

const scenario: Scenario = { id: 54, routers: 3 };

/**
 * How long the server stays away: two minutes with the real engine (issue 17); the simulated
 * variant, for runs without root, keeps the same steps shorter.
 */
const outageMsOf = (variant: 'netns' | 'simulated') => (variant === 'netns' ? 120_000 : 20_000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** SIGKILLs the process this test started that listens on `port` (the appliance). */
function killListener(port: number): void {
  const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
  const pid = Number(/pid=(\d+)/.exec(out)?.[1]);
  if (!pid) throw new Error(`no process listens on ${port}: ${out}`);
  process.kill(pid, 'SIGKILL');
}


for (const variant of asRoot ? (['netns', 'simulated'] as const) : (['simulated'] as const)) {
  describe(`remote agent through a server outage (${variant})`, () => {
    const outageMs = outageMsOf(variant);
    let topo: Topology | undefined;
    let simDir: string | undefined;
    let hw: Appliance;
    let agent: AgentProcess;
    let serverUrl: string;
    let agentEnv: Record<string, string> = {};
    let expectedPath: string[];
    const serverEnv: Record<string, string> = { HOPWATCH_ROOT_PASSWORD: 'pw' };

    beforeAll(async () => {
      const base = simScenarioOf(scenario);
      if (variant === 'netns') {
        topo = buildTopology(scenario);
        serverEnv.HOPWATCH_HOST = '0.0.0.0';
        // The agent traces from router 1's namespace: its path starts at router 2.
        expectedPath = [topo.hop(2).v4, topo.hop(3).v4, topo.target.v4];
      } else {
        simDir = mkdtempSync(join(tmpdir(), 'hopwatch-branch-'));
        const file = join(simDir, 'branch.json');
        writeFileSync(file, JSON.stringify({ ...base, name: 'branch', source: { v4: base.hops[0].v4, v6: base.hops[0].v6 }, hops: base.hops.slice(1) }));
        serverEnv.HOPWATCH_ENGINE = 'simulated';
        agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
        expectedPath = [base.hops[1].v4!, base.hops[2].v4!, base.target.v4!];
      }
      hw = await startAppliance({ env: serverEnv });
      serverUrl = variant === 'netns' ? `http://${topo!.hostAddress.v4}:${hw.port}` : hw.url;
    });

    afterAll(async () => {
      await agent?.dispose();
      await hw?.dispose();
      topo?.destroy();
      if (simDir) rmSync(simDir, { recursive: true, force: true });
    });

    it('joins by its Auto Setup link, traces its own path, and stores every round once across a restart', async () => {
      onTestFailed(() => console.log(`agent output:\n${agent?.output()}\nserver output (tail):\n${hw.output().slice(-3000)}`));
      const cookie = await signIn(hw.url, 'admin', 'pw');
      // The link names the address the caller used: the branch reaches the server there.
      const { agent: created, link } = await createAgentWithLink(serverUrl, cookie, 'Branch office');
      expect(created.Configured).toBe(false);
      expect(link.SetupLink).toMatch(new RegExp(`^hopwatch://setup\\?mode=sentinel&id=${created.ID}&key=[A-Za-z0-9_-]+&server=${encodeURIComponent(serverUrl).replace(/[.]/g, '\\.')}$`));

      agent = startAgent(['setup', link.SetupLink], { netns: topo ? `hw${scenario.id}-r1` : undefined, env: agentEnv });
      const online = await waitFor('the agent online', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === created.ID && a.IsOnline));
      expect(online).toMatchObject({ Name: 'Branch office', Configured: true, Mode: 2, Platform: 3 });
      expect(online.MachineName).not.toBe('');
      // The key never reaches the server's log or the agent's output.
      const key = new URL(link.SetupLink).searchParams.get('key')!;

      // Two targets at 1 s on the agent.
      const targetIds: number[] = [];
      for (let i = 0; i < 2; i++) {
        targetIds.push((await cmd<{ ID: number }>(hw.url, cookie, `/cmd/newtarget?target=${expectedPath[2]}&traceInterval=1&agentID=${created.ID}`)).ID);
      }
      const [targetId] = targetIds;
      const roundsOf = (id: number) => agent.rounds().filter((r) => r[0] === id);
      await waitFor('3 rounds of each target on the agent', async () => targetIds.every((id) => roundsOf(id).length >= 3));

      // The hops are the branch's path, not the server's.
      const rows = await waitFor('the rows of the branch path', async () => {
        const g = await hubCall<{ Rows: { IP: string }[] }>(hw.url, cookie, 'TraceGraphRows', [{ ID: String(targetId), Start: '0' }], [], 'Target', targetId);
        const ips = g.Rows.slice(1).map((r) => r.IP);
        return ips.length === 3 ? ips : undefined;
      });
      expect(rows).toEqual(expectedPath);

      // The server dies (SIGKILL: no flush, no goodbye) and stays away for the outage; the agent
      // keeps tracing and spools.
      killListener(hw.port);
      const killedAt = Date.now();
      await hw.stop();
      const before = roundsOf(targetId).length;
      await waitFor('rounds spooled while the server is away', async () => agent.spooled() >= 3 && roundsOf(targetId).length >= before + 3);
      expect(agent.output()).toMatch(/disconnected/);

      // Halfway through, the agent restarts mid-spool: its traces (kept on disk) and its spool go on.
      await sleep(killedAt + outageMs / 2 - Date.now());
      expect(await agent.stop()).toBe(0);
      const spooledBefore = agent.spooled();
      const earlierOutput = agent.output();
      agent = startAgent(['run'], { netns: topo ? `hw${scenario.id}-r1` : undefined, env: agentEnv, dir: agent.dir });
      await waitFor('the restarted agent tracing from its disk', async () => agent.spooled() >= spooledBefore + 2);
      expect(agent.output()).toMatch(/running 2 trace\(s\) kept on disk/);
      expect(earlierOutput + agent.output()).not.toContain(new URL(link.SetupLink).searchParams.get('key')!);

      await sleep(killedAt + outageMs - Date.now());
      hw = await startAppliance({ env: serverEnv, dataDir: hw.dataDir, port: hw.port });
      const backAt = Date.now();
      await waitFor('the agent online again', async () => (await agentList(hw.url, cookie)).find((a) => a.ID === created.ID && a.IsOnline));
      await waitFor('the spool backfilled', async () => agent.spooled() === 0, 120_000);

      // Stop the traces, then wait until the agent has nothing left to send.
      for (const id of targetIds) {
        const stop = await fetch(`${hw.url}/cmd/stoptrace?ID=${id}`, { headers: { cookie } });
        expect(stop.status).toBeLessThan(300);
      }
      await waitAgentIdle(agent);

      for (const id of targetIds) {
        const measured = roundsOf(id);
        // Rounds of the whole outage were measured (one a second, less the agent's restart).
        expect(measured.filter((r) => r[1] > killedAt && r[1] < backAt).length).toBeGreaterThan((outageMs / 1000) * 0.8);
        // Every round's time is distinct on the agent, and the server holds exactly its samples.
        expect(new Set(measured.map((r) => r[1])).size).toBe(measured.length);
        const stored = await hubCall<number>(hw.url, cookie, 'GetSampleCountForSession', id);
        expect(stored).toBe(measured.reduce((sum, r) => sum + r[2], 0));
        // ...at their original times: per second, the first hop's samples are the rounds the
        // agent measured in that second (0 lost, 0 duplicated, none moved; a marker round, at
        // the agent's restart, shows in its second without a sample)...
        const { start, end, expected } = roundsPerSecond(measured);
        const perSecond = await hubCall<DataPointBuckets>(hw.url, cookie, 'DataPointBuckets', `${id}_h_1`, start, end, 1, false);
        expect(new Map(perSecond.Points.map((p) => [p.UnitNumber, p.LatencyCount]))).toEqual(expected);
        // ...and the graph has no gap: every 10 s from the first measured round to the last
        // (the stop's marker round after it may sit alone in a bucket of its own) holds samples.
        const times = measured.filter((r) => !r[3]).map((r) => r[1]);
        const tens = Math.floor((times[times.length - 1] - start) / 10_000) + 1;
        const perTen = await hubCall<DataPointBuckets>(hw.url, cookie, 'DataPointBuckets', String(id), start, start + tens * 10_000, 10, false);
        expect(perTen.Points.map((p) => p.UnitNumber)).toEqual([...Array(tens).keys()]);
        expect(perTen.Points.filter((p) => p.LatencyCount === 0)).toEqual([]);
      }

      expect(hw.output()).not.toContain(key);
      expect(agent.output()).not.toContain(key);
    }, 240_000 + outageMs);
  });
}
