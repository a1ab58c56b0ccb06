// Browser test of the alerts sidebar (issue 22): Show alerts on a target window, select a hop
// row in the grid, create an alert on it from the New alert modal (a latency condition that
// holds at once on loopback, commenting the graph), see HasAlert on the rows, see the alert's
// comment on the graph, delete it. The alert's name carries markup, shown as text. Debian
// Chromium via playwright-core; screenshots in test-results/alerts-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { engineEnv } from '../support/trace-network.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Alerts-screen-pw-1';
const AlertName = 'Loopback <i>slow</i>';

describe('the alerts sidebar in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let targetId: number;
  let cookie: string;
  const shot = (name: string) => page.screenshot({ path: join(shots, `alerts-${name}.png`) });
  const sidebar = () => page.getByTestId('alerts-sidebar');

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { ...engineEnv(), HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_INSIGHTS: '1' } });
    cookie = await signIn(app.url, 'admin', password);
    const started = await (await fetch(`${app.url}/cmd/newtarget?target=127.0.0.1&traceInterval=0.5`, { headers: { cookie } })).json();
    targetId = started.ID;
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    page.on('dialog', (d) => void d.accept());
    await signInWithForm(page, app.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'alerts-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  const hasAlert = () =>
    page.evaluate(async (id) => {
      const r = await fetch(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`);
      const body = (await r.json()) as { Rows: { HasAlert: boolean }[] };
      return body.Rows.length > 0 && body.Rows.every((x) => x.HasAlert);
    }, targetId);

  it('creates an alert on the selected row, fires it, shows its comment, deletes it', async () => {
    try {
      await page.goto(`${app.url}/targets/${targetId}`);
      const grid = page.getByTestId('trace-grid');
      await grid.waitFor({ timeout: 20_000 });
      await page.getByTestId('alerts-toggle').click();
      await expect.poll(() => page.getByTestId('alerts-toggle').textContent()).toBe('Hide alerts');
      await sidebar().getByText('No alerts yet.').waitFor({ timeout: 10_000 });
      expect((await sidebar().boundingBox())!.width).toBe(350);

      // Select the hop 1 row (header 34 px, rows 30 px; row 1 is the target header row).
      const box = (await grid.boundingBox())!;
      await page.mouse.click(box.x + 200, box.y + 34 + 30 + 15);
      await sidebar().getByText('1 target selected.').waitFor({ timeout: 10_000 });

      await sidebar().getByRole('button', { name: 'New alert...' }).click();
      const modal = page.locator('.alerts-modal');
      await modal.locator('input[name="Name"]').waitFor({ timeout: 10_000 });
      expect(await modal.locator('input[name="Hop"]').inputValue()).toBe('1');
      await modal.locator('input[name="Name"]').fill(AlertName);
      await modal.locator('select[name="Kind"]').selectOption('latency');
      await modal.locator('input[name="Samples"]').fill('2');
      await modal.locator('input[name="ThresholdMs"]').fill('0');
      // Send test of the comment action answers what it did.
      await modal.getByRole('button', { name: 'Send test' }).click();
      await expect.poll(() => modal.locator('output[data-test-answer]').textContent(), { timeout: 10_000 }).toMatch(/^Worked: Comment \d+ added/);
      await shot('new');
      await modal.getByRole('button', { name: 'Finish' }).click();
      await sidebar().getByText('Alert created').waitFor({ timeout: 10_000 });
      await sidebar().getByRole('button', { name: 'Back to alerts' }).click();

      // The name shows as text, its markup escaped.
      const card = sidebar().locator('.alert-card');
      await card.waitFor({ timeout: 10_000 });
      expect(await card.locator('h3').textContent()).toBe(AlertName);
      expect(await card.locator('h3 i').count()).toBe(0);
      await expect.poll(hasAlert, { timeout: 10_000 }).toBe(true);

      // Fired: the alert's comment on the graph, and firing on the card once reloaded.
      await page.locator(`.comment-marker[aria-label^="Comment: Alert \\"${AlertName}\\" started"]`).first().waitFor({ timeout: 30_000 });
      // Hide and show again: the sidebar loads its page anew.
      await page.getByTestId('alerts-toggle').click();
      await page.getByTestId('alerts-toggle').click();
      await expect.poll(() => sidebar().locator('.alert-card').textContent(), { timeout: 10_000 }).toMatch(/firing on/);
      await shot('fired');

      await card.getByRole('button', { name: 'Delete alert' }).click();
      // Asked in the console's own dialog (issue 41 item 8; test/e2e/alert-form.test.ts).
      await page.getByRole('dialog', { name: 'Delete alert' }).getByRole('button', { name: 'Delete' }).click();
      await sidebar().getByText('No alerts yet.').waitFor({ timeout: 10_000 });
      await expect.poll(hasAlert, { timeout: 10_000 }).toBe(false);
      await page.getByTestId('alerts-toggle').click();
      await expect.poll(() => sidebar().count()).toBe(0);
    } catch (err) {
      await shot('failure');
      throw err;
    }
  }, 120_000);

  // The sidebar is fixed to the right edge: the screen must keep its width free, or it hides
  // the grid's right-hand columns (it did: the grid ran on under it).
  it('keeps the grid beside the open sidebar, on the target window (Insights open too) and the summary screen, at any width', async () => {
    try {
      const besideEachOther = async () => {
        const grid = (await page.getByTestId('trace-grid').boundingBox())!;
        const side = (await sidebar().boundingBox())!;
        return { gridRight: Math.round(grid.x + grid.width), sidebarLeft: Math.round(side.x), gridWidth: Math.round(grid.width) };
      };
      await page.goto(`${app.url}/targets/${targetId}`);
      await page.getByTestId('trace-grid').waitFor({ timeout: 20_000 });
      if ((await page.getByTestId('alerts-toggle').textContent()) !== 'Hide alerts') await page.getByTestId('alerts-toggle').click();
      await sidebar().waitFor({ timeout: 10_000 });
      await expect.poll(async () => { const b = await besideEachOther(); return b.gridRight <= b.sidebarLeft; }, { timeout: 10_000 }).toBe(true);
      expect((await besideEachOther()).gridWidth).toBeGreaterThan(600);
      await shot('layout-target');

      // Dragged wider (its left edge 250 px to the left): the grid narrows with it.
      const side = (await sidebar().boundingBox())!;
      await page.mouse.move(side.x + 2, side.y + 200);
      await page.mouse.down();
      await page.mouse.move(side.x + 2 - 250, side.y + 200, { steps: 5 });
      await page.mouse.up();
      await expect.poll(async () => (await sidebar().boundingBox())!.width).toBe(600);
      await expect.poll(async () => { const b = await besideEachOther(); return b.gridRight <= b.sidebarLeft; }, { timeout: 10_000 }).toBe(true);

      // With Insights open too: the sidebar sits left of it, the grid left of both.
      const insights = page.getByTestId('insights-panel');
      if (!(await insights.count())) await page.getByRole('button', { name: 'Insights', exact: true }).click();
      await insights.waitFor({ timeout: 10_000 });
      await expect.poll(async () => {
        const b = await besideEachOther();
        const side = (await sidebar().boundingBox())!;
        const ins = (await insights.boundingBox())!;
        return b.gridRight <= b.sidebarLeft && Math.round(side.x + side.width) <= Math.round(ins.x);
      }, { timeout: 10_000 }).toBe(true);
      await shot('layout-insights');
      await page.getByRole('button', { name: 'Close Insights' }).click();
      await expect.poll(() => insights.count()).toBe(0);

      // The summary screen (All Targets) shows it too (visibility is kept), beside its grid.
      await page.goto(`${app.url}/`);
      await page.getByTestId('trace-grid').waitFor({ timeout: 20_000 });
      await sidebar().waitFor({ timeout: 10_000 });
      await expect.poll(async () => { const b = await besideEachOther(); return b.gridRight <= b.sidebarLeft; }, { timeout: 10_000 }).toBe(true);
      await shot('layout-summary');
      // Hidden: the grid takes the width back.
      const narrow = (await besideEachOther()).gridRight;
      await page.getByTestId('alerts-toggle').click();
      await expect.poll(() => sidebar().count()).toBe(0);
      await expect.poll(async () => { const g = (await page.getByTestId('trace-grid').boundingBox())!; return g.x + g.width - narrow; }, { timeout: 10_000 }).toBeGreaterThanOrEqual(340);
    } catch (err) {
      await shot('layout-failure');
      throw err;
    }
  }, 120_000);
});
