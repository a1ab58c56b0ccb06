// Browser test of the onboarding window where a customer of the hosted flavour meets it (issue
// 41 item 14; HOPWATCH_DEPLOYMENT=1, HOPWATCH_ONBOARDING=1, simulated engine): the window opens
// clear of the newest part of the graphs and of the toasts, stays wholly on screen after the
// browser shrinks, keeps stage 3's "Open the trace" link across a reload, and stages 4-5 move
// on by what the user does (a Target View opened, a timeline graph used). And a customer's
// console asks only for what its user may read: every route of the router opened by a user of
// a customer account, with every claim a customer can hold, draws no 403.
// Screenshots: test-results/onboarding-hosted-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { addressesOf, routerPaths, SignedOutRoutes, SignsOut } from '../support/console-routes.js';
import { seedAccount } from '../support/staff-users.js';
import { agentList, cmd, startAgent, waitFor, type AgentProcess } from '../agents/support.js';
import type { AgentDownloadLink } from '../../server/contract/agents.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Onboarding-hosted-pw-1';
const CustomerPw = 'Customer-pw-e2e-1';
const SampleHost = '10.251.141.9';
/** Every claim a customer account's user can hold (Staff and impersonation are the provider's). */
const CustomerRoles = ['UserManagement', 'TargetManagement', 'SummaryManagement', 'CloudConnectManagement', 'SessionManagement', 'AlertsManagement', 'SettingsManagement'];

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('the onboarding window of the hosted flavour in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let agent: AgentProcess | undefined;
  let simDir: string;
  let agentEnv: Record<string, string>;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    simDir = mkdtempSync(join(tmpdir(), 'hopwatch-onboarding-hosted-'));
    const file = join(simDir, 'branch.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'branch',
        source: { v4: '10.251.140.1', v6: 'fd00:251:140::1' },
        hops: [
          { v4: '10.251.140.2', v6: 'fd00:251:140::2', rttMs: 0.6 },
          { v4: '10.251.140.3', v6: 'fd00:251:140::3', rttMs: 1.4 },
        ],
        target: { v4: SampleHost, v6: 'fd00:251:141::9', rttMs: 2.5, jitterMs: 0.4 },
      }),
    );
    agentEnv = { HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
    const env = { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ONBOARDING: '1', HOPWATCH_ONBOARDING_TARGET: SampleHost, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file };
    const first = await startAppliance({ env });
    await first.stop();
    await seedAccount(first.dataDir, 'Acme Networks', [
      { name: 'cara', email: 'cara@acme.example', password: CustomerPw, roles: CustomerRoles },
      { name: 'tom', email: 'tom@acme.example', password: CustomerPw, roles: ['TargetManagement'] },
    ]);
    app = await first.restart();
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
  }, 180_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'onboarding-hosted-server.log'), app.output());
    await agent?.dispose();
    await browser?.close();
    await app?.dispose();
    if (simDir) rmSync(simDir, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: join(shots, `onboarding-hosted-${name}.png`) });
  const win = () => page.getByRole('dialog').filter({ has: page.locator('.onboarding-head') });
  const title = () => win().locator('#onboarding-title').textContent();
  const control = (name: string) => win().getByRole('button', { name, exact: true });
  const boxOf = async (l: Locator): Promise<Box> => (await l.boundingBox())!;

  it('stays on screen, clear of the graphs and toasts, keeps its link, and follows the user through stages 4 and 5', async () => {
    try {
      const cookie = await signIn(app.url, 'admin', password);
      await signInWithForm(page, app.url, 'admin', password);
      await expect.poll(title, { timeout: 15_000 }).toBe('Welcome');

      // It opens beside the sidebar, not at the bottom right where the newest data and the toasts are.
      const sidebar = await boxOf(page.locator('.sidebar'));
      const opened = await boxOf(win());
      expect(opened.x).toBeGreaterThanOrEqual(sidebar.x + sidebar.width);
      expect(opened.x + opened.width).toBeLessThan(1440 / 2 + 200);

      // The browser shrinks to 1024x700: the whole window stays on screen (it stayed at x=1209).
      await page.setViewportSize({ width: 1024, height: 700 });
      await expect.poll(async () => {
        const b = await boxOf(win());
        return b.x >= 0 && b.y >= 0 && b.x + b.width <= 1024 && b.y + b.height <= 700;
      }).toBe(true);
      await shot('1024');

      // Stage 2 creates "First agent" and says so in a toast: the toast leaves the window's buttons free.
      await control('Forward').click();
      await expect.poll(title).toBe('Deploy your first Agent');
      const toast = page.locator('.toast').filter({ hasText: 'Successfully created agent: First agent' });
      await toast.waitFor({ timeout: 15_000 });
      const toastBox = await boxOf(toast);
      for (const name of ['Download Agent', 'Get Help', 'Back', 'Forward', 'Close onboarding']) expect(overlaps(toastBox, await boxOf(control(name))), `the toast covers ${name}`).toBe(false);
      await shot('toast');

      // An agent joins: stage 3 and the sample trace; its link is there again after a reload.
      const first = await waitFor('First agent', async () => (await agentList(app.url, cookie)).find((a) => a.Name === 'First agent'), 15_000);
      const link = await cmd<AgentDownloadLink>(app.url, cookie, `/cmd/download-link/${first.ID}`);
      agent = startAgent(['setup', link.SetupLink], { env: agentEnv });
      await expect.poll(title, { timeout: 60_000 }).toBe('Start your first trace');
      const traceLink = win().getByRole('link', { name: `Open the trace to ${SampleHost}` });
      await traceLink.waitFor({ timeout: 15_000 });
      await page.reload();
      await expect.poll(title, { timeout: 15_000 }).toBe('Start your first trace');
      await traceLink.waitFor({ timeout: 15_000 });
      await shot('3-after-reload');

      // Opening the trace's Target View does what stages 3 and 4 ask: on to "Open a Timeline Graph".
      await traceLink.click();
      await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname));
      await expect.poll(title, { timeout: 10_000 }).toBe('Open a Timeline Graph');
      const plot = page.locator('section.timeline-graph .timeline-plot').first();
      await plot.locator('canvas').first().waitFor({ timeout: 20_000 });
      // The newest part of the graph (its right quarter) is not under the window.
      const p = await boxOf(plot);
      const newest = { x: p.x + p.width * 0.75, y: p.y, width: p.width * 0.25, height: p.height };
      expect(overlaps(newest, await boxOf(win())), 'the window covers the newest part of the graph').toBe(false);
      await shot('5-target');

      // Using the graph (a press on its plot) finishes stage 5.
      await page.mouse.click(p.x + p.width * 0.6, p.y + p.height / 2);
      await expect.poll(title, { timeout: 10_000 }).toBe('Go forth and ping!');
      await shot('6');
    } catch (err) {
      await shot('failed').catch(() => undefined);
      throw err;
    }
  }, 240_000);

  it.each([
    ['every claim a customer can hold', 'cara@acme.example'],
    ['TargetManagement only', 'tom@acme.example'],
  ])("a customer's console asks only for what its user may read (%s): no 403 on any route", async (_, email) => {
    const customer = await openBrowser({ width: 1440, height: 900 });
    const refused: string[] = [];
    try {
      const cpage = customer.page;
      cpage.on('response', (r) => void (r.status() === 403 && refused.push(`${r.request().method()} ${new URL(r.url()).pathname} (on ${new URL(cpage.url()).pathname})`)));
      await signInWithForm(cpage, app.url, email, CustomerPw);
      const paths = (await routerPaths()).filter((p) => !SignsOut.has(p) && !SignedOutRoutes.has(p));
      // The customer's own ids where a route takes one; others' pages answer their own "not found".
      const values = { summaryUniqueID: '1', summaryId: '1', targetUniqueID: '1', targetId: '1', agentUniqueID: '1', expired: 'expired' };
      for (const path of paths)
        for (const address of addressesOf(path, values)) {
          await cpage.goto(`${app.url}${address}`);
          await cpage.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
        }
      await cpage.screenshot({ path: join(shots, `onboarding-hosted-customer-${email.split('@')[0]}.png`) });
    } finally {
      await customer.close();
    }
    expect(refused).toEqual([]);
  }, 240_000);
});
