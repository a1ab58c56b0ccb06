// Issue 40 item 2 (and item 8's Agent picker default) in Chromium: a remote agent "at a branch
// office" traces a target at 1 s, is killed (SIGKILL) and started again after OfflineMs. While
// it is away the heading's badge says "Agent offline, waiting" (not "Tracing every 1 s") and
// the Agent picker keeps showing the trace's agent; once rounds arrive again the timeline
// graph has a gap where the agent was away (its plotted average is null there: the line
// breaks) with the marker "Agent offline", and the hover readout names it. The new-target
// window's picker defaults to the Local Machine (self-hosted), not the first agent by name.
// As root the agent is the real agent program with the raw-socket engine inside network
// namespace hw162-r1 (the branch), the server in the root namespace on 0.0.0.0; as any user
// the same flow runs on the simulated engine with the real agent process on loopback.
// Screenshots: test-results/target-outage-gaps-{variant}-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { simScenarioOf } from '../support/trace-network.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import type { Scenario } from '../netns/scenario.js';
import { agentList, cmd, createAgentWithLink, startAgent, waitFor, type AgentProcess } from '../agents/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Outage-gaps-pw-1';
const agentName = 'Branch office';
const scenario: Scenario = { id: 162, routers: 3 };
/** How long the agent stays dead: many rounds of a 1 s trace. */
const OfflineMs = 25_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Gap {
  startMs: number;
  endMs: number;
  reason: string;
}

for (const variant of asRoot ? (['netns', 'simulated'] as const) : (['simulated'] as const)) {
  describe(`an agent outage drawn as an outage (Chromium, ${variant})`, () => {
    let app: Appliance;
    let browser: Browser;
    let agent: AgentProcess | undefined;
    let topo: Topology | undefined;
    let simDir: string | undefined;
    let agentEnv: Record<string, string> = {};
    let serverUrl: string;
    let target: string;
    const netns = () => (topo ? `hw${scenario.id}-r1` : undefined);

    beforeAll(async () => {
      mkdirSync(shots, { recursive: true });
      const env: Record<string, string> = { HOPWATCH_ROOT_PASSWORD: password };
      if (variant === 'netns') {
        topo = buildTopology(scenario);
        env.HOPWATCH_HOST = '0.0.0.0';
        target = topo.target.v4;
      } else {
        const base = simScenarioOf(scenario);
        simDir = mkdtempSync(join(tmpdir(), 'hopwatch-branch-'));
        const file = join(simDir, 'branch.json');
        writeFileSync(file, JSON.stringify({ ...base, name: 'branch', source: { v4: base.hops[0].v4, v6: base.hops[0].v6 }, hops: base.hops.slice(1) }));
        env.HOPWATCH_ENGINE = 'simulated';
        agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
        target = base.target.v4!;
      }
      app = await startAppliance({ env });
      serverUrl = variant === 'netns' ? `http://${topo!.hostAddress.v4}:${app.port}` : app.url;
      browser = await openBrowser({ width: 1400, height: 900 });
    });

    afterAll(async () => {
      await agent?.dispose();
      await browser?.close();
      await app?.dispose();
      topo?.destroy();
      if (simDir) rmSync(simDir, { recursive: true, force: true });
    });

    it('shows the badge and picker for the offline agent, then a gap with its marker', async () => {
      const page = browser.page;
      onTestFailed(async () => {
        await page.screenshot({ path: join(shots, `target-outage-gaps-${variant}-failed.png`) });
        console.log(`agent output:\n${agent?.output()}\nserver output (tail):\n${app.output().slice(-3000)}`);
      });
      const cookie = await signIn(app.url, 'admin', password);
      const { agent: created, link } = await createAgentWithLink(serverUrl, cookie, agentName);
      agent = startAgent(['setup', link.SetupLink], { netns: netns(), env: agentEnv });
      await waitFor('the agent online', async () => (await agentList(app.url, cookie)).find((a) => a.ID === created.ID && a.IsOnline));

      await signInWithForm(page, app.url, 'admin', password);
      const picker = page.getByRole('button', { name: 'Agent', exact: true });
      // Item 8: a new target defaults to the Local Machine here, though "Branch office" is
      // online and comes first by name.
      await page.goto(`${app.url}/targets/`);
      await expect.poll(() => picker.textContent(), { timeout: 30_000 }).toContain('Local Machine');

      const { ID: targetId } = await cmd<{ ID: number }>(app.url, cookie, `/cmd/newtarget?target=${target}&traceInterval=1&agentID=${created.ID}`);
      await page.goto(`${app.url}/targets/${targetId}`);
      const badge = page.getByTestId('trace-badge');
      const graph = page.locator('.timeline-graph').first();
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('Tracing every 1 s');
      await expect.poll(() => picker.textContent(), { timeout: 15_000 }).toContain(agentName);
      // Some rounds before the outage.
      await waitFor('six rounds', async () => agent!.rounds().length >= 6 || undefined);
      await expect.poll(() => graph.getAttribute('data-line-breaks'), { timeout: 15_000 }).not.toBeNull();

      // The agent dies. The badge says what is true; the picker keeps the trace's agent.
      await agent.stop('SIGKILL');
      const killedAt = Date.now();
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('Agent offline, waiting');
      expect(await picker.textContent()).toContain(agentName);
      expect(await page.getByTestId('target-agent').textContent()).toMatch(new RegExp(`^via .*${agentName}$`));
      await page.screenshot({ path: join(shots, `target-outage-gaps-${variant}-offline.png`) });

      // Back after OfflineMs: its traces come from its disk, rounds arrive again.
      await sleep(killedAt + OfflineMs - Date.now());
      agent = startAgent(['run'], { netns: netns(), env: agentEnv, dir: agent.dir });
      const backAt = Date.now();
      await expect.poll(() => badge.textContent(), { timeout: 30_000 }).toBe('Tracing every 1 s');

      // The graph: one gap where the agent was away, named by its reason, and the line breaks in it.
      const gaps = async () => JSON.parse((await graph.getAttribute('data-gaps')) ?? '[]') as Gap[];
      const gap = await waitFor('the gap on the graph, with rounds after it', async () => (await gaps()).find((g) => g.endMs > killedAt + OfflineMs / 2));
      expect(gap.reason).toBe('AgentOffline');
      expect(gap.startMs).toBeGreaterThan(killedAt - 5_000);
      expect(gap.startMs).toBeLessThanOrEqual(killedAt + 2_000);
      expect(gap.endMs).toBeGreaterThanOrEqual(killedAt + OfflineMs - 1_000);
      expect(gap.endMs).toBeLessThanOrEqual(backAt + 20_000);
      expect(await gaps()).toHaveLength(1);
      const breaks = JSON.parse((await graph.getAttribute('data-line-breaks')) ?? '[]') as number[];
      expect(breaks.some((x) => x >= gap.startMs && x < gap.endMs)).toBe(true);
      const marker = graph.locator('.gap-marker');
      expect(await marker.count()).toBe(1);
      expect(await marker.getAttribute('data-reason')).toBe('AgentOffline');
      expect(await marker.textContent()).toBe('Agent offline');

      // The readout over the gap names it.
      const box = (await marker.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await expect.poll(() => graph.locator('.timeline-readout').textContent(), { timeout: 5_000 }).toMatch(/Agent offline, no data$/);
      await page.screenshot({ path: join(shots, `target-outage-gaps-${variant}-gap.png`) });
    }, 240_000);
  });
}
