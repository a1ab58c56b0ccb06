// Browser test of the console's layout (issue 41 item 9): every route of the console's router
// (web/src/shell/routes.tsx, read at run time, so a new route is walked without touching this
// file) at 1024x700, 1440x900 and 2560x1440, with data in place: three traced targets of six
// hops, a summary of them, a LiveShare link (its views opened as a visitor), the alerts
// sidebar and every column of the grid shown, every Settings screen, the staff pages (the
// hosted flavour, root holds Staff). A page fails on horizontal overflow (the document
// scrolls sideways, or an element reaches past the window's right edge with nothing to
// scroll it), text clipped by its box (a box that hides overflow while its content is wider
// or taller, unless it ellipsizes deliberately and says the whole text in a title), and
// graphs under 120 px tall. One appliance on the simulated engine, one browser, the pages
// visited in a loop. Screenshots (test-results/layout-<size>-<page>.png) of each page found with a
// problem; of every page with HOPWATCH_LAYOUT_SHOTS=all, to look them over by hand (145 of them
// took a third of the suite's time, about 30 s of 100 on a quiet machine, in every CI run).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { LayoutLimits, layoutProblems } from '../support/layout-check.js';
import { addressesOf, routerPaths, SignedOutRoutes, SignsOut } from '../support/console-routes.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Layout-pw-1';
const Sizes = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
  { width: 2560, height: 1440 },
];
const TargetCount = 3;
const everyShot = process.env.HOPWATCH_LAYOUT_SHOTS === 'all';

describe('every route laid out at three sizes in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let scenarios: string;
  const values: Record<string, string> = {};
  const targetIds: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    scenarios = mkdtempSync(join(tmpdir(), 'hopwatch-layout-'));
    for (let i = 1; i <= TargetCount; i++) {
      const hops = [1, 2, 3, 4, 5].map((h) => `  - { v4: 10.251.${120 + h}.${i}, v6: "fd00:251:${120 + h}::${i}", rttMs: ${h * 0.7}, lossPercent: ${h === 3 ? 10 : 0}${h === 2 ? ', mpls: [{ label: 24001 }, { label: 16 }]' : ''} }`);
      writeFileSync(
        join(scenarios, `t${i}.yaml`),
        [`name: layout-${i}`, `seed: ${i}`, 'hops:', ...hops, `target: { v4: 10.251.130.${i}, v6: "fd00:251:130::${i}", rttMs: 4.5, jitterMs: 0.5 }`, ''].join('\n'),
      );
    }
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenarios, HOPWATCH_DEPLOYMENT: '1' } });
    const cookie = await signIn(app.url, 'admin', password);
    const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
      const r = await fetch(`${app.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...init.headers } });
      const text = await r.text();
      expect(r.status, `${path}: ${text}`).toBe(200);
      return JSON.parse(text) as T;
    };
    for (let i = 1; i <= TargetCount; i++) targetIds.push(String((await call<{ ID: number }>(`/cmd/newtarget?target=10.251.130.${i}&traceInterval=1`)).ID));
    const summary = await call<{ UniqueID: string }>(`/cmd/createsummary?name=${encodeURIComponent('Branch offices and the data centre uplinks')}`);
    for (const id of targetIds) await call(`/cmd/addhost?host=${id}&ID=${summary.UniqueID}`);
    const link = await call<{ ShareId: string; SecurePW: string }>('/api/liveshare', { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summary.UniqueID}`, Description: 'For the ISP' }) });
    Object.assign(values, {
      expired: 'expired',
      summaryUniqueID: summary.UniqueID,
      summaryId: summary.UniqueID,
      targetUniqueID: targetIds[0],
      targetId: targetIds[0],
      agentUniqueID: '-1',
      liveShareId: link.ShareId,
      liveSharePw: link.SecurePW,
    });
    browser = await openBrowser(Sizes[0]);
  }, 180_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'layout-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    if (scenarios) rmSync(scenarios, { recursive: true, force: true });
  });

  it('walks every route at 1024x700, 1440x900 and 2560x1440 without overflow, clipped text or short graphs', async () => {
    const paths = await routerPaths();
    expect(paths).toContain('/settings');
    const signedIn = paths.filter((p) => !SignsOut.has(p) && !SignedOutRoutes.has(p));
    const problems: string[] = [];
    const visited: string[] = [];

    /** Lets the page settle (data read, graphs plotted), then checks it; a screenshot of it if it failed. */
    const check = async (page: Page, size: { width: number }, name: string) => {
      await page.waitForFunction(() => !document.querySelector('.loading-pane, .startup-panel, #loading-panel'), undefined, { timeout: 10_000 });
      await page.waitForTimeout(150);
      const found = await page.evaluate(layoutProblems, LayoutLimits);
      visited.push(`${size.width} ${name}`);
      const file = `layout-${size.width}-${name.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'home'}.png`;
      if (found.length > 0 || everyShot) await page.screenshot({ path: join(shots, file) });
      for (const f of found) problems.push(`${size.width}px ${name}: ${f}`);
    };
    /**
     * Opens the address as the console's own links do (the router follows history), which
     * keeps the run short; a page not yet on the console (or a LiveShare link, which the
     * server answers itself) is loaded in full.
     */
    const visit = async (page: Page, size: { width: number }, address: string) => {
      const onConsole = page.url().startsWith(app.url) && !address.startsWith('/LiveShare/');
      if (onConsole) {
        await page.evaluate((to) => {
          history.pushState({}, '', to);
          dispatchEvent(new PopStateEvent('popstate'));
        }, address);
      } else await page.goto(`${app.url}${address}`);
      if (/^\/(targets|summary|summarys|LiveShare)\//.test(address)) {
        await page.getByTestId('trace-grid').waitFor({ timeout: 15_000 });
        await page.locator('section.timeline-graph canvas').first().waitFor({ timeout: 15_000 });
      }
      await check(page, size, address);
    };

    const admin = browser.context;
    await signInWithForm(browser.page, app.url, 'admin', password);
    const visitor: BrowserContext = await admin.browser()!.newContext();
    const visitorPage = await visitor.newPage();
    try {
      for (const size of Sizes) {
        const page = browser.page;
        await page.setViewportSize(size);
        await visitorPage.setViewportSize(size);
        for (const path of signedIn) for (const address of addressesOf(path, values)) await visit(page, size, address);

        // The target window with the alerts sidebar open and every column shown (Hosts, MPLS...).
        await visit(page, size, `/targets/${targetIds[0]}`);
        await page.getByTestId('alerts-toggle').click();
        await page.getByTestId('alerts-sidebar').waitFor();
        // The sidebar runs the window's full height (it started 50 px down, under nothing).
        const sidebarTop = (await page.getByTestId('alerts-sidebar').boundingBox())!.y;
        if (sidebarTop !== 0) problems.push(`${size.width}px: the alerts sidebar starts ${sidebarTop} px below the window's top`);
        await check(page, size, `/targets/${targetIds[0]} alerts`);
        await page.getByTestId('alerts-toggle').click();
        // The summary screen with the alerts sidebar open.
        await visit(page, size, `/summary/${values.summaryUniqueID}`);
        await page.getByTestId('alerts-toggle').click();
        await page.getByTestId('alerts-sidebar').waitFor();
        await check(page, size, `/summary/${values.summaryUniqueID} alerts`);
        await page.getByTestId('alerts-toggle').click();

        // Two graphs on one target (their loss-axis labels overlapped at 1600 px).
        await page.evaluate((id) => localStorage.setItem(`Visible_Graphs_${id}`, JSON.stringify([3, 6])), targetIds[0]);
        await page.goto(`${app.url}/targets/${targetIds[0]}`);
        await expect.poll(() => page.locator('section.timeline-graph canvas').count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
        await check(page, size, `/targets/${targetIds[0]} two graphs`);
        await page.evaluate((id) => localStorage.removeItem(`Visible_Graphs_${id}`), targetIds[0]);
        await page.evaluate(async (id) => {
          const defs = (await (await fetch(`/api/data/ColumnDefs?uniqueID=${id}`)).json()) as { Name: string; Width: number }[];
          localStorage.setItem('Target-Columns', JSON.stringify(defs.map((d) => ({ Name: d.Name, Width: d.Width }))));
        }, targetIds[0]);
        // Loaded in full: the stored columns are read as the console starts.
        await page.goto(`${app.url}/targets/${targetIds[0]}`);
        await page.locator('section.timeline-graph canvas').first().waitFor({ timeout: 15_000 });
        await check(page, size, `/targets/${targetIds[0]} every column`);
        await page.evaluate(() => localStorage.removeItem('Target-Columns'));

        // Every Settings screen (loaded in full: the stored columns are gone again).
        await page.goto(`${app.url}/settings`);
        const entries = page.locator('.settings-tree .settings-entry:not(.new-entry)');
        await entries.first().waitFor({ timeout: 10_000 });
        const count = await entries.count();
        for (let i = 0; i < count; i++) {
          const label = (await entries.nth(i).textContent()) ?? String(i);
          await entries.nth(i).click();
          await check(page, size, `/settings ${label}`);
        }

        // Signed out, and the LiveShare visitor's views (the summary, then a target of it).
        await visitor.clearCookies();
        for (const path of paths.filter((p) => SignedOutRoutes.has(p))) for (const address of addressesOf(path, values)) await visit(visitorPage, size, address);
        await visit(visitorPage, size, `/LiveShare/${values.liveShareId}/${values.liveSharePw}`);
        await visit(visitorPage, size, `/targets/${targetIds[1]}`);
      }
      // Last: the routes that end the session (they land on the sign-in page).
      for (const path of paths.filter((p) => SignsOut.has(p))) await visit(browser.page, Sizes[0], path);
    } finally {
      await visitor.close();
    }
    writeFileSync(join(shots, 'layout-visited.txt'), visited.join('\n'));
    expect(problems, problems.join('\n')).toEqual([]);
  }, 600_000);
});
