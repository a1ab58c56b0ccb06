// Browser test of issue 15 item 7 (what a new user hit in Chromium): after a wheel zoom,
// choosing "10 min" again shows the present and follows it, with the time axis, the comment
// markers and the viewport agreeing; the hover readout names the time under the pointer; a
// second tab's sidebar follows summary changes through the hub, and no pushed event lacks a
// handler. Debian Chromium via playwright-core against the built appliance tracing a netns
// chain host -> r1 -> target. Screenshots go to test-results/fixes-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import { asRoot } from '../netns/rounds.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Fixes-window-pw-1';
const MissingHandler = /No client method with the name/i;

describe.skipIf(!asRoot)('target window and shell fixes in Chromium', () => {
  let topo: Topology;
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let targetId = '';
  const consoleLines: string[] = [];

  const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `fixes-${name}.png`) });
  const graph = () => page.locator(`section[data-row-id="${targetId}_h_2"]`);
  /** The viewport (the focus range in Auto focus) as epoch ms, from its "HH:mm:ss - HH:mm:ss" text. */
  const viewport = async () => {
    const text = (await page.getByTestId('focus-range').textContent()) ?? '';
    // A range within today reads "HH:mm:ss - HH:mm:ss"; one across midnight carries dates.
    const m = /(?:(\d{4})-(\d\d)-(\d\d) )?(\d\d):(\d\d):(\d\d) - (?:(\d{4})-(\d\d)-(\d\d) )?(\d\d):(\d\d):(\d\d)/.exec(text);
    if (!m) throw new Error(`no range in ${text}`);
    const at = (y: string | undefined, mo: string | undefined, d: string | undefined, h: string, mi: string, s: string) => {
      const t = new Date();
      if (y) t.setFullYear(Number(y), Number(mo) - 1, Number(d));
      return t.setHours(Number(h), Number(mi), Number(s), 0);
    };
    let start = at(m[1], m[2], m[3], m[4], m[5], m[6]);
    const end = at(m[7], m[8], m[9], m[10], m[11], m[12]);
    if (start > end) start -= 86_400_000;
    return { start, end, length: end - start };
  };
  /** What the plot draws: the time axis range, the plot area box and the comment markers' centres. */
  const drawn = () =>
    graph().evaluate((section) => {
      const plot = section.querySelector<HTMLElement>('.timeline-plot')!;
      const over = section.querySelector<HTMLElement>('.u-over')!.getBoundingClientRect();
      const markers = [...section.querySelectorAll<HTMLElement>('.comment-marker')].map((m) => {
        const r = m.getBoundingClientRect();
        return { label: m.getAttribute('aria-label'), x: r.left + r.width / 2 };
      });
      return { axisStart: Number(plot.dataset.axisStartMs), axisEnd: Number(plot.dataset.axisEndMs), left: over.left, width: over.width, markers };
    });

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    topo = buildTopology({ id: 37, routers: 1 });
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
    app = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: password } });
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    page.on('console', (m) => consoleLines.push(`tab1 ${m.type()}: ${m.text()}`));
    await signInWithForm(page, app.url, 'admin', password);
    await startTraceFromEntry(page, '0.5 s', topo.target.v4);
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
    targetId = new URL(page.url()).pathname.split('/')[2];
    await graph().waitFor({ timeout: 20_000 });
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'fixes-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    topo?.destroy();
  });

  it('after a wheel zoom, choosing 10 min shows the present, follows it, and axis and comment markers agree', async () => {
    // A comment 20 s ago, to compare its marker with the time axis.
    const commentAt = Date.now() - 20_000;
    await page.evaluate(
      async ([id, when]) => {
        const r = await fetch('/cmd/createcomment', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ SessionWebId: id, When: new Date(when).toISOString(), Text: 'Marker check', Type: 0, ExtraAttributesJson: '' }),
        });
        if (r.status !== 200) throw new Error(`createcomment ${r.status} ${await r.text()}`);
      },
      [targetId, commentAt] as const,
    );
    await graph().locator('.comment-marker[aria-label="Comment: Marker check"]').waitFor({ timeout: 10_000 });
    const live = await viewport();
    expect(live.length).toBe(600_000);

    // One wheel notch in, at the middle of the plot: 8 min about the middle, so the end moves back.
    const plot = graph().locator('.u-over');
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -100);
    await expect.poll(async () => (await viewport()).length, { timeout: 5000 }).toBe(480_000);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height + 120); // off the plot

    await graph().getByLabel('Time span').selectOption('10');
    await expect.poll(async () => (await viewport()).length, { timeout: 5000 }).toBe(600_000);
    const chosen = await viewport();
    // It shows the present: the end is where live was, not a minute back ...
    expect(chosen.end).toBeGreaterThanOrEqual(live.end);
    // ... and follows new samples.
    await expect.poll(async () => (await viewport()).end, { timeout: 10_000 }).toBeGreaterThan(chosen.end);

    // The axis is drawn for the viewport, and the marker sits where the axis puts its time.
    const view = await viewport();
    const d = await drawn();
    expect(d.axisEnd - d.axisStart).toBe(600_000);
    expect(Math.abs(d.axisEnd - view.end)).toBeLessThan(2000);
    const marker = d.markers.find((m) => m.label === 'Comment: Marker check');
    expect(marker).toBeDefined();
    const expectedX = d.left + ((commentAt - d.axisStart) / (d.axisEnd - d.axisStart)) * d.width;
    expect(Math.abs(marker!.x - expectedX)).toBeLessThan(3);
    await shot(page, 'zoom-then-10min');
  }, 60_000);

  it('the hover readout names the time under the pointer', async () => {
    const plot = graph().locator('.u-over');
    const box = (await plot.boundingBox())!;
    // A quarter into a 10 min view of a young trace: minutes before the first sample.
    for (const fraction of [0.25, 0.97]) {
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
      const { text, axisStart, axisEnd } = await graph().evaluate((section) => {
        const p = section.querySelector<HTMLElement>('.timeline-plot')!;
        return {
          text: section.querySelector('.timeline-readout')!.textContent ?? '',
          axisStart: Number(p.dataset.axisStartMs),
          axisEnd: Number(p.dataset.axisEndMs),
        };
      });
      const m = /^(\d\d):(\d\d):(\d\d)/.exec(text);
      expect(m, `readout "${text}"`).not.toBeNull();
      const expected = new Date(axisStart + fraction * (axisEnd - axisStart));
      let shown = new Date(expected).setHours(Number(m![1]), Number(m![2]), Number(m![3]), 0);
      if (shown - expected.getTime() > 43_200_000) shown -= 86_400_000;
      expect(Math.abs(shown - expected.getTime()), `readout "${text}" at ${expected.toTimeString()}`).toBeLessThan(2000);
      if (fraction < 0.5) expect(text).toContain('no data');
    }
    await shot(page, 'readout');
  }, 30_000);

  it("a second tab's sidebar shows a summary created in the first, and no pushed event lacks a handler", async () => {
    const second = await browser.context.newPage();
    second.on('console', (m) => consoleLines.push(`tab2 ${m.type()}: ${m.text()}`));
    await second.goto(`${app.url}/`);
    await second.getByText('No summaries yet.', { exact: true }).waitFor({ timeout: 15_000 });
    page.once('dialog', (d) => void d.accept('Core routers'));
    await page.getByText('New Summary', { exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/summary/'), { timeout: 10_000 });
    // Tab 2 was not touched: only the hub can have told it.
    await second.getByText('Core routers (0)', { exact: true }).waitFor({ timeout: 10_000 });
    // SessionsChanged too: a new trace in tab 1 makes tab 2 read the summaries (target counts) again.
    const reread = second.waitForRequest((r) => r.url().includes('/cmd/getsummaries'), { timeout: 15_000 });
    await page.goto(`${app.url}/targets/`);
    await startTraceFromEntry(page, '1 s', topo.hop(1).v4);
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${targetId}`), { timeout: 15_000 });
    await reread;
    await shot(second, 'second-tab');
    expect(consoleLines.filter((l) => MissingHandler.test(l))).toEqual([]);
    await second.close();
  }, 60_000);

  it('lays the target window out from 1024x700 to 2560x1440: two control rows, the whole grid, room for the graph', async () => {
    await page.goto(`${app.url}/targets/${targetId}`);
    await graph().waitFor({ timeout: 15_000 });
    for (const [width, height] of [[1024, 700], [1440, 900], [2560, 1440]]) {
      await page.setViewportSize({ width, height });
      // Settled when the grid's columns fit its pane (ResizeObserver answers after layout).
      await expect
        .poll(() => page.evaluate(() => {
          const s = document.querySelector<HTMLElement>('[data-testid="trace-grid"] .dvn-scroller');
          return !!s && s.scrollWidth <= s.clientWidth + 1;
        }), { timeout: 5000 })
        .toBe(true);
      const m = await page.evaluate(() => {
        // Flex lines of a wrapping row: a child starting below every child seen so far opens a new line.
        const rowsOf = (el: Element) => {
          const boxes = [...el.children].map((c) => c.getBoundingClientRect()).sort((a, b) => a.top - b.top);
          let lines = 0;
          let bottom = -Infinity;
          for (const b of boxes) {
            if (b.top >= bottom - 0.5) lines++;
            bottom = Math.max(bottom, b.bottom);
          }
          return lines;
        };
        const rows = [...document.querySelectorAll('.control-panel > .control-row')];
        const grid = document.querySelector('[data-testid="trace-grid"]')!.getBoundingClientRect();
        const pane = document.querySelector('.grid-pane')!.getBoundingClientRect();
        const plot = document.querySelector('.timeline-graph .u-over')!.getBoundingClientRect();
        return {
          panelRows: rows.reduce((n, r) => n + rowsOf(r), 0),
          gridHeight: grid.height,
          gridInsidePane: grid.bottom <= pane.bottom + 0.5 && grid.right <= pane.right + 0.5,
          plotHeight: plot.height,
          pageFits: document.documentElement.scrollHeight <= window.innerHeight + 1,
        };
      });
      await shot(page, `layout-${width}x${height}`);
      expect(m.panelRows, `${width}x${height}`).toBe(2);
      // Header (34 px) and at least five hop rows (30 px).
      expect(m.gridHeight, `${width}x${height}`).toBeGreaterThanOrEqual(34 + 5 * 30);
      expect(m.gridInsidePane, `${width}x${height}`).toBe(true);
      expect(m.plotHeight, `${width}x${height}`).toBeGreaterThanOrEqual(40);
      expect(m.pageFits, `${width}x${height}`).toBe(true);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);

  it("a 404 on the comments of an unknown target logs the server's Error text", async () => {
    const warnings: string[] = [];
    const listen = (m: { type: () => string; text: () => string }) => m.type() === 'warning' && warnings.push(m.text());
    page.on('console', listen);
    await page.goto(`${app.url}/targets/987654`);
    await page.getByText('Target 987654 not found', { exact: true }).waitFor({ timeout: 15_000 });
    await expect.poll(() => warnings.find((w) => w.includes('GetComments failed')), { timeout: 10_000 }).toBeDefined();
    page.off('console', listen);
    expect(warnings.find((w) => w.includes('GetComments failed'))).toContain('Target 987654 not found.');
  }, 30_000);

  it('Escape closes the dropdowns, tabs are named, an empty Enter says why, session-ending commands ask first', async () => {
    const commands: string[] = [];
    page.on('request', (r) => r.url().includes('/cmd/') && commands.push(new URL(r.url()).pathname));
    await page.goto(`${app.url}/targets/${targetId}`);
    await graph().waitFor({ timeout: 15_000 });
    // The tab names the target with the window's heading (the address here: no DNS name).
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe(`${topo.target.v4} - Hopwatch`);

    // The Focus choice is kept per target for the browser session: away and back, it stays.
    const focus = page.getByLabel('Focus', { exact: true });
    await page.getByRole('button', { name: 'Focus choices' }).click();
    await page.getByRole('listbox').getByRole('option', { name: '5 min', exact: true }).click();
    await expect.poll(() => focus.inputValue(), { timeout: 5000 }).toBe('5 min');
    await page.goto(`${app.url}/targets/`);
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe('New target - Hopwatch');
    await page.goto(`${app.url}/targets/${targetId}`);
    await graph().waitFor({ timeout: 15_000 });
    await expect.poll(() => focus.inputValue(), { timeout: 5000 }).toBe('5 min');

    // Escape closes each list, the focus being on its toggle button (not in a text field).
    for (const toggle of ['Trace history', 'Trace Interval choices', 'Focus choices']) {
      await page.getByRole('button', { name: toggle }).click();
      await page.getByRole('listbox').waitFor({ timeout: 5000 });
      await page.keyboard.press('Escape');
      await page.getByRole('listbox').waitFor({ state: 'detached', timeout: 5000 });
    }

    // Close (and Stop) asks; Cancel leaves the target tracing.
    await page.getByRole('button', { name: 'More trace commands' }).click();
    await page.getByRole('menuitem', { name: 'Close (and Stop)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close (and Stop)' });
    await dialog.waitFor({ timeout: 5000 });
    // The confirmation names the target with the window's heading.
    expect(await dialog.textContent()).toContain(`Stop tracing ${topo.target.v4} and close it?`);
    await shot(page, 'confirm-close');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    expect(commands.filter((c) => c === '/cmd/close')).toEqual([]);
    await page.getByText(/^Tracing every/).waitFor({ timeout: 5000 });

    // Reset And Restart asks too, and goes on when confirmed.
    await page.getByRole('button', { name: 'More trace commands' }).click();
    await page.getByRole('menuitem', { name: 'Reset And Restart' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset And Restart' });
    await reset.getByRole('button', { name: 'Reset And Restart' }).click();
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${targetId}`), { timeout: 15_000 });

    // Enter in an empty target box says what to type.
    await page.goto(`${app.url}/targets/`);
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe('New target - Hopwatch');
    const entry = page.getByPlaceholder('Enter target name or IP');
    await entry.fill('');
    await entry.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Type a host name or IP address, then press Enter to start tracing it.' }).waitFor({ timeout: 5000 });
    await shot(page, 'empty-enter');

    await page.goto(`${app.url}/sessions`);
    await expect.poll(() => page.title(), { timeout: 5000 }).toBe('Sessions - Hopwatch');
  }, 60_000);
});
