// Browser test of the Agents page (issue 17): Create Agent in the console, select it, copy
// its Auto Setup link, run hopwatch-agent with that link, see it ONLINE with its machine
// details, start a trace on it with the target window's Agent picker, and see the trace in
// its TARGETS list. Debian Chromium via playwright-core; server and agent on the simulated
// engine (a "branch" path), so it runs without root. Screenshots: test-results/agents-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';
import { simScenarioOf } from '../support/trace-network.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { startAgent, type AgentProcess } from '../agents/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Agents-page-pw-1';

describe('the Agents page in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let agent: AgentProcess | undefined;
  let simDir: string;
  let agentEnv: Record<string, string>;
  let target: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const base = simScenarioOf({ id: 53, routers: 2 });
    simDir = mkdtempSync(join(tmpdir(), 'hopwatch-branch-'));
    const file = join(simDir, 'branch.json');
    writeFileSync(file, JSON.stringify({ ...base, name: 'branch', hops: base.hops.slice(1) }));
    agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
    target = base.target.v4!;
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated' } });
    browser = await openBrowser({ width: 1400, height: 900 });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  });

  afterAll(async () => {
    await agent?.dispose();
    await browser?.close();
    await app?.dispose();
    rmSync(simDir, { recursive: true, force: true });
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
    await signInWithForm(page, app.url, 'admin', password);
    await page.goto(`${app.url}/agents`);
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
    await page.getByRole('button', { name: 'Auto Setup' }).click();
    await expect.poll(() => page.getByText('Auto Setup URL copied to clipboard. Paste in browser on agent machine.').count()).toBe(1);
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const parsed = parseSetupLink(link);
    expect(parsed.server).toBe(app.url);
    await page.screenshot({ path: join(shots, 'agents-pending.png') });

    agent = startAgent(['setup', link], { env: agentEnv });
    // ONLINE arrives with CloudConnectAccountUpdated (no reload), with the agent's details.
    await expect.poll(() => row.locator('td.status').textContent(), { timeout: 30_000 }).toBe('ONLINE');
    await expect.poll(() => row.locator('td').nth(6).textContent()).toBe('APP');
    expect(await row.locator('td').nth(3).textContent()).toBe('0.1.0');
    expect(await page.getByRole('button', { name: 'Uninstall' }).count()).toBe(1);
    // The sidebar's CloudConnect group lists the configured agent.
    await expect.poll(() => page.locator('nav').getByRole('link', { name: 'Branch office' }).count()).toBe(1);
    await page.screenshot({ path: join(shots, 'agents-online.png') });

    // The target window's Agent picker offers it; a trace started there runs on the agent.
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'Agent', exact: true }).click();
    await page.getByRole('option', { name: 'Branch office' }).click();
    await startTraceFromEntry(page, '1 s', target);
    await page.waitForURL((u) => /^\/targets\/\d+/.test(u.pathname), { timeout: 15_000 });
    const targetId = Number(new URL(page.url()).pathname.split('/')[2]);
    await expect.poll(() => agent!.rounds().filter((r) => r[0] === targetId).length, { timeout: 30_000 }).toBeGreaterThan(1);

    await page.goto(`${app.url}/agent/${parsed.id}`);
    const targetRow = page.locator('.agent-targets tr', { hasText: target });
    await expect.poll(() => targetRow.count()).toBe(1);
    // Avg.: the final hop's average over the last 10 minutes, a latency text once rounds are stored.
    await expect.poll(() => targetRow.locator('td.agent-target-avg').textContent(), { timeout: 30_000 }).toMatch(/^\d+(\.\d+)?$/);
    await page.screenshot({ path: join(shots, 'agents-detail.png') });
    await targetRow.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => targetRow.getByRole('button', { name: 'Stop' }).count()).toBe(0);
  }, 180_000);
});
