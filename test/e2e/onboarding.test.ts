// Browser test of the onboarding window (issue 23 part 5, spec 1 "Onboarding window" and
// section 4) and of Reset Onboarding (issue 19, cloud mode), in the onboarding flavour of a
// cloud appliance (HOPWATCH_DEPLOYMENT=1, HOPWATCH_ONBOARDING=1): the six stages with their
// titles and controls; stage 2 creates "First agent"; Get Help sends the agent's support
// request; the first close minimizes ("Resume onboarding"); a real agent joins at stage 2 and
// the window moves to stage 3 by itself and starts the sample trace on the agent to
// HOPWATCH_ONBOARDING_TARGET; back stops at 3; the dragged position and the progress survive a
// reload; Finish dismisses; Settings > General > Reset Onboarding starts again at stage 1, where
// two closes dismiss. As root the agent runs in network namespace hw138-r1 with raw sockets and
// the sample trace goes to the topology's target (topology 138); as any other user the same on
// the simulated engine. Screenshots: test-results/onboarding-*.png.
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
import { agentList, cmd, startAgent, waitFor, type AgentProcess } from '../agents/support.js';
import { createWebUser } from '../support/web-users.js';
import type { AgentDownloadLink, AgentTarget } from '../../server/contract/agents.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Onboarding-pw-1';
const scenario: Scenario = { id: 138, routers: 2 };

describe(`the onboarding window in Chromium (${asRoot ? 'netns agent' : 'simulated agent'})`, () => {
  let app: Appliance;
  let browser: Browser;
  let agent: AgentProcess | undefined;
  let topo: Topology | undefined;
  let simDir: string | undefined;
  let agentEnv: Record<string, string> = {};
  let sampleHost: string;
  let serverUrl: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const serverEnv: Record<string, string> = { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ONBOARDING: '1' };
    if (asRoot) {
      topo = buildTopology(scenario);
      // The agent traces from router 1's namespace; the server listens where it can reach it.
      sampleHost = topo.target.v4;
      serverEnv.HOPWATCH_HOST = '0.0.0.0';
    } else {
      const base = simScenarioOf(scenario);
      simDir = mkdtempSync(join(tmpdir(), 'hopwatch-onboarding-'));
      const file = join(simDir, 'branch.json');
      writeFileSync(file, JSON.stringify({ ...base, name: 'branch', source: { v4: base.hops[0].v4, v6: base.hops[0].v6 }, hops: base.hops.slice(1) }));
      agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
      serverEnv.HOPWATCH_ENGINE = 'simulated';
      sampleHost = base.target.v4!;
    }
    serverEnv.HOPWATCH_ONBOARDING_TARGET = sampleHost;
    app = await startAppliance({ env: serverEnv });
    serverUrl = topo ? `http://${topo.hostAddress.v4}:${app.port}` : app.url;
    browser = await openBrowser({ width: 1400, height: 900 });
  });

  afterAll(async () => {
    await agent?.dispose();
    await browser?.close();
    await app?.dispose();
    topo?.destroy();
    if (simDir) rmSync(simDir, { recursive: true, force: true });
  });

  it('walks the six stages with an agent joining at stage 2, and starts again after Reset Onboarding', async () => {
    const page = browser.page;
    const calls: string[] = [];
    page.on('response', (r) => (r.url().includes('/cmd/') || r.url().includes('/api/kvp')) && calls.push(`${r.status()} ${r.request().method()} ${r.url()}`));
    page.on('console', (m) => calls.push(`console: ${m.text()}`));
    onTestFailed(async () => {
      await page.screenshot({ path: join(shots, 'onboarding-failed.png') });
      console.log(calls.join('\n'));
      console.log(`agent output:\n${agent?.output()}`);
    });
    const cookie = await signIn(app.url, 'admin', password);
    const stored = async () => JSON.parse((await cmd<string | null>(app.url, cookie, '/api/kvp/get?Type=Account&KeyName=CloudConnect-OnboardingProgressV2')) ?? 'null') as unknown;
    const win = page.getByRole('dialog').filter({ has: page.locator('.onboarding-head') });
    const title = () => win.locator('#onboarding-title').textContent();
    const control = (name: string) => win.getByRole('button', { name, exact: true });

    await signInWithForm(page, app.url, 'admin', password);
    await expect.poll(title, { timeout: 15_000 }).toBe('Welcome');
    expect(await win.locator('.onboarding-step').textContent()).toBe('1 of 6');
    expect(await control('Back').isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'onboarding-1-welcome.png') });

    // Dragged by its title bar: the new place is kept under CloudConnect-OnboardingPosition.
    const before = (await win.boundingBox())!;
    const head = (await win.locator('.onboarding-head').boundingBox())!;
    await page.mouse.move(head.x + 60, head.y + head.height / 2);
    await page.mouse.down();
    await page.mouse.move(head.x + 360, head.y - 200, { steps: 8 });
    await page.mouse.up();
    const moved = (await win.boundingBox())!;
    expect(Math.round(moved.x - before.x)).toBe(300);
    expect(moved.y - before.y).toBeCloseTo(-200 - head.height / 2, 0);
    const position = JSON.parse((await page.evaluate(() => localStorage.getItem('CloudConnect-OnboardingPosition')))!) as Record<string, number>;
    expect(position).toEqual({ left: Math.round(moved.x), top: Math.round(moved.y), width: Math.round(moved.width), height: Math.round(moved.height) });

    // Stage 2: "First agent" is created by itself (the account has none); progress is saved.
    await control('Forward').click();
    await expect.poll(title).toBe('Deploy your first Agent');
    const first = await waitFor('First agent', async () => (await agentList(app.url, cookie)).find((a) => a.Name === 'First agent'), 15_000);
    expect(first.Configured).toBe(false);
    await expect.poll(stored).toEqual({ stage: 2, minimized: false, dismissed: false });
    await expect.poll(() => page.locator('.toast-info .toast-message').allTextContents()).toContain('Successfully created agent: First agent');
    // The toast comes when the agent is created; the button when the console's agent list has
    // been read again after it (useStageCheck), a moment later.
    await expect.poll(() => control('Download Agent').isEnabled()).toBe(true);
    expect(await control('Back').isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'onboarding-2-agent.png') });

    // Get Help: the agent's support request, thanked in the cloud's words.
    await control('Get Help').click();
    const help = page.getByRole('dialog', { name: 'Get Help' });
    await help.getByLabel('Name', { exact: true }).fill('New Customer');
    await help.getByLabel('Problem description').fill('Where do I install the agent?');
    expect(await help.getByLabel('E-mail').count()).toBe(0);
    const [asked] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/cmd/cloudconnect-agent-get-support')),
      help.getByRole('button', { name: 'Submit', exact: true }).click(),
    ]);
    expect(asked.status()).toBe(200);
    expect(new URL(asked.url()).searchParams.get('id')).toBe(String(first.ID));
    await expect.poll(() => page.locator('.toast-info .toast-message').allTextContents()).toContain('Successfully requested Hopwatch Cloud support.');

    // The first close minimizes; Resume onboarding brings it back where it was.
    await control('Close onboarding').click();
    await page.getByRole('button', { name: 'Resume onboarding' }).waitFor();
    expect(await win.count()).toBe(0);
    await expect.poll(stored).toEqual({ stage: 2, minimized: true, dismissed: false });
    await page.screenshot({ path: join(shots, 'onboarding-minimized.png') });
    await page.getByRole('button', { name: 'Resume onboarding' }).click();
    await expect.poll(title).toBe('Deploy your first Agent');
    expect(Math.round((await win.boundingBox())!.x)).toBe(Math.round(moved.x));

    // A real agent joins with First agent's setup link: stage 3 comes by itself, and the
    // sample trace to the onboarding host runs on that agent.
    const link = await cmd<AgentDownloadLink>(serverUrl, cookie, `/cmd/download-link/${first.ID}`);
    agent = startAgent(['setup', link.SetupLink], { netns: topo ? `hw${scenario.id}-r1` : undefined, env: agentEnv });
    await expect.poll(title, { timeout: 60_000 }).toBe('Start your first trace');
    await expect.poll(stored).toEqual({ stage: 3, minimized: false, dismissed: false });
    const targets = await waitFor('the sample trace', async () => {
      const t = await cmd<AgentTarget[]>(app.url, cookie, `/cmd/agentTargets?agentId=${first.ID}`);
      return t.length > 0 ? t : undefined;
    }, 15_000);
    expect(targets.map((t) => t.IPAddress)).toEqual([sampleHost]);
    await win.getByRole('link', { name: `Open the trace to ${sampleHost}` }).waitFor();
    await waitFor('rounds of the sample trace on the agent', async () => agent!.rounds().length >= 2, 30_000);
    expect(await control('Back').isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'onboarding-3-trace.png') });

    // Forward to 4, back to 3 (the floor), then on to 6 where Finish replaces forward.
    await control('Forward').click();
    await expect.poll(title).toBe('Open a Target View');
    await control('Back').click();
    await expect.poll(title).toBe('Start your first trace');
    for (const next of ['Open a Target View', 'Open a Timeline Graph', 'Go forth and ping!']) {
      await control('Forward').click();
      await expect.poll(title).toBe(next);
    }
    expect(await control('Forward').count()).toBe(0);
    await expect.poll(stored).toEqual({ stage: 6, minimized: false, dismissed: false });

    // A reload keeps the stage and the place; Finish dismisses for good.
    await page.reload();
    await expect.poll(title, { timeout: 15_000 }).toBe('Go forth and ping!');
    expect(Math.round((await win.boundingBox())!.x)).toBe(Math.round(moved.x));
    expect(Math.round((await win.boundingBox())!.y)).toBe(Math.round(moved.y));
    await page.screenshot({ path: join(shots, 'onboarding-6-finish.png') });
    await control('Finish').click();
    await expect.poll(() => win.count()).toBe(0);
    await expect.poll(stored).toEqual({ stage: 6, minimized: false, dismissed: true });
    // After the reload's progress read has answered and the page has painted, nothing opens.
    const progressRead = page.waitForResponse((r) => r.url().includes('KeyName=CloudConnect-OnboardingProgressV2'));
    await page.reload();
    await progressRead;
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await win.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resume onboarding' }).count()).toBe(0);

    // Settings > General: the status, and Reset Onboarding (cloud mode) writes {} and goes to /.
    await page.goto(`${app.url}/settings`);
    await expect.poll(() => page.getByTestId('onboarding-status').textContent(), { timeout: 15_000 }).toBe('Complete');
    await page.screenshot({ path: join(shots, 'onboarding-settings.png') });
    await page.getByRole('button', { name: 'Reset Onboarding' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
    expect(await stored()).toEqual({});
    await expect.poll(title, { timeout: 15_000 }).toBe('Welcome');

    // Only for users holding SessionManagement and TargetManagement: the account's progress
    // shows to one with both, never to one without TargetManagement.
    await createWebUser(app.url, cookie, { email: 'both@example.org', password: 'Two-claims-pw-1', roles: ['SessionManagement', 'TargetManagement'] });
    await createWebUser(app.url, cookie, { email: 'sessions@example.org', password: 'One-claim-pw-1', roles: ['SessionManagement'] });
    const other = await openBrowser({ width: 1200, height: 800 });
    try {
      await signInWithForm(other.page, app.url, 'both@example.org', 'Two-claims-pw-1');
      await expect.poll(() => other.page.locator('#onboarding-title').textContent(), { timeout: 15_000 }).toBe('Welcome');
      await other.page.goto(`${app.url}/logout`);
      await other.page.waitForURL((u) => u.pathname === '/login');
      const progressReads: string[] = [];
      other.page.on('request', (r) => r.url().includes('OnboardingProgress') && progressReads.push(r.url()));
      await signInWithForm(other.page, app.url, 'sessions@example.org', 'One-claim-pw-1');
      await other.page.locator('.user-head').waitFor();
      await other.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await other.page.locator('.onboarding-window, .onboarding-resume').count()).toBe(0);
      // Its console does not even read the progress (the window is not mounted for it).
      expect(progressReads).toEqual([]);
    } finally {
      await other.close();
    }

    // Two closes: minimized, then dismissed.
    await control('Close onboarding').click();
    await page.getByRole('button', { name: 'Resume onboarding' }).waitFor();
    await page.getByRole('group', { name: 'Onboarding' }).getByRole('button', { name: 'Close onboarding' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Resume onboarding' }).count()).toBe(0);
    await expect.poll(stored).toEqual({ stage: 1, minimized: true, dismissed: true });
  }, 240_000);
});
