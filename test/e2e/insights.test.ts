// Browser test of the Insights panel (issue 21 item 4): the toggle, the opt-in ("No Thanks"
// closes without saving, "Yes, I will help!" saves), the tips card, an auto-run from
// navigation state with the default range, "Testing: ..." then Potential Issues naming
// hop 3 for loss from link 3, hovering highlights the failing hops in the grid, a segment
// sets the graphs' time focus, the feedback dialog ("(Required)" in red, then the thanks for
// 3 s), and the per-hop Target Details pop-up with its four uPlot charts. The history is a
// model scenario seeded through the ingest pipeline, on the simulated engine (no root).
// Screenshots: test-results/insights-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { readScenario } from '../insights/model.js';
import { seedScenario } from '../insights/seed-scenario.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Insights-screen-pw-1';
const env = { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_INSIGHTS: '1', HOPWATCH_ENGINE: 'simulated' };
const scenario = readScenario(fileURLToPath(new URL('../insights/scenarios/loss-from-link-3.yaml', import.meta.url)));

describe('the Insights panel in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let id = 0;
  const shot = (name: string) => page.screenshot({ path: join(shots, `insights-${name}.png`) });
  const panel = () => page.getByTestId('insights-panel');

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const first = await startAppliance({ env });
    await first.stop();
    id = await seedScenario(first.dataDir, scenario, 5);
    app = await startAppliance({ dataDir: first.dataDir, port: first.port, env });
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 180_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'insights-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('opt-in: No Thanks closes without saving, Yes saves', async () => {
    try {
      await page.goto(`${app.url}/targets/${id}`);
      await page.getByRole('button', { name: 'Insights' }).click();
      await panel().getByRole('button', { name: 'No Thanks' }).click();
      await expect.poll(() => panel().count()).toBe(0);
      const stored = await page.evaluate(() => fetch('/api/kvp/get?Type=User&KeyName=Insight-Opt-In').then((r) => r.text()));
      expect(stored).not.toMatch(/true/);
      await page.getByRole('button', { name: 'Insights' }).click();
      await panel().getByRole('button', { name: 'Yes, I will help!' }).click();
      await panel().getByRole('button', { name: 'Refresh' }).waitFor();
      await expect.poll(() => page.evaluate(() => fetch('/api/kvp/get?Type=User&KeyName=Insight-Opt-In').then((r) => r.text()))).toMatch(/true/);
      await panel().getByTestId('insights-tips').waitFor();
      // Session-kept visibility: a reload keeps the panel open.
      await page.reload();
      await panel().getByRole('button', { name: 'Refresh' }).waitFor({ timeout: 15_000 });
    } catch (e) {
      await shot('failure-optin');
      throw e;
    }
  });

  it('auto-runs from navigation state and names hop 3; hover highlights hops 3 to 6', async () => {
    try {
      // Navigation state { runInsights: true }, as a link inside the console sets it.
      await page.evaluate((path) => {
        history.pushState({ usr: { runInsights: true }, key: 'insights', idx: 1 }, '', path);
        dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
      }, `/targets/${id}`);
      const card = panel().getByTestId('insight-card').filter({ hasText: 'Packet loss begins at intermediate hop #3' });
      await card.waitFor({ timeout: 30_000 });
      await expect(panel().getByRole('heading', { name: 'Potential Issues' }).count()).resolves.toBe(1);
      await expect(panel().getByRole('heading', { name: 'Ruled Out Issues' }).count()).resolves.toBe(1);
      await card.hover();
      await expect.poll(() => page.getByTestId('trace-grid').getAttribute('data-decorations')).toBe(`${id}_h_3:Highlight ${id}_h_4:Highlight ${id}_h_5:Highlight ${id}_h_6:Highlight`);
      await shot('results');
      await page.mouse.move(5, 5);
      await expect.poll(() => page.getByTestId('trace-grid').getAttribute('data-decorations')).toBeNull();
      // A segment sets an explicit focus on its range.
      await card.locator('.segment').first().click();
      await expect.poll(() => page.getByText('Auto', { exact: true }).count()).toBe(0);
    } catch (e) {
      await shot('failure-results');
      throw e;
    }
  });

  it('feedback: a rating is required, then thanks for 3 seconds', async () => {
    try {
      const card = panel().getByTestId('insight-card').filter({ hasText: 'Packet loss begins' });
      await card.getByRole('button', { name: 'Feedback' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Send' }).click();
      const required = dialog.getByText('(Required)');
      await required.waitFor();
      expect(await required.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(220, 38, 38)');
      await dialog.getByLabel('Very useful').check();
      await dialog.getByLabel('Comments').fill('Hop 3 it was <b>indeed</b>');
      await dialog.getByRole('button', { name: 'Send' }).click();
      await dialog.getByText('Thanks for the feedback!').waitFor();
      await expect.poll(() => page.getByRole('dialog').count(), { timeout: 6000 }).toBe(0);
    } catch (e) {
      await shot('failure-feedback');
      throw e;
    }
  });

  it('Target Details shows the box plot and three charts (uPlot)', async () => {
    try {
      const card = panel().getByTestId('insight-card').filter({ hasText: 'Packet loss begins' });
      await card.getByRole('button', { name: 'Hop #3 details' }).click();
      const dialog = page.getByRole('dialog', { name: 'Target Details' });
      await dialog.waitFor();
      await expect.poll(() => dialog.getByTestId('wisdom-chart').count()).toBe(4);
      const heights = await dialog.locator('.uplot canvas').evaluateAll((cs) => cs.map((c) => Math.round((c as HTMLCanvasElement).getBoundingClientRect().height)));
      expect(heights.length).toBe(4);
      expect(heights[0]).toBeGreaterThan(heights[1]);
      await shot('details');
    } catch (e) {
      await shot('failure-details');
      throw e;
    }
  });
});
