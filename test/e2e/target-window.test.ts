// Browser test of the target window (issue 6): Debian Chromium driven by playwright-core
// against the built appliance tracing a netns chain host -> r1 -> r2 (30% loss) -> r3 ->
// target. Types the target and presses Enter, reads the hop rows (addresses and loss) from
// the grid, checks the loss on the timeline graphs, pans and zooms the timeline, adds a
// comment, and saves screenshots under test-results/target-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { traceNetwork, type TraceNetwork } from '../support/trace-network.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = process.env.HOPWATCH_ROOT_PASSWORD || 'Target-window-pw-1';

// As root the chain is network namespaces; otherwise the same chain on the engine's simulated
// network (test/support/trace-network.ts).
describe('target window in Chromium on a lossy chain', () => {
  let topo: TraceNetwork;
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let targetId = '';
  let startedAt = 0;

  const shot = (name: string) => page.screenshot({ path: join(shots, `target-${name}.png`) });
  const see = (text: string, timeout = 15_000) => page.getByText(text, { exact: true }).first().waitFor({ state: 'visible', timeout });
  /** The grid's accessible table: one array of cell texts per row (glide renders it for screen readers). */
  const gridRows = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
      ),
    );
  const columnIndex = async (caption: string) =>
    page.evaluate(
      (c) => [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] thead th')].findIndex((th) => th.textContent === c),
      caption,
    );
  const rangeText = () => page.getByTestId('focus-range').textContent();
  const rangeLengthSeconds = async () => {
    const m = /(\d\d):(\d\d):(\d\d) - (\d\d):(\d\d):(\d\d)/.exec((await rangeText()) ?? '');
    if (!m) throw new Error(`no range in ${await rangeText()}`);
    const s = (h: string, mi: string, se: string) => Number(h) * 3600 + Number(mi) * 60 + Number(se);
    return { start: s(m[1], m[2], m[3]), end: s(m[4], m[5], m[6]), length: (s(m[4], m[5], m[6]) - s(m[1], m[2], m[3]) + 86400) % 86400 };
  };
  /** Share of red (packet-loss bar) pixels inside a timeline graph's plot area. */
  const redShare = (rowId: string) =>
    page.evaluate((id) => {
      const canvas = document.querySelector<HTMLCanvasElement>(`section[data-row-id="${id}"] canvas`);
      const over = document.querySelector<HTMLElement>(`section[data-row-id="${id}"] .u-over`);
      if (!canvas || !over) return -1;
      const c = canvas.getBoundingClientRect();
      const o = over.getBoundingClientRect();
      const k = canvas.width / c.width;
      const [x, y, w, h] = [(o.left - c.left) * k, (o.top - c.top) * k, o.width * k, o.height * k].map(Math.round);
      const { data } = canvas.getContext('2d')!.getImageData(x, y, w, h);
      let red = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] > 180 && data[i + 1] < 100 && data[i + 2] < 130 && data[i + 3] > 100) red++;
      return red / (w * h);
    }, rowId);
  /** The plot area of a hop's timeline graph, scrolled into view. */
  const plotBox = async (hop: number) => {
    const plot = page.locator(`section[data-row-id="${targetId}_h_${hop}"] .u-over`);
    await plot.scrollIntoViewIfNeeded();
    return (await plot.boundingBox())!;
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    topo = traceNetwork({ id: 31, routers: 3, loss: [{ router: 2, percent: 30 }] });
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
    app = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: password, ...topo.env } });
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'target-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    topo?.destroy();
  });

  it('shows All Targets with the target entry on / and starts a trace with Enter', async () => {
    await see('All Targets');
    await see('Start a trace');
    await shot('new');
    await startTraceFromEntry(page, '0.2 s', topo.target.v4);
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
    targetId = new URL(page.url()).pathname.split('/')[2];
    startedAt = Date.now();
    await see(`via Local Machine`);
    await page.waitForTimeout(3000);
    await shot('started');
  }, 30_000);

  it('lists the hops with the addresses of the routers and the target', async () => {
    await expect.poll(() => columnIndex('IP'), { timeout: 15_000 }).toBeGreaterThanOrEqual(0);
    const ip = await columnIndex('IP');
    const want = [1, 2, 3, 4].map((k) => topo.hop(k).v4);
    await expect
      .poll(async () => (await gridRows()).slice(1, 5).map((r) => r[ip]), { timeout: 30_000, interval: 500 })
      .toEqual(want);
    // Rows past the target (rounds whose target probe was lost probe further) answer nothing or the target.
    for (const r of (await gridRows()).slice(5)) expect(['*', topo.target.v4]).toContain(r[ip]);
    expect((await gridRows())[0][ip]).toBe(topo.target.v4);
  }, 40_000);

  it('shows the loss on the lossy hop and after it in the grid, none before it', async () => {
    const pl = await columnIndex('PL%');
    // Rounds accumulate in the 10-minute focus until the estimate settles: none on hop 1,
    // about 30% (within 3.5 standard deviations of ~150 rounds) from the lossy router on.
    await expect
      .poll(
        async () => {
          const rows = (await gridRows()).slice(1, 5);
          return rows.length === 4 && Number(rows[0][pl]) === 0 && rows.slice(1).every((r) => Math.abs(Number(r[pl]) - 30) < 13);
        },
        { timeout: 90_000, interval: 1000 },
      )
      .toBe(true);
    await shot('grid-loss');
  }, 100_000);

  it('draws packet loss on the timeline graph of the target, and none on hop 1', async () => {
    // The final hop's graph is shown by default; show hop 1's from the row context menu.
    const finalRow = `${targetId}_h_4`;
    await page.locator(`section[data-row-id="${finalRow}"]`).waitFor({ timeout: 15_000 });
    const grid = page.getByTestId('trace-grid');
    const box = (await grid.boundingBox())!;
    // Row 2 of the grid (header 34 px, rows 30 px): hop 1.
    await page.mouse.click(box.x + 200, box.y + 34 + 30 + 15, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Show timeline graph' }).click();
    const firstRow = `${targetId}_h_1`;
    await page.locator(`section[data-row-id="${firstRow}"]`).waitFor({ timeout: 15_000 });
    // Give the graphs room: drag the splitter up.
    const split = (await page.getByRole('separator').boundingBox())!;
    await page.mouse.move(split.x + split.width / 2, split.y + 4);
    await page.mouse.down();
    await page.mouse.move(split.x + split.width / 2, split.y - 180, { steps: 6 });
    await page.mouse.up();
    await page.getByLabel('Time span').first().selectOption('1');
    await expect.poll(() => redShare(finalRow), { timeout: 20_000, interval: 500 }).toBeGreaterThan(0.002);
    expect(await redShare(firstRow)).toBeLessThan(0.0005);
    await shot('graphs-loss');
  }, 60_000);

  it('zooms and pans the timeline and shows the range it covers', async () => {
    // More history than the zoomed view, so a drag back in time has somewhere to go.
    await page.waitForTimeout(Math.max(0, startedAt + 75_000 - Date.now()));
    const before = await rangeLengthSeconds();
    expect(before.length).toBe(60);
    const pb = await plotBox(4);
    // Zoom in: two wheel notches at the middle.
    await page.mouse.move(pb.x + pb.width / 2, pb.y + pb.height / 2);
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await rangeLengthSeconds()).length, { timeout: 5000 }).toBeLessThan(45);
    const zoomed = await rangeLengthSeconds();
    expect(zoomed.length).toBeGreaterThanOrEqual(10);
    // Pan back in time: drag right by half the plot.
    await page.mouse.move(pb.x + pb.width * 0.3, pb.y + pb.height / 2);
    await page.mouse.down();
    await page.mouse.move(pb.x + pb.width * 0.55, pb.y + pb.height / 2, { steps: 8 });
    await page.mouse.move(pb.x + pb.width * 0.8, pb.y + pb.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.waitForTimeout(400);
    const panned = await rangeLengthSeconds();
    expect(Math.abs(panned.length - zoomed.length)).toBeLessThanOrEqual(1);
    let behind = zoomed.end - panned.end;
    if (behind < -43200) behind += 86400; // across midnight
    expect(behind).toBeGreaterThanOrEqual(Math.floor(zoomed.length * 0.3));
    // Live is off: the range stays where it was dragged while samples keep coming.
    await page.waitForTimeout(1500);
    expect((await rangeLengthSeconds()).end).toBe(panned.end);
    await shot('panned');
    // Reset to Current makes the view live again: it jumps to the newest sample and follows it.
    await page.getByLabel('Time span').first().selectOption('reset');
    await expect.poll(async () => (await rangeLengthSeconds()).end - panned.end, { timeout: 5000 }).toBeGreaterThanOrEqual(behind);
    const live = await rangeLengthSeconds();
    await expect.poll(async () => (await rangeLengthSeconds()).end, { timeout: 5000 }).toBeGreaterThan(live.end);
  }, 120_000);

  it('refuses an empty comment and shows a saved comment on the strip', async () => {
    await page.getByLabel('Time span').first().selectOption('5');
    const pb = await plotBox(4);
    await page.mouse.click(pb.x + pb.width * 0.7, pb.y + pb.height / 2, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Create comment...' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await see('Comment not saved - no text entered.');
    await page.getByLabel('Time', { exact: true }).fill('10 seconds ago');
    await page.getByLabel('Comment', { exact: true }).fill('Loss starts at r2');
    await page.getByLabel('Time', { exact: true }).blur();
    await page.getByRole('button', { name: 'Save' }).click();
    const marker = page.locator(`section[data-row-id="${targetId}_h_4"] .comment-marker[aria-label="Comment: Loss starts at r2"]`);
    await marker.waitFor({ timeout: 10_000 });
    await page.mouse.move(pb.x + pb.width * 0.5, pb.y + pb.height / 2);
    await shot('comment');
  }, 30_000);

  it('starts the typed target, not the paused one, when the name of the reopened target answers late', async () => {
    await page.getByRole('button', { name: 'Pause' }).click();
    await see('Paused');
    // The paused target's window. Hold its rows until the user has changed the interval and
    // typed another address, so the target's name arrives after the typing.
    let release = () => {};
    const held = new Promise<void>((ok) => (release = ok));
    await page.route(`**/api/data/TraceGraphRows?*uniqueID=${targetId}&*`, async (route) => {
      await held;
      await route.continue();
    });
    const commands: string[] = [];
    page.on('request', (r) => r.url().includes('/cmd/') && commands.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await page.goto(`${app.url}/targets/${targetId}`);
    const interval = page.getByRole('textbox', { name: 'Trace Interval' });
    await interval.fill('10');
    await interval.press('Enter');
    const entry = page.getByPlaceholder('Enter target name or IP');
    const other = topo.hop(1).v4;
    await entry.fill(other);
    release();
    await see('Paused');
    await page.getByRole('button', { name: 'Start', exact: true }).waitFor({ timeout: 5000 });
    expect(await entry.inputValue()).toBe(other);
    await entry.press('Enter');
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${targetId}`), { timeout: 15_000 });
    await page.unroute(`**/api/data/TraceGraphRows?*uniqueID=${targetId}&*`);
    expect(commands.filter((c) => c.startsWith('/cmd/resumetrace'))).toEqual([]);
    expect(commands.find((c) => c.startsWith('/cmd/newtarget'))).toMatch(new RegExp(`target=${other.replace(/\./g, '\\.')}&traceInterval=10(&|$)`));
    // The paused target stays paused on the server.
    const details = await page.evaluate(async (id) => {
      const r = await fetch(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}`);
      return (await r.json()).Details;
    }, targetId);
    expect(details.IsRunning).toBe(false);
    await shot('typed-after-paused');
  }, 60_000);
});
