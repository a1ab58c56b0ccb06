// Issue 41 item 1 in Chromium, on the simulated engine (any user): the lossy-silent scenario
// (test/sim/scenarios/lossy-silent.yaml): router 2 never answers time exceeded but forwards,
// router 3 drops 30% of what it forwards. Hop 2's 100% is not loss on the path (later hops
// answer), so the grid shows it muted (grey, no loss bar) with a tooltip saying why, and its
// timeline graph draws its loss grey; hop 3's 30%, which carries on, stays red and says
// nothing. The rule is server/contract/hop-loss.ts, the one Insights uses.
// Screenshots: test-results/silent-hop-loss-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const scenarioFile = resolve(import.meta.dirname, '../sim/scenarios/lossy-silent.yaml');
const password = 'Silent-hop-pw-1';
const target = '10.251.111.34';
const SilentText = 'This router does not answer traceroute probes; later hops do, so the path is not losing packets here.';
const HeaderPx = 34;
const RowPx = 30;

describe('a silent hop is not drawn as loss on the path (Chromium)', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;

  /** The tooltip shown over the Graph cell of grid row `index` (0: the target's row). */
  const tooltipOverGraphCell = async (index: number) => {
    const box = (await page.getByTestId('trace-grid').boundingBox())!;
    await page.mouse.move(box.x + box.width - 120, box.y + HeaderPx + index * RowPx + RowPx / 2);
    const tip = page.getByRole('tooltip');
    await page.waitForTimeout(50); // let the hover land before asking (the tooltip is React state)
    return (await tip.count()) ? tip.textContent() : null;
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenarioFile } });
    browser = await openBrowser({ width: 1400, height: 1300 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'silent-hop-loss-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('mutes the silent router in the grid and its graph, and keeps the real loss red', async () => {
    try {
      await startTraceFromEntry(page, '1 s', target);
      await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
      const sessionId = new URL(page.url()).pathname.split('/').pop()!;
      const grid = page.getByTestId('trace-grid');
      // Hop 2 (silent, hops 3-5 answer) is muted; hop 3's loss carries on to the target: not muted.
      await expect.poll(() => grid.getAttribute('data-muted-loss'), { timeout: 30_000, interval: 500 }).toBe(`${sessionId}_h_2:Silent`);
      // Enough rounds that hop 3's loss shows (and is still not muted).
      await page.waitForTimeout(8_000);
      expect(await grid.getAttribute('data-muted-loss')).toBe(`${sessionId}_h_2:Silent`);

      await expect.poll(() => tooltipOverGraphCell(2), { timeout: 10_000 }).toBe(SilentText);
      await page.screenshot({ path: join(shots, 'silent-hop-loss-grid.png') });
      expect(await tooltipOverGraphCell(3)).toBeNull();

      // Hop 2's timeline graph: its loss drawn grey, with the note saying why.
      const box = (await grid.boundingBox())!;
      await page.mouse.click(box.x + 60, box.y + HeaderPx + 2 * RowPx + RowPx / 2, { button: 'right' });
      await page.getByRole('menuitem', { name: 'Show timeline graph' }).click();
      const graph = page.locator(`section.timeline-graph[data-row-id="${sessionId}_h_2"]`);
      await expect.poll(() => graph.getAttribute('data-loss-muted'), { timeout: 10_000 }).toBe('Silent');
      expect(await graph.locator('.timeline-muted-loss').getAttribute('title')).toBe(SilentText);
      // The last hop's graph (shown by default) is loss on the path: no note.
      const last = page.locator(`section.timeline-graph[data-row-id="${sessionId}_h_5"]`);
      if (await last.count()) expect(await last.getAttribute('data-loss-muted')).toBeNull();
      await page.waitForTimeout(1_500);
      await page.screenshot({ path: join(shots, 'silent-hop-loss-graph.png') });
    } catch (err) {
      await page.screenshot({ path: join(shots, 'silent-hop-loss-failure.png') });
      throw err;
    }
  }, 120_000);
});
