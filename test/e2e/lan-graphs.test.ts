// Issue 41 items 2 and 3 in Chromium, on the simulated engine's LAN (test/sim/scenarios/
// lan-lossy.yaml: five devices, every answer below 0.2 ms, device 3 drops 20%), traced every
// 2.5 s. On the default fixed 100 ms scale the graph says the scale hides its latency; with
// Graph scale "Automatic" the latency line fills the plot with sub-millisecond axis labels
// ("0.05", not "0.0"); the hover readout gives a value at every position over the data (it
// said "no data" at most of them: 1 s buckets, a sample every 2.5 s); a 20% loss hop's bars
// are the share lost per bucket, not 100% spikes; clicking hop 2 and then hop 4 shows their
// graphs (the focus graph); All Targets' graph of the LAN follows its configuration's
// Automatic scale too. Screenshots: test-results/lan-graphs-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const scenarioFile = resolve(import.meta.dirname, '../sim/scenarios/lan-lossy.yaml');
const password = 'Lan-graphs-pw-1';
const target = '10.251.141.5';
const HeaderPx = 34;
const RowPx = 30;

interface PlotPixels {
  /** Plot height in canvas pixels. */
  height: number;
  /** Rows (from the plot top) of the latency line's pixels: lowest and highest, and their mean. */
  lineTop: number;
  lineBottom: number;
  lineMean: number;
  /** Columns (from the plot left) holding the line: first and last. */
  lineLeft: number;
  lineRight: number;
  /** The tallest column of loss-bar (red) pixels, as a share of the plot height. */
  tallestLoss: number;
  /** Columns with loss-bar pixels. */
  lossColumns: number;
}

describe('the timeline graphs show a LAN, and follow the selected row (Chromium)', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let sessionId = '';
  let startedAt = 0;
  const graph = (hop: number) => page.locator(`section.timeline-graph[data-row-id="${sessionId}_h_${hop}"]`);
  const graphRows = () => page.locator('section.timeline-graph').evaluateAll((els) => els.map((e) => e.getAttribute('data-row-id')));
  const shot = (name: string) => page.screenshot({ path: join(shots, `lan-graphs-${name}.png`) });

  /** What the plot of hop `hop`'s graph draws, read from its canvas. */
  const pixels = (hop: number) =>
    page.evaluate((id): PlotPixels | null => {
      const canvas = document.querySelector<HTMLCanvasElement>(`section[data-row-id="${id}"] canvas`);
      const over = document.querySelector<HTMLElement>(`section[data-row-id="${id}"] .u-over`);
      if (!canvas || !over) return null;
      const c = canvas.getBoundingClientRect();
      const o = over.getBoundingClientRect();
      const k = canvas.width / c.width;
      const [x, y, w, h] = [(o.left - c.left) * k, (o.top - c.top) * k, o.width * k, o.height * k].map(Math.round);
      const { data } = canvas.getContext('2d')!.getImageData(x, y, w, h);
      let top = Infinity;
      let bottom = -1;
      let sum = 0;
      let n = 0;
      let left = Infinity;
      let right = -1;
      const red = new Array<number>(w).fill(0);
      for (let row = 0; row < h; row++) {
        for (let col = 0; col < w; col++) {
          const i = (row * w + col) * 4;
          const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
          // The latency line (#0f766e, drawn opaque over the band).
          if (a > 200 && Math.abs(r - 15) < 30 && Math.abs(g - 118) < 30 && Math.abs(b - 110) < 30) {
            top = Math.min(top, row);
            bottom = Math.max(bottom, row);
            left = Math.min(left, col);
            right = Math.max(right, col);
            sum += row;
            n++;
          }
          // A loss bar (rose red).
          if (a > 100 && r > 180 && g < 100 && b < 130) red[col]++;
        }
      }
      return { height: h, lineTop: top, lineBottom: bottom, lineMean: n ? sum / n : -1, lineLeft: left, lineRight: right, tallestLoss: Math.max(...red) / h, lossColumns: red.filter((v) => v > 0).length };
    }, `${sessionId}_h_${hop}`);

  /** The hover readout of hop `hop`'s graph at `count` positions over the data it draws. */
  const readouts = async (hop: number, count: number) => {
    const over = graph(hop).locator('.u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    // From the first round (a few seconds after the trace started) to the newest sample (the
    // axis end of a live view), in the axis's own range.
    const plot = graph(hop).locator('.timeline-plot');
    const axisStart = Number(await plot.getAttribute('data-axis-start-ms'));
    const axisEnd = Number(await plot.getAttribute('data-axis-end-ms'));
    const xOf = (ms: number) => box.x + ((ms - axisStart) / (axisEnd - axisStart)) * box.width;
    const from = xOf(Math.max(axisStart, startedAt + 5_000));
    const to = xOf(axisEnd - 1_000);
    const texts: string[] = [];
    for (let k = 0; k < count; k++) {
      await page.mouse.move(from + ((to - from) * k) / (count - 1), box.y + box.height / 2);
      texts.push((await graph(hop).locator('.timeline-readout').textContent()) ?? '');
    }
    return texts;
  };

  const clickHop = async (hop: number) => {
    const box = (await page.getByTestId('trace-grid').boundingBox())!;
    await page.mouse.click(box.x + 60, box.y + HeaderPx + hop * RowPx + RowPx / 2);
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenarioFile } });
    browser = await openBrowser({ width: 1440, height: 1000 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
    await startTraceFromEntry(page, '2.5 s', target);
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
    startedAt = Date.now();
    sessionId = new URL(page.url()).pathname.split('/').pop()!;
    await graph(5).waitFor({ timeout: 30_000 });
    // Give the graphs room: the splitter up to about a third of the window.
    const split = (await page.getByRole('separator').boundingBox())!;
    await page.mouse.move(split.x + split.width / 2, split.y + 4);
    await page.mouse.down();
    await page.mouse.move(split.x + split.width / 2, split.y - 150, { steps: 6 });
    await page.mouse.up();
    // About 36 rounds: three and a half loss buckets of ten rounds.
    await page.waitForTimeout(Math.max(0, startedAt + 90_000 - Date.now()));
  }, 180_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'lan-graphs-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('says so when the default fixed 100 ms scale flattens the LAN', async () => {
    await shot('fixed-100');
    expect(await graph(5).getAttribute('data-latency-scale')).toBe('100');
    await expect.poll(() => graph(5).locator('.timeline-scale-note').textContent(), { timeout: 10_000 }).toBe('Scale fixed at 100 ms');
  }, 30_000);

  it('fits the latency axis to the data with Graph scale "Automatic", with sub-millisecond labels', async () => {
    // Settings > Display > Graph scale: Automatic (0) on the Default configuration, saved as the
    // settings editor saves it; open consoles follow the SettingsChanged event.
    const status = await page.evaluate(async () => {
      const tree = await (await fetch('/api/Settings/getsettings')).json();
      const leaf = (Name: string, Value: unknown) => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
      const node = (Name: string, Children: unknown[]) => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
      const root = node('Root', [node('ClientSettings', [node('Configurations', [node('1', [leaf('ID', 1), leaf('Scale', 0)])])])]);
      const r = await fetch('/api/Settings/savesettings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Version: tree.Settings.Version, Root: root }) });
      return r.status;
    });
    expect(status).toBe(200);
    // The axis top follows the data (1.01 x the highest latency, rounded): below 1 ms.
    await expect.poll(async () => Number((await graph(5).getAttribute('data-latency-scale')) ?? NaN), { timeout: 15_000 }).toBeLessThan(1);
    expect(Number(await graph(5).getAttribute('data-latency-scale'))).toBeGreaterThan(0.1);
    await page.waitForTimeout(1_000);
    await shot('automatic');
    expect(await graph(5).locator('.timeline-scale-note').count()).toBe(0);
    // Labels with the digits a LAN needs: "0.05", "0.10"... never a row of "0.0".
    const ticks = ((await graph(5).locator('.timeline-plot').getAttribute('data-latency-ticks')) ?? '').split(' ');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) expect(t).toMatch(/^0(\.\d{1,2})?$|^0\.\d{2}$/);
    // The line is not flat at the bottom: it spans a good part of the plot's height.
    const px = (await pixels(5))!;
    expect(px.lineBottom - px.lineTop).toBeGreaterThan(px.height * 0.25);
    expect(px.lineMean).toBeLessThan(px.height * 0.8);
  }, 40_000);

  it('gives a value at every hover position over the data of a 2.5 s trace, with sub-millisecond digits', async () => {
    const texts = await readouts(5, 40);
    const noData = texts.filter((t) => /no data/.test(t));
    expect(noData, texts.join('\n')).toEqual([]);
    // A round lost at the target has no average ("avg –"): about one in seven here.
    for (const t of texts) expect(t).toMatch(/^\d\d:\d\d:\d\d {2}avg (0\.\d{2} ms|–) {2}loss \d+%$/);
    expect(texts.filter((t) => /avg 0\.\d{2} ms/.test(t)).length).toBeGreaterThan(texts.length / 2);
  }, 60_000);

  it('shows hop 2\'s graph when hop 2 is clicked, then hop 4\'s when hop 4 is', async () => {
    await clickHop(2);
    await expect.poll(graphRows, { timeout: 10_000 }).toEqual([`${sessionId}_h_2`]);
    await page.waitForTimeout(1_500);
    await shot('hop-2');
    // Hop 2 loses nothing: no loss bars.
    expect((await pixels(2))!.lossColumns).toBe(0);
    await clickHop(4);
    await expect.poll(graphRows, { timeout: 10_000 }).toEqual([`${sessionId}_h_4`]);
  }, 30_000);

  it('draws hop 4\'s 20% loss as the share lost per bucket, not 100% spikes', async () => {
    await expect.poll(async () => (await pixels(4))?.lossColumns ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1_000);
    await shot('hop-4-loss');
    const bars = JSON.parse((await graph(4).getAttribute('data-loss-bars')) ?? '[]') as [number, number, number][];
    expect(bars.length).toBeGreaterThan(0);
    // Buckets of ten rounds or more: one lost round is 10% or less, never a full-height bar.
    for (const [, , percent] of bars) expect(percent).toBeLessThan(100);
    const mean = bars.reduce((s, b) => s + b[2], 0) / bars.length;
    expect(mean).toBeGreaterThan(5);
    expect(mean).toBeLessThan(50);
    // On the canvas: the tallest bar is well short of the plot's height.
    const px = (await pixels(4))!;
    expect(px.tallestLoss).toBeGreaterThan(0.03);
    expect(px.tallestLoss).toBeLessThan(0.9);
    // Its readout names the bucket's share too, at every position.
    const texts = await readouts(4, 30);
    expect(texts.filter((t) => /no data/.test(t))).toEqual([]);
    expect(texts.some((t) => /loss [1-9]\d?%/.test(t))).toBe(true);
    await shot('hop-4-hover');
  }, 60_000);

  it('fits the summary\'s graph and Graph column to the LAN too (All Targets)', async () => {
    await page.goto(`${app.url}/`);
    const section = page.locator('.graphs-pane section.timeline-graph').first();
    await section.locator('canvas').first().waitFor({ timeout: 15_000 });
    // The target's configuration says Automatic: the summary's graph follows it (it used the
    // default 100 ms whatever Settings said), with sub-millisecond labels.
    await expect.poll(async () => Number((await section.getAttribute('data-latency-scale')) ?? NaN), { timeout: 15_000 }).toBeLessThan(1);
    await expect.poll(async () => (await section.locator('.timeline-plot').getAttribute('data-latency-ticks')) ?? '', { timeout: 5_000 }).toMatch(/^0\.00 0\.\d\d /);
    // The Graph column (drawn on its canvas; the grid element carries its scale): automatic, below 1 ms.
    const gridScale = (await page.getByTestId('trace-grid').getAttribute('data-scale')) ?? '';
    expect(gridScale).not.toMatch(/fixed/);
    expect(Number(gridScale)).toBeLessThan(1);
    await page.waitForTimeout(1_500);
    await shot('summary');
  }, 40_000);
});
