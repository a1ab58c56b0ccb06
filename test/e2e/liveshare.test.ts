// Browser test of issue 20: a summary of two loopback targets tracing every second; the
// admin creates a LiveShare link from the summary screen's view-link menu; a second,
// signed-out Chromium opens it and watches the rows live, opens a target and goes back to the
// summary, is refused a new trace with the spec's text, then lands on /InvalidLiveshare when
// the admin disables the link; the admin reads the visit and the change in the link's history.
// Loopback targets: raw sockets as root, the simulated engine otherwise. Screenshots go to
// test-results/liveshare-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { engineEnv } from '../support/trace-network.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'LiveShare-screen-pw-1';
const SummaryName = 'Shared office links';

describe('LiveShare in Chromium', () => {
  let app: Appliance;
  let admin: Browser;
  let visitor: Browser;
  let adminPage: Page;
  let page: Page;
  let summaryId = '';
  const targetIds: string[] = [];
  let url = '';

  const call = async <T>(path: string, cookie: string): Promise<T> => {
    const r = await fetch(`${app.url}${path}`, { headers: { cookie } });
    expect(r.status, `${path}: ${await r.clone().text()}`).toBe(200);
    return (await r.json()) as T;
  };
  const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `liveshare-${name}.png`) });
  const failing = async (fn: () => Promise<void>, name: string) => {
    try {
      await fn();
    } catch (err) {
      await Promise.all([adminPage && shot(adminPage, `${name}-admin-failed`), page && shot(page, `${name}-visitor-failed`)].map((p) => p?.catch(() => undefined)));
      throw err;
    }
  };
  const gridRowCount = async () => Number(await page.getByTestId('trace-grid').getAttribute('data-row-count'));

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, ...engineEnv() } });
    const cookie = await signIn(app.url, 'admin', password);
    for (const ip of ['127.0.0.1', '127.0.0.2']) targetIds.push(String((await call<{ ID: number }>(`/cmd/newtarget?target=${ip}&traceInterval=1`, cookie)).ID));
    summaryId = (await call<{ UniqueID: string }>(`/cmd/createsummary?name=${encodeURIComponent(SummaryName)}`, cookie)).UniqueID;
    for (const id of targetIds) await call(`/cmd/addhost?host=${id}&ID=${summaryId}`, cookie);
    admin = await openBrowser({ width: 1440, height: 900 });
    adminPage = admin.page;
    await signInWithForm(adminPage, app.url, 'admin', password);
    visitor = await openBrowser({ width: 1280, height: 800 });
    page = visitor.page;
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'liveshare-server.log'), app.output());
    await admin?.close();
    await visitor?.close();
    await app?.dispose();
  });

  it('the admin creates a view link from the summary screen', () =>
    failing(async () => {
      await adminPage.goto(`${app.url}/summary/${summaryId}`);
      await expect.poll(() => adminPage.getByTestId('summary-heading').textContent(), { timeout: 15_000 }).toBe(SummaryName);
      await adminPage.getByRole('button', { name: /View link/ }).click();
      await adminPage.getByText('Manage LiveShare view links').waitFor();
      await adminPage.getByText('Create new LiveShare view link').click();
      await adminPage.getByLabel('Name').fill('For the ISP');
      await adminPage.getByRole('button', { name: 'Create', exact: true }).click();
      const field = adminPage.getByTestId('created-link-url');
      await field.waitFor({ timeout: 10_000 });
      url = await field.inputValue();
      expect(url).toMatch(new RegExp(`^${app.url}/LiveShare/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}$`));
      await adminPage.getByRole('button', { name: 'Visit URL now' }).or(adminPage.getByRole('link', { name: 'Visit URL now' })).waitFor();
      await shot(adminPage, 'created');
      await adminPage.locator('.modal-actions').getByRole('button', { name: 'Close', exact: true }).click();
      await field.waitFor({ state: 'detached' });
    }, 'create'));

  it('a signed-out browser opens the link and watches the two targets live', () =>
    failing(async () => {
      let summaryReads = 0;
      page.on('response', (r: Response) => {
        if (r.url().includes('/api/data/TraceGraphRows') && r.url().includes('listType=Summary') && r.status() === 200) summaryReads++;
      });
      await page.goto(url);
      await expect.poll(() => page.getByTestId('summary-heading').textContent(), { timeout: 15_000 }).toBe(SummaryName);
      await expect.poll(gridRowCount, { timeout: 15_000 }).toBe(2);
      // No sidebar content but Cancel LiveShare.
      const nav = page.locator('nav.nav');
      await expect.poll(() => nav.innerText()).toMatch(/^\s*Cancel LiveShare\s*$/);
      // Live: the hub's updates make the screen read the rows again, without a reload.
      const before = summaryReads;
      await expect.poll(() => summaryReads, { timeout: 20_000 }).toBeGreaterThan(before + 2);
      await shot(page, 'visitor-summary');
    }, 'watch'));

  it('the visitor opens a target and goes back to the summary', () =>
    failing(async () => {
      await page.locator(`section.timeline-graph a[href="/targets/${targetIds[0]}"]`).first().click();
      await page.waitForURL((u) => u.pathname === `/targets/${targetIds[0]}`, { timeout: 10_000 });
      await page.getByTestId('target-heading').waitFor();
      await shot(page, 'visitor-target');
      await page.getByRole('link', { name: 'Back to summary' }).click();
      await page.waitForURL((u) => u.pathname.startsWith('/LiveShare/'), { timeout: 10_000 });
      await expect.poll(() => page.getByTestId('summary-heading').textContent(), { timeout: 15_000 }).toBe(SummaryName);
    }, 'target'));

  it('a new trace is refused with the spec\'s text', () =>
    failing(async () => {
      const entry = page.getByPlaceholder('Enter target name or IP');
      await entry.fill('127.0.0.3');
      await entry.press('Enter');
      await page.getByText("Can't add new targets to a LiveShare link.").first().waitFor({ timeout: 5_000 });
      // And nothing was started: still two targets.
      expect(await gridRowCount()).toBe(2);
    }, 'refused'));

  it('disabling the link sends the visitor to the invalid-link page; the history shows the visit', () =>
    failing(async () => {
      await adminPage.goto(`${app.url}/LiveShareLinks/SUM-${summaryId}`);
      await expect.poll(() => adminPage.getByTestId('liveshare-filter-header').textContent(), { timeout: 10_000 }).toBe(`LiveShare links for Summary: ${SummaryName}`);
      const row = adminPage.getByTestId('link-row').filter({ hasText: 'For the ISP' });
      await row.getByRole('button', { name: 'Disable' }).click();
      await adminPage.getByText('LiveShare link disabled').waitFor({ timeout: 5_000 });
      await row.getByRole('button', { name: 'Enable' }).waitFor({ timeout: 5_000 });

      await page.waitForURL((u) => u.pathname === '/InvalidLiveshare', { timeout: 15_000 });
      await page.getByRole('link', { name: 'Login Now' }).waitFor();
      await shot(page, 'visitor-invalid');

      await row.getByRole('button', { name: 'Edit' }).click();
      const history = adminPage.getByTestId('history-row');
      await expect.poll(() => history.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      const texts = await history.allInnerTexts();
      expect(texts.some((t) => /Created/.test(t))).toBe(true);
      expect(texts.some((t) => /Visit/.test(t) && /127\.0\.0\.1/.test(t))).toBe(true);
      expect(texts.some((t) => /Disabled/.test(t))).toBe(true);
      await shot(adminPage, 'history');
    }, 'disable'));
});
