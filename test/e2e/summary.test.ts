// Browser test of issue 18 items 1 and 2 (the console side of summaries): "/" is All Targets
// with the target entry above it; two traces show there at once, and Enter on a target that
// is already traced offers to open it; a named summary with both targets, its rows live from
// the hub, rename, remove a target, delete -> /summary. Debian Chromium via playwright-core
// against the built appliance tracing a netns chain host -> r1 -> target (the target and r1
// are the two traces). Screenshots go to test-results/summary-*.png (1440x900 and 1024x700).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GraphRowsResult } from '../../server/contract/targets.js';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { buildTopology, type Topology } from '../netns/topology.js';
import { asRoot } from '../netns/rounds.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { openBrowser, settledBox, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Summary-screen-pw-1';
const TopologyId = 52;

describe.skipIf(!asRoot)('summaries and the home container in Chromium', () => {
  let topo: Topology;
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  const targets: { id: string; ip: string }[] = [];
  let summaryPath = '';

  const shot = (name: string) => page.screenshot({ path: join(shots, `summary-${name}.png`) });
  const heading = () => page.getByTestId('summary-heading');
  /** The grid's accessible table: one array of cell texts per row. */
  const gridRows = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  /** The addresses the grid shows (cells that are exactly an address). */
  const gridAddresses = async () => (await gridRows()).flat().filter((c) => /^\d+\.\d+\.\d+\.\d+$/.test(c)).sort();
  const sameHost = (label: string, ip: string) => label === ip || label.endsWith(`(${ip})`);
  const rowCount = async () => Number(await page.getByTestId('trace-grid').getAttribute('data-row-count'));
  const isSummaryRows = (r: Response) => r.url().includes('/api/data/TraceGraphRows') && r.url().includes('listType=Summary') && r.status() === 200;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    topo = buildTopology({ id: TopologyId, routers: 1 });
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
    app = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: password } });
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 120_000);

  // A failed test leaves what the browser showed (test-results/summary-failed-*.png).
  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) await page.screenshot({ path: join(shots, `summary-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'summary-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    topo?.destroy();
  });

  it('home is All Targets with the entry: two traces started there both show', async () => {
    await expect.poll(() => heading().textContent(), { timeout: 15_000 }).toBe('All Targets');
    await page.getByText('Start a trace', { exact: true }).waitFor({ timeout: 10_000 });
    for (const ip of [topo.target.v4, topo.hop(1).v4]) {
      await page.goto(`${app.url}/`);
      await heading().waitFor({ timeout: 10_000 });
      await startTraceFromEntry(page, '0.5 s', ip);
      // Spec 2 section 4: starting a trace on a list screen opens the new target.
      await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
      targets.push({ id: new URL(page.url()).pathname.split('/')[2], ip });
    }
    expect(new Set(targets.map((t) => t.id)).size).toBe(2);

    await page.getByRole('link', { name: 'All Targets' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(2);
    await expect.poll(gridAddresses, { timeout: 10_000 }).toEqual(targets.map((t) => t.ip).sort());
    // One timeline graph per target, each linking to its target window.
    await expect.poll(() => page.locator('section.timeline-graph').count(), { timeout: 10_000 }).toBe(2);
    for (const t of targets) expect(await page.locator(`section.timeline-graph a[href="/targets/${t.id}"]`).count()).toBe(1);
    await page.waitForTimeout(2500); // let the graphs draw a few rounds for the screenshot
    await shot('home-1440');
  }, 60_000);

  it('Enter on a target that is already traced offers to open it instead of tracing it twice', async () => {
    const started: string[] = [];
    const onRequest = (r: { url: () => string }) => r.url().includes('/cmd/newtarget') && started.push(r.url());
    page.on('request', onRequest);
    const entry = page.getByPlaceholder('Enter target name or IP');
    await entry.fill(topo.target.v4);
    await entry.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Already traced' });
    await dialog.waitFor({ timeout: 5000 });
    await dialog.getByRole('button', { name: 'Open the running trace' }).click();
    await page.waitForURL((u) => u.pathname === `/targets/${targets[0].id}`, { timeout: 10_000 });

    // The same from the new-target window, picking the running target from the history.
    await page.goto(`${app.url}/targets/`);
    await page.getByRole('button', { name: 'Trace history' }).click();
    await page.getByRole('listbox').getByRole('button', { name: topo.hop(1).v4, exact: true }).click();
    await entry.press('Enter');
    await dialog.waitFor({ timeout: 5000 });
    await shot('already-traced');
    await dialog.getByRole('button', { name: 'Open the running trace' }).click();
    await page.waitForURL((u) => u.pathname === `/targets/${targets[1].id}`, { timeout: 10_000 });
    page.off('request', onRequest);
    expect(started).toEqual([]);
  }, 30_000);

  it('a summary with both targets: rows follow the hub, a graph per target', async () => {
    page.once('dialog', (d) => void d.accept('Both paths'));
    await page.getByText('New Summary', { exact: true }).click();
    await page.waitForURL((u) => /^\/summary\/\d+$/.test(u.pathname), { timeout: 10_000 });
    summaryPath = new URL(page.url()).pathname;
    await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe('Both paths');

    for (const t of targets) {
      await page.getByRole('button', { name: 'Add targets ▾' }).click();
      await page.getByRole('menuitem', { name: new RegExp(`(^|\\()${t.ip.replace(/\./g, '\\.')}(\\)|$)`) }).click();
    }
    await expect.poll(rowCount, { timeout: 10_000 }).toBe(2);
    await page.getByText('Both paths (2)', { exact: true }).waitFor({ timeout: 10_000 }); // the sidebar, through SummaryListChanged

    // Live: without any action here, the grid is read again as samples arrive, with more samples each time.
    const first = await page.waitForResponse(isSummaryRows, { timeout: 10_000 });
    const before = ((await first.json()) as GraphRowsResult).Rows;
    let later = before;
    await expect
      .poll(
        async () => {
          const r = await page.waitForResponse(isSummaryRows, { timeout: 10_000 });
          later = ((await r.json()) as GraphRowsResult).Rows;
          return targets.every((t) => {
            const a = before.find((x) => x.UniqueID.startsWith(`${t.id}_`));
            const b = later.find((x) => x.UniqueID.startsWith(`${t.id}_`));
            return !!a && !!b && b.TotalCount > a.TotalCount;
          });
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect.poll(() => page.locator('section.timeline-graph').count(), { timeout: 10_000 }).toBe(2);
    // A comment on one target shows on that target's graph only (CommentChanged through the hub).
    await page.evaluate(async (id) => {
      const r = await fetch('/cmd/createcomment', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ SessionWebId: id, When: new Date(Date.now() - 5000).toISOString(), Text: 'Seen from the summary', Type: 0, ExtraAttributesJson: '' }),
      });
      if (r.status !== 200) throw new Error(`createcomment ${r.status}`);
    }, targets[0].id);
    const marker = '.comment-marker[aria-label="Comment: Seen from the summary"]';
    await page.locator(`section.timeline-graph:has(a[href="/targets/${targets[0].id}"]) ${marker}`).waitFor({ timeout: 10_000 });
    expect(await page.locator(`section.timeline-graph:has(a[href="/targets/${targets[1].id}"]) ${marker}`).count()).toBe(0);
    await page.waitForTimeout(1500);
    await shot('summary-1440');
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.waitForTimeout(500);
    await shot('summary-1024');
    await page.goto(`${app.url}/`);
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(2);
    await page.waitForTimeout(1500);
    await shot('home-1024');
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 90_000);

  it('Reset And Restart of a selected row restarts that target and keeps it in the summary', async () => {
    await page.goto(`${app.url}${summaryPath}`);
    await expect.poll(rowCount, { timeout: 10_000 }).toBe(2);
    const links = () => page.locator('section.timeline-graph a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!).sort());
    await expect.poll(async () => (await links()).length, { timeout: 10_000 }).toBe(2);
    const before = await links();
    // No row is selected on a summary screen until the user picks one (spec 2 section 4).
    expect(await page.getByRole('button', { name: /Release Focus/ }).count()).toBe(0);
    const box = await settledBox(page, page.getByTestId('trace-grid'));
    await page.mouse.click(box.x + 120, box.y + 34 + 15);
    await page.getByRole('button', { name: /Release Focus/ }).waitFor({ timeout: 5000 });
    await page.getByRole('button', { name: 'More trace commands' }).click();
    await page.getByRole('menuitem', { name: 'Reset And Restart' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset And Restart' });
    expect(await dialog.locator('.confirm-message').textContent()).toMatch(/^Reset and restart \d+\.\d+\.\d+\.\d+\?/);
    await dialog.getByRole('button', { name: 'Reset And Restart' }).click();
    // One target has a new session (a new id), the other keeps its own; both stay in the summary.
    await expect
      .poll(async () => {
        const now = await links();
        return now.length === 2 && now.filter((h) => before.includes(h)).length === 1;
      }, { timeout: 15_000 })
      .toBe(true);
    await expect.poll(rowCount, { timeout: 10_000 }).toBe(2);
  }, 45_000);

  it('a header click sorts the rows and default_summary_sort_order keeps the order', async () => {
    const headers = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] thead th')].map((th) => th.textContent ?? ''));
    const stored = () => page.evaluate(() => localStorage.getItem('default_summary_sort_order'));
    await expect.poll(headers, { timeout: 10_000 }).toContain('Name ▲'); // the default: DNSName ascending
    // The Avg header in the default widths of a fresh profile: PL% 60, IP 130, Name 220, then Avg.
    const box = await settledBox(page, page.getByTestId('trace-grid'));
    const avgX = box.x + 60 + 130 + 220 + 30;
    await page.mouse.click(avgX, box.y + 17);
    await expect.poll(headers, { timeout: 5000 }).toContain('Avg ▲');
    expect(JSON.parse((await stored())!)).toEqual({ Column: 'Avg', Ascending: true });
    await page.mouse.click(avgX, box.y + 17);
    await expect.poll(headers, { timeout: 5000 }).toContain('Avg ▼');
    await page.reload();
    await expect.poll(headers, { timeout: 15_000 }).toContain('Avg ▼');
    expect(JSON.parse((await stored())!)).toEqual({ Column: 'Avg', Ascending: false });
  }, 45_000);

  it('renames the summary: Rename waits for a new name, then "Summary renamed"', async () => {
    await page.goto(`${app.url}${summaryPath}`);
    await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe('Both paths');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename Summary' });
    const rename = dialog.getByRole('button', { name: 'Rename', exact: true });
    expect(await rename.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Core paths');
    expect(await rename.isDisabled()).toBe(false);
    await rename.click();
    await page.locator('.toast').getByText('Summary renamed', { exact: true }).waitFor({ timeout: 5000 });
    await dialog.waitFor({ state: 'detached', timeout: 5000 });
    await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe('Core paths');
    await page.getByText('Core paths (2)', { exact: true }).waitFor({ timeout: 10_000 });
  }, 30_000);

  it('removes a target from the summary through the row menu', async () => {
    const grid = page.getByTestId('trace-grid');
    const box = await settledBox(page, grid);
    // The first data row: under the 34 px header, rows 30 px high.
    await page.mouse.click(box.x + 120, box.y + 34 + 15, { button: 'right' });
    const menu = page.getByRole('menu');
    await menu.waitFor({ timeout: 5000 });
    const title = (await menu.locator('.popup-title').textContent()) ?? '';
    const gone = targets.find((t) => sameHost(title, t.ip))!;
    expect(gone).toBeDefined();
    await menu.getByRole('menuitem', { name: 'Remove from summary' }).click();
    await expect.poll(rowCount, { timeout: 10_000 }).toBe(1);
    await expect.poll(gridAddresses, { timeout: 10_000 }).toEqual([targets.find((t) => t !== gone)!.ip]);
    await page.getByText('Core paths (1)', { exact: true }).waitFor({ timeout: 10_000 });
    // Home still shows both: removing from a summary does not stop the target.
    await page.getByRole('link', { name: 'All Targets' }).click();
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(2);
  }, 30_000);

  it('deletes the summary after the confirmation and lands on /summary', async () => {
    await page.goto(`${app.url}${summaryPath}`);
    await expect.poll(() => heading().textContent(), { timeout: 10_000 }).toBe('Core paths');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete summary' });
    expect(await dialog.locator('.confirm-message').textContent()).toBe('Are you sure you want to delete Core paths?');
    await shot('delete-confirm');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/summary', { timeout: 10_000 });
    await page.locator('.toast').getByText('Summary Core paths deleted.', { exact: true }).waitFor({ timeout: 5000 });
    const list = page.getByRole('list', { name: 'Summaries' });
    await list.getByText('All Targets', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await list.getByText('Core paths').count()).toBe(0);
    await shot('list');
  }, 30_000);
});
