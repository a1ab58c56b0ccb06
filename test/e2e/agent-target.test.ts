// Browser test of a remote agent's target in the target window (issue 17, spec 2 multi-agent
// mode, spec 1 section 8): with a remote agent the window is multi-agent, so a trace started
// on it shows "via {agent}", the Agent column and the agent name on its graphs; the capacity
// toasts follow starts on remote agents up to HOPWATCH_ENTITLED_TRACES, and a start past it is
// refused with the capacity info (not an error, not a sign-out); when the agent dies the
// heading marks it offline without a reload, and its restart clears the marker. Server and
// agent on the simulated engine (topology id 120, a "branch" path), so it runs without root.
// Screenshots: test-results/agent-target-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';
import { simScenarioOf } from '../support/trace-network.js';
import { createAgentWithLink, startAgent, type AgentProcess } from '../agents/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Agent-target-pw-1';
const agentName = 'Branch office';

describe('a remote agent in the target window (Chromium)', () => {
  let app: Appliance;
  let browser: Browser;
  const agents: AgentProcess[] = [];
  let simDir: string;
  let agentDir: string;
  let agentEnv: Record<string, string>;
  let targets: string[];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const base = simScenarioOf({ id: 120, routers: 3 });
    simDir = mkdtempSync(join(tmpdir(), 'hopwatch-branch-'));
    agentDir = mkdtempSync(join(tmpdir(), 'hopwatch-agent-'));
    const file = join(simDir, 'branch.json');
    writeFileSync(file, JSON.stringify({ ...base, name: 'branch', hops: base.hops.slice(1) }));
    agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
    // The target and two routers of the branch's path: three different targets to start.
    targets = [base.target.v4!, base.hops[2].v4!, base.hops[1].v4!];
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_ENTITLED_TRACES: '2' } });
    browser = await openBrowser({ width: 1400, height: 900 });
  });

  afterAll(async () => {
    for (const a of agents) await a.stop();
    await browser?.close();
    await app?.dispose();
    rmSync(simDir, { recursive: true, force: true });
    rmSync(agentDir, { recursive: true, force: true });
  });

  it('shows the agent, the capacity toasts, and the offline marker', async () => {
    const page = browser.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(shots, 'agent-target-failed.png') });
      for (const a of agents) console.log(a.output());
      console.log(calls.join('\n'));
    });
    const calls: string[] = [];
    page.on('response', (r) => r.url().includes('/cmd/') && calls.push(`${r.status()} ${r.url()}`));
    page.on('console', (m) => calls.push(`console: ${m.text()}`));
    const cookie = await signIn(app.url, 'admin', password);
    const { link } = await createAgentWithLink(app.url, cookie, agentName);
    agents.push(startAgent(['setup', link.SetupLink], { env: agentEnv, dir: agentDir }));

    await signInWithForm(page, app.url, 'admin', password);
    await page.goto(`${app.url}/`);
    const picker = page.getByRole('button', { name: 'Agent', exact: true });
    await expect.poll(() => picker.count(), { timeout: 30_000 }).toBe(1);
    const toasts = () => page.locator('.toast-info .toast-message').allTextContents();

    const chooseAgent = async () => {
      await expect.poll(() => picker.count(), { timeout: 15_000 }).toBe(1);
      await picker.click();
      await page.getByRole('option', { name: agentName }).click();
    };
    // First remote trace: one of 2 slots left.
    await chooseAgent();
    await startTraceFromEntry(page, '1 s', targets[0]);
    await page.waitForURL((u) => /^\/targets\/\d+/.test(u.pathname), { timeout: 15_000 });
    await expect
      .poll(toasts, { timeout: 10_000 })
      .toContain("You're running 1 of 2 remote traces. You can manage your traces or upgrade your capacity in the Agent tab");
    const via = page.getByTestId('target-agent');
    await expect.poll(() => via.textContent(), { timeout: 15_000 }).toBe(`via ${agentName}`);
    expect(await via.locator('.offline-marker').count()).toBe(0);

    // Multi-agent mode: the Agent column with the agent's name, and the name on the graphs.
    const grid = () =>
      page.evaluate(() => ({
        headers: [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] thead th')].map((th) => th.textContent ?? ''),
        rows: [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      }));
    // The Agent column is off by default; in multi-agent mode the column chooser offers it.
    await page.getByRole('button', { name: 'Show / hide columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Agent', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await grid()).headers, { timeout: 15_000 }).toContain('Agent');
    const agentColumn = async () => {
      const g = await grid();
      const i = g.headers.indexOf('Agent');
      return g.rows.map((r) => r[i]);
    };
    await expect.poll(async () => (await agentColumn()).length, { timeout: 30_000 }).toBeGreaterThan(1);
    expect(new Set(await agentColumn())).toEqual(new Set([agentName]));
    await expect.poll(() => page.locator('.timeline-sub').first().textContent(), { timeout: 30_000 }).toContain(agentName);
    await page.screenshot({ path: join(shots, 'agent-target-online.png') });

    // Second: all 2 running. Third: refused with the same info, the user stays signed in.
    await page.goto(`${app.url}/targets/`);
    await chooseAgent();
    await startTraceFromEntry(page, '1 s', targets[1]);
    await expect
      .poll(toasts, { timeout: 10_000 })
      .toContain("Looks like you're running all 2 of your CloudConnect traces. You can manage your traces in the CloudConnect tab");
    await page.waitForURL((u) => /^\/targets\/\d+/.test(u.pathname), { timeout: 15_000 });
    const secondUrl = page.url();
    await page.evaluate(() => document.querySelectorAll('.toast').forEach((t) => t.remove()));
    await page.goto(`${app.url}/targets/`);
    await chooseAgent();
    await startTraceFromEntry(page, '1 s', targets[2]);
    await expect
      .poll(toasts, { timeout: 10_000 })
      .toContain("Looks like you're running all 2 of your CloudConnect traces. You can manage your traces in the CloudConnect tab");
    expect(await page.locator('.toast-error').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/targets/');

    // The agent dies: OFFLINE within 30 s, without a reload; its restart clears the marker.
    await page.goto(secondUrl);
    await expect.poll(() => via.textContent(), { timeout: 15_000 }).toBe(`via ${agentName}`);
    await agents[0].stop('SIGKILL');
    await expect.poll(() => via.locator('.offline-marker').count(), { timeout: 30_000 }).toBe(1);
    expect(await via.locator('.agent-name.offline').getAttribute('title')).toContain(`${agentName} is offline`);
    await page.screenshot({ path: join(shots, 'agent-target-offline.png') });
    agents.push(startAgent(['run'], { env: agentEnv, dir: agentDir }));
    await expect.poll(() => via.locator('.offline-marker').count(), { timeout: 30_000 }).toBe(0);
  }, 240_000);
});
