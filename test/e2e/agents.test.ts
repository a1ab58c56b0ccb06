// Browser test of the Agents page (issue 17): Create Agent in the console, select it, copy
// its Auto Setup link, run hopwatch-agent with that link, see it ONLINE with its machine
// details, start a trace on it with the target window's Agent picker, and see the trace in
// its TARGETS list, with the hops of the agent's own path in the grid. Debian Chromium via
// playwright-core. As root the agent runs in network namespace hw{id}-r1 (a branch office
// behind router 1) on the raw sockets, the console is opened at the address the branch reaches
// the server by (so the Auto Setup link names it), and the path is the branch's: routers 2
// and 3, then the target, never router 1. Without root, server and agent run the simulated
// engine on the same path. Screenshots: test-results/agents-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';
import { simScenarioOf } from '../support/trace-network.js';
import { asRoot } from '../netns/rounds.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { startAgent, type AgentProcess } from '../agents/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Agents-page-pw-1';

describe('the Agents page in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let agent: AgentProcess | undefined;
  let simDir: string | undefined;
  let topo: Topology | undefined;
  let agentEnv: Record<string, string> = {};
  let netns: string | undefined;
  let target: string;
  /** The console's address: the one the agent reaches the server by. */
  let consoleUrl: string;
  /** The hops the agent's trace must show, in order. */
  let branchPath: string[];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const scenario = { id: 53, routers: 3 };
    if (asRoot) {
      topo = buildTopology(scenario);
      netns = `hw${scenario.id}-r1`;
      target = topo.target.v4;
      branchPath = [topo.hop(2).v4, topo.hop(3).v4, topo.target.v4];
      app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_HOST: '0.0.0.0' } });
      consoleUrl = `http://${topo.hostAddress.v4}:${app.port}`;
    } else {
      const base = simScenarioOf(scenario);
      simDir = mkdtempSync(join(tmpdir(), 'hopwatch-branch-'));
      const file = join(simDir, 'branch.json');
      writeFileSync(file, JSON.stringify({ ...base, name: 'branch', hops: base.hops.slice(1) }));
      agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
      target = base.target.v4!;
      branchPath = [base.hops[1].v4!, base.hops[2].v4!, target];
      app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated' } });
      consoleUrl = app.url;
    }
    browser = await openBrowser({ width: 1400, height: 900 });
    // Loopback is a secure context (the Clipboard API); a plain-http address is not, and the
    // console copies through a selected text area there (web/src/target/clipboard.ts).
    if (!asRoot) await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleUrl });
  });

  afterAll(async () => {
    await agent?.dispose();
    await browser?.close();
    await app?.dispose();
    topo?.destroy();
    if (simDir) rmSync(simDir, { recursive: true, force: true });
  });

  it('creates an agent, sets it up by its Auto Setup link, and traces from it', async () => {
    const page = browser.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(shots, 'agents-failed.png') });
      console.log(agent?.output());
    });
    const calls: string[] = [];
    page.on('response', (r) => r.url().includes('/cmd/') && calls.push(`${r.status()} ${r.url()}`));
    page.on('console', (m) => calls.push(`console: ${m.text()}`));
    onTestFailed(() => console.log(calls.join('\n')));
    await signInWithForm(page, consoleUrl, 'admin', password);
    await page.goto(`${consoleUrl}/agents`);
    await expect.poll(() => page.getByRole('heading', { name: 'CloudConnect Agents' }).count()).toBe(1);
    await expect.poll(() => page.getByRole('progressbar', { name: 'Trace capacity' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Create Agent' }).click();
    await page.getByRole('dialog', { name: 'Create a new agent' }).getByLabel('Name').fill('Branch office');
    await page.getByRole('dialog').getByRole('button', { name: 'Create Agent' }).click();
    await expect.poll(() => page.getByText('Successfully created agent: Branch office').count()).toBe(1);
    const row = page.locator('tr', { hasText: 'Branch office' });
    await expect.poll(() => row.locator('td.status').textContent()).toBe('PENDING');

    await row.click();
    await expect.poll(() => page.getByRole('heading', { name: 'AGENT DETAIL' }).count()).toBe(1);
    // Never installed: nothing to reconnect, so no Reconnect (issue 40 item 8); Rename is there.
    expect(await page.getByRole('button', { name: 'Rename' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Reconnect' }).count()).toBe(0);
    // What a copy without the Clipboard API put on the clipboard: the selection it copied.
    await page.evaluate(() =>
      document.addEventListener('copy', () => {
        const area = document.activeElement as HTMLTextAreaElement | null;
        (window as unknown as { copied?: string }).copied = area?.value?.slice(area.selectionStart, area.selectionEnd);
      }),
    );
    await page.getByRole('button', { name: 'Auto Setup' }).click();
    await expect.poll(() => page.getByText('Auto Setup link copied to clipboard. On the agent machine give it to install.sh or hopwatch-agent setup').count()).toBe(1);
    const link = await page.evaluate(() =>
      window.isSecureContext ? navigator.clipboard.readText() : ((window as unknown as { copied?: string }).copied ?? ''),
    );
    const parsed = parseSetupLink(link);
    expect(parsed.server).toBe(consoleUrl);
    await page.screenshot({ path: join(shots, 'agents-pending.png') });

    agent = startAgent(['setup', link], { env: agentEnv, netns });
    // ONLINE arrives with CloudConnectAccountUpdated (no reload), with the agent's details.
    await expect.poll(() => row.locator('td.status').textContent(), { timeout: 30_000 }).toBe('ONLINE');
    await expect.poll(() => row.locator('td').nth(6).textContent()).toBe('APP');
    expect(await row.locator('td').nth(3).textContent()).toBe('0.1.0');
    expect(await page.getByRole('button', { name: 'Uninstall' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Reconnect' }).count()).toBe(1);
    // The sidebar's CloudConnect group lists the configured agent.
    await expect.poll(() => page.locator('nav').getByRole('link', { name: 'Branch office' }).count()).toBe(1);
    await page.screenshot({ path: join(shots, 'agents-online.png') });

    // The target window's Agent picker offers it; a trace started there runs on the agent.
    await page.goto(`${consoleUrl}/`);
    await page.getByRole('button', { name: 'Agent', exact: true }).click();
    await page.getByRole('option', { name: 'Branch office' }).click();
    await startTraceFromEntry(page, '1 s', target);
    await page.waitForURL((u) => /^\/targets\/\d+/.test(u.pathname), { timeout: 15_000 });
    const targetId = Number(new URL(page.url()).pathname.split('/')[2]);
    await expect.poll(() => agent!.rounds().filter((r) => r[0] === targetId).length, { timeout: 30_000 }).toBeGreaterThan(1);
    // The grid shows the agent's path, not the server's (below its first row, the target's own).
    const ipColumn = () =>
      page.evaluate(() => {
        const table = document.querySelector('[data-testid="trace-grid"] table[role="grid"]');
        const i = [...(table?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent).indexOf('IP');
        return [...(table?.querySelectorAll('tbody tr') ?? [])].slice(1).map((tr) => tr.querySelectorAll('td')[i]?.textContent ?? '');
      });
    await expect.poll(ipColumn, { timeout: 30_000 }).toEqual(branchPath);
    await page.screenshot({ path: join(shots, 'agents-trace.png') });

    await page.goto(`${consoleUrl}/agent/${parsed.id}`);
    const targetRow = page.locator('.agent-targets tr', { hasText: target });
    await expect.poll(() => targetRow.count()).toBe(1);
    // Avg.: the final hop's average over the last 10 minutes, a latency text once rounds are stored.
    await expect.poll(() => targetRow.locator('td.agent-target-avg').textContent(), { timeout: 30_000 }).toMatch(/^\d+(\.\d+)?$/);
    await page.screenshot({ path: join(shots, 'agents-detail.png') });
    await targetRow.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => targetRow.getByRole('button', { name: 'Stop' }).count()).toBe(0);
  }, 180_000);
});
