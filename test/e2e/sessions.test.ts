// Browser test of issue 18 item 3 (the sessions page, spec 2 "Sessions page"): the grid with
// its columns, default End descending, header sort, per-column filters, "Delete sessions in
// filter" with its modal, one Delete, Open (to /targets/{id}) and Export (a .pp2 download),
// and the spec's toasts. Histories are seeded through the ingest pipeline into a stopped
// appliance (no probing, no root). Screenshots: test-results/sessions-*.png, and
// sessions-failed-*.png when a test fails.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { seedHistories } from '../api/seed-history.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Sessions-page-pw-1';
const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

describe('the sessions page in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let cookie: string;
  let ids: number[] = [];

  const grid = () => page.getByTestId('session-grid');
  const rowCount = async () => Number(await grid().getAttribute('data-row-count'));
  /** The Target Name cells of the drawn rows, top to bottom. */
  const names = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="session-grid"] [role="row"]')]
        .sort((a, b) => parseFloat((a as HTMLElement).style.top) - parseFloat((b as HTMLElement).style.top))
        .map((r) => r.querySelector('[data-column="TargetName"]')?.textContent ?? ''),
    );
  const row = (id: number) => page.locator(`[data-testid="session-grid"] [data-session-id="${id}"]`);
  const serverIds = async () => {
    const r = await fetch(`${app.url}/api/Sessions`, { headers: { cookie } });
    return ((await r.json()) as { SessionID: number }[]).map((s) => s.SessionID).sort((a, b) => a - b);
  };
  const filter = (column: string, text: string) => page.getByLabel(`Filter ${column}`).fill(text);
  const toast = (text: string) => page.locator('.toast-message', { hasText: text }).first();

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password } });
    await first.stop();
    // Ends: alpha-1 09:00, alpha-2 10:00, beta 11:00, gamma 12:00; paused has no end (open).
    ids = await seedHistories(first.dataDir, [
      { target: 'alpha-1.example.test', state: 2, hops: 2, from: T0, to: T0 + H, intervalMs: 30_000 },
      { target: 'alpha-2.example.test', state: 2, hops: 2, from: T0, to: T0 + 2 * H, intervalMs: 30_000 },
      { target: 'beta.example.test', state: 2, hops: 3, from: T0, to: T0 + 3 * H, intervalMs: 30_000 },
      { target: 'gamma.example.test', state: 2, hops: 2, from: T0, to: T0 + 4 * H, intervalMs: 30_000 },
      { target: 'paused.example.test', state: 1, hops: 2, from: T0, to: T0 + H, intervalMs: 30_000 },
    ]);
    app = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: password } });
    cookie = await signIn(app.url, 'admin', password);
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 180_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) await page.screenshot({ path: join(shots, `sessions-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'sessions-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('lists the sessions with the spec columns, End descending (open first)', async () => {
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.waitForURL((u) => u.pathname === '/sessions');
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(5);
    const headers = await page.locator('[data-testid="session-grid"] [role="columnheader"]').allTextContents();
    expect(headers.map((h) => h.replace(/ [▾▴]$/, ''))).toEqual(['Target Name', 'Target IP', 'Dynamic DNS', 'Start', 'End', 'Samples', 'Status', 'Imported', 'Actions']);
    expect(await names()).toEqual(['paused.example.test', 'gamma.example.test', 'beta.example.test', 'alpha-2.example.test', 'alpha-1.example.test']);
    // beta: 3 hops x 3 h at 30 s = 1,080 hop samples, counted at ingest.
    await expect.poll(() => row(ids[2]).locator('[data-column="Samples"]').textContent()).toBe('1,080');
    expect(await row(ids[4]).locator('[data-column="Status"]').textContent()).toBe('Paused');
    expect(await row(ids[2]).locator('[data-column="Status"]').textContent()).toBe('Closed');
    expect(await row(ids[4]).getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'sessions-list.png') });

    await page.getByRole('button', { name: 'Target Name' }).click();
    expect(await names()).toEqual(['alpha-1.example.test', 'alpha-2.example.test', 'beta.example.test', 'gamma.example.test', 'paused.example.test']);
    await page.getByRole('button', { name: /^Target Name/ }).click();
    expect((await names())[0]).toBe('paused.example.test');
  }, 60_000);

  it('deletes the sessions in the filter, keeping open ones', async () => {
    await filter('Target Name', 'ALPHA');
    await expect.poll(rowCount).toBe(2);
    await page.getByRole('button', { name: 'Delete sessions in filter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Sessions' });
    await dialog.waitFor();
    await dialog.getByText('using the filters on the previous page', { exact: false }).waitFor();
    await page.screenshot({ path: join(shots, 'sessions-delete-in-filter.png') });
    await dialog.getByRole('button', { name: 'Delete 2' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await toast('Successfully deleted session').waitFor({ timeout: 10_000 });
    await expect.poll(rowCount, { timeout: 10_000 }).toBe(0);
    expect(await serverIds()).toEqual([ids[2], ids[3], ids[4]]);

    // A filter showing only the open session: nothing to delete, and the modal says why.
    await filter('Target Name', '');
    await filter('Status', 'paused');
    await expect.poll(rowCount).toBe(1);
    await page.getByRole('button', { name: 'Delete sessions in filter' }).click();
    await dialog.waitFor();
    expect(await dialog.getByTestId('open-kept').textContent()).toContain('1 open session');
    expect(await dialog.getByRole('button', { name: 'Delete 0' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await filter('Status', '');
    await expect.poll(rowCount).toBe(3);
  }, 60_000);

  it('deletes one session after the confirmation', async () => {
    await row(ids[2]).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Session' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('Successfully deleted session').waitFor({ timeout: 10_000 });
    await expect.poll(rowCount, { timeout: 10_000 }).toBe(2);
    expect(await serverIds()).toEqual([ids[3], ids[4]]);
  }, 30_000);

  it('exports a session as a .pp2 download', async () => {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), row(ids[3]).getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^gamma\.example\.test.*\.pp2$/);
    await toast('Successfully exported session').waitFor({ timeout: 10_000 });
  }, 30_000);

  it('Open reopens a closed session and goes to /targets/{id}', async () => {
    await row(ids[3]).getByRole('button', { name: 'Open' }).click();
    await page.waitForURL((u) => u.pathname === `/targets/${ids[3]}`, { timeout: 10_000 });
    const r = await fetch(`${app.url}/api/Sessions`, { headers: { cookie } });
    const gamma = ((await r.json()) as { SessionID: number; StateString: string }[]).find((s) => s.SessionID === ids[3]);
    expect(gamma?.StateString).toBe('Paused');
  }, 30_000);
});
