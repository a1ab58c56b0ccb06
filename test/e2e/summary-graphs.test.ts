// Browser test of the summary screen's timeline graphs with many targets (issue 18), on the
// simulated engine (one scenario per target, 1 s interval): every target has its graph frame
// with its link, but only the graphs in or near the graphs pane's view plot (a uPlot canvas)
// and load data; scrolling the pane brings the others in and lets those left far behind go.
// The rows stay live meanwhile (read again as SummaryHostUpdated comes). Screenshot:
// test-results/summary-graphs.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Summary-graphs-pw-1';
const TARGETS = 24;

describe('All Targets with many targets in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let scenarios: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    scenarios = mkdtempSync(join(tmpdir(), 'hopwatch-summary-graphs-'));
    for (let i = 1; i <= TARGETS; i++) {
      writeFileSync(
        join(scenarios, `t${i}.yaml`),
        [`name: graphs-${i}`, `seed: ${i}`, 'hops:', `  - { v4: 10.251.116.${i}, v6: "fd00:251:116::${i.toString(16)}", rttMs: 0.5 }`, `target: { v4: 10.251.117.${i}, v6: "fd00:251:117::${i.toString(16)}", rttMs: 1.5, jitterMs: 0.5 }`, ''].join('\n'),
      );
    }
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenarios } });
    const cookie = await signIn(app.url, 'admin', password);
    for (let i = 1; i <= TARGETS; i++) {
      const r = await fetch(`${app.url}/cmd/newtarget?target=10.251.117.${i}&traceInterval=1`, { headers: { cookie } });
      expect(r.status, await r.text()).toBe(200);
    }
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 180_000);
  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'summary-graphs-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    if (scenarios) rmSync(scenarios, { recursive: true, force: true });
  });

  it('plots the graphs near the view only, follows a scroll, and keeps the rows live', async () => {
    try {
      const bucketsOf = new Set<string>();
      page.on('request', (req) => {
        const u = new URL(req.url());
        if (u.pathname === '/api/data/DataPointBuckets') bucketsOf.add(u.searchParams.get('targetId') ?? '');
      });
      await page.goto(`${app.url}/`);
      await expect.poll(() => page.getByTestId('trace-grid').getAttribute('data-row-count'), { timeout: 30_000 }).toBe(String(TARGETS));
      const graphs = page.locator('.graphs-pane section.timeline-graph');
      // Every target has its frame and link.
      await expect.poll(() => graphs.count()).toBe(TARGETS);
      expect(await page.locator('.graphs-pane section.timeline-graph a.timeline-link').count()).toBe(TARGETS);
      // The first graph plots and loads its data; the last, many pane heights down, neither.
      const first = (await graphs.first().getAttribute('data-row-id'))!;
      const last = (await graphs.last().getAttribute('data-row-id'))!;
      await graphs.first().locator('canvas').first().waitFor({ timeout: 15_000 });
      await expect.poll(() => bucketsOf.has(first), { timeout: 15_000 }).toBe(true);
      expect(await graphs.last().locator('canvas').count()).toBe(0);
      expect(await page.locator('.graphs-pane section.timeline-graph canvas').count()).toBeLessThan(TARGETS);
      expect(bucketsOf.has(last)).toBe(false);

      // Scrolled to the bottom: the last graph plots and loads its data; the first is let go.
      await page.locator('.graphs-pane').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await graphs.last().locator('canvas').first().waitFor({ timeout: 15_000 });
      await expect.poll(() => bucketsOf.has(last), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => graphs.first().locator('canvas').count(), { timeout: 15_000 }).toBe(0);

      // Live: the rows are read again as the targets report.
      let reads = 0;
      const count = (req: { url: () => string }) => void (req.url().includes('/api/data/TraceGraphRows') && reads++);
      page.on('request', count);
      await page.waitForTimeout(4000);
      page.off('request', count);
      expect(reads).toBeGreaterThanOrEqual(2);
      await page.screenshot({ path: join(shots, 'summary-graphs.png') });
    } catch (err) {
      await page.screenshot({ path: join(shots, 'summary-graphs-failed.png') }).catch(() => undefined);
      throw err;
    }
  }, 120_000);
});
