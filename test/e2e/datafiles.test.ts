// Browser test of issue 18 items 4 and 5 on the console side: the target window's Download
// menu (data file, CSV and JSON reports, the raw-retention note), and the summary screen's
// Import PP2 File button (upload progress, the spec's failure texts). Export a target, import
// the file into a named summary through the button, and the imported target's grid shows
// what the original's does. Histories are seeded through the ingest pipeline into a stopped
// appliance (no probing, no root). Screenshots: test-results/datafiles-*.png, and
// datafiles-failed-*.png when a test fails.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { seedHistories } from '../api/seed-history.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Data-files-pw-1';
const H = 3_600_000;

describe('data files in the console (Chromium)', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let cookie: string;
  let recent: number;
  let old: number;
  let summaryId: string;
  let exported = '';
  const now = Math.floor(Date.now() / 60_000) * 60_000;

  const api = async <T>(path: string) => {
    const r = await fetch(`${app.url}${path}`, { headers: { cookie } });
    return { status: r.status, body: (await r.json()) as T };
  };
  /** The trace grid's accessible table: one array of cell texts per row. */
  const gridRows = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
  const rowCount = async () => Number(await page.getByTestId('trace-grid').getAttribute('data-row-count'));
  const toast = (text: string) => page.locator('.toast-message', { hasText: text }).first();
  const openDownloadMenu = async () => {
    await page.getByRole('button', { name: 'Download ▾' }).click();
    await page.getByRole('menu').waitFor();
  };
  const download = async (item: string) => {
    const [d] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByRole('menuitem', { name: item }).click()]);
    const path = join(shots, `datafiles-${d.suggestedFilename()}`);
    await d.saveAs(path);
    return { name: d.suggestedFilename(), path };
  };
  /** The target window of `id`, its grid drawn with every hop. */
  const openTargetWindow = async (id: number, hops: number) => {
    await page.goto(`${app.url}/targets/${id}`);
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(hops + 1);
    await expect.poll(async () => (await gridRows()).length, { timeout: 10_000 }).toBe(hops + 1);
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const env = { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_RETENTION_RAW_DAYS: '1' };
    const first = await startAppliance({ env });
    await first.stop();
    // Paused (open) targets: "recent" within raw retention, "old" entirely before it.
    [recent, old] = await seedHistories(first.dataDir, [
      { target: 'recent.example.test', state: 1, hops: 3, from: now - 2 * H, to: now - H, intervalMs: 5_000 },
      { target: 'old.example.test', state: 1, hops: 2, from: now - 50 * H, to: now - 48 * H, intervalMs: 30_000 },
    ]);
    app = await startAppliance({ dataDir: first.dataDir, port: first.port, env });
    cookie = await signIn(app.url, 'admin', password);
    summaryId = (await api<{ UniqueID: string }>('/cmd/createsummary?name=Imports')).body.UniqueID;
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 180_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) await page.screenshot({ path: join(shots, `datafiles-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'datafiles-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('the Download menu gives the data file and the CSV and JSON reports', async () => {
    await openTargetWindow(recent, 3);
    await openDownloadMenu();
    expect(await page.getByRole('menu').getByRole('menuitem').allTextContents()).toEqual([
      'Data file (.pp2), whole target',
      'Data file (.pp2), the graph view',
      'Hop report of the focus (CSV)',
      'Hop report of the focus (JSON)',
      'Samples of the focus (CSV)',
      'Samples of the focus (JSON)',
    ]);
    expect(await page.getByTestId('retention-note').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'datafiles-download-menu.png') });
    const file = await download('Data file (.pp2), whole target');
    expect(file.name).toMatch(/^recent\.example\.test_.*\.pp2$/);
    exported = file.path;
    expect(readFileSync(exported).subarray(0, 4).toString()).toBe('PAR1'); // a Parquet file

    await openDownloadMenu();
    const csv = await download('Hop report of the focus (CSV)');
    expect(csv.name).toMatch(/-hops\.csv$/);
    const lines = readFileSync(csv.path, 'utf8').trim().split(/\r?\n/);
    expect(lines.length).toBe(1 + 3); // the header and one line per hop

    await openDownloadMenu();
    const json = await download('Hop report of the focus (JSON)');
    expect(json.name).toBe('recent.example.test-hops.json');
    const report = JSON.parse(readFileSync(json.path, 'utf8')) as { Hops: unknown[] };
    expect(report.Hops).toHaveLength(3);

    await openDownloadMenu();
    const samples = await download('Samples of the focus (JSON)');
    expect((JSON.parse(readFileSync(samples.path, 'utf8')) as { Samples: unknown[] }).Samples.length).toBeGreaterThan(0);
  }, 60_000);

  it('says when the range is older than the raw samples kept', async () => {
    await openTargetWindow(old, 2);
    await openDownloadMenu();
    const note = page.getByTestId('retention-note');
    await note.waitFor({ timeout: 10_000 });
    expect(await note.textContent()).toMatch(/^Raw samples are kept 1 day: a data file or samples report holds none before .+ \(the graphs still show the older rollups\)\.$/);
    await page.screenshot({ path: join(shots, 'datafiles-retention-note.png') });
    await page.keyboard.press('Escape');
  }, 30_000);

  it('imports the exported file into a summary with upload progress; its grid equals the original', async () => {
    await openTargetWindow(recent, 3);
    // The statistics arrive after the rows (the view moves to the newest sample first).
    await expect.poll(async () => (await gridRows())[1]?.some((c) => /^\d+\.\d$/.test(c)), { timeout: 10_000 }).toBe(true);
    const original = await gridRows();

    await page.goto(`${app.url}/summary/${summaryId}`);
    await page.getByRole('button', { name: 'Import PP2 File' }).waitFor({ timeout: 10_000 });
    // Every progress text the page shows, however briefly.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const t = document.querySelector('[data-testid="import-progress"]')?.textContent;
        if (t && seen.at(-1) !== t) seen.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByTestId('import-pp2-input').setInputFiles(exported);
    await toast('Imported ').waitFor({ timeout: 30_000 });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((t) => /^(Uploading .+\.pp2: \d+%|Importing .+\.pp2\.\.\.)$/.test(t))).toBe(true);

    let importedId = 0;
    await expect
      .poll(async () => {
        const rows = await api<{ Rows: { UniqueID: string }[] }>(`/api/data/TraceGraphRows?listType=Summary&uniqueID=${summaryId}`);
        const ids = (rows.body.Rows ?? []).map((r) => Number(r.UniqueID.split('_')[0])).filter((id) => id !== recent && id !== old);
        importedId = ids[0] ?? 0;
        return importedId;
      }, { timeout: 15_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, 'datafiles-imported-summary.png') });

    await openTargetWindow(importedId, 3);
    await expect.poll(gridRows, { timeout: 15_000 }).toEqual(original);
  }, 90_000);

  it('refuses a file that is not .pp2 and shows the server message for a broken one', async () => {
    await page.goto(`${app.url}/summary/${summaryId}`);
    await page.getByRole('button', { name: 'Import PP2 File' }).waitFor({ timeout: 10_000 });
    await page.getByTestId('import-pp2-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await toast("Can't import file notes.txt: only .pp2 files can be imported").waitFor({ timeout: 10_000 });

    const good = readFileSync(exported);
    await page.getByTestId('import-pp2-input').setInputFiles({ name: 'broken.pp2', mimeType: 'application/octet-stream', buffer: good.subarray(0, Math.floor(good.length / 2)) });
    const failure = toast("Can't import file broken.pp2: ");
    await failure.waitFor({ timeout: 20_000 });
    expect(await failure.textContent()).not.toContain('An unexpected server error');
    await page.screenshot({ path: join(shots, 'datafiles-import-failed.png') });
  }, 60_000);
});
