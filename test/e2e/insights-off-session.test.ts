// Browser test of issue 41 items 6 and 10. Item 6: with Insights off (the self-hosted
// default), importing a PP2 file opened the Insights invitation, and "Yes, I will help!" got
// 403 "Insights are off on this server", which the console took for a lost session: it went
// to /login (or, in a tab that once opened a LiveShare link, to "This LiveShare link is
// invalid"). Now: no Insights panel or invitation while Insights are off, the user stays
// signed in on the imported target, and a stored LiveShare id is dropped at sign-in. Item 10:
// /target and /sktargets/ open the main screen (spec 3 section 2.1); /agent/abc says "No agent
// abc". Screenshots: test-results/insights-off-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { seedHistories } from '../api/seed-history.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Insights-off-pw-1';
const H = 3_600_000;

describe('Insights off: import keeps the session; main-screen routes (Chromium)', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let cookie: string;
  let file = '';
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const path = () => new URL(page.url()).pathname;
  const rowCount = async () => Number((await page.getByTestId('trace-grid').getAttribute('data-row-count')) ?? 0);
  const storedLiveShare = () =>
    page.evaluate(() => ({ cookie: document.cookie.includes('liveshareid='), session: sessionStorage.getItem('liveshareid') }));

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const env = { HOPWATCH_ROOT_PASSWORD: password };
    const first = await startAppliance({ env });
    await first.stop();
    const [id] = await seedHistories(first.dataDir, [{ target: 'import.example.test', state: 1, hops: 3, from: now - 2 * H, to: now - H, intervalMs: 5_000 }]);
    app = await startAppliance({ dataDir: first.dataDir, port: first.port, env });
    cookie = await signIn(app.url, 'admin', password);
    const config = (await (await fetch(`${app.url}/api/app/config`, { headers: { cookie } })).json()) as { InsightsEnabled: boolean };
    expect(config.InsightsEnabled).toBe(false); // the self-hosted default this suite is about
    const pp2 = await fetch(`${app.url}/api/data/DownloadPP2File?ID=${id}`, { headers: { cookie } });
    expect(pp2.status).toBe(200);
    file = join(shots, 'insights-off-import.example.test.pp2');
    writeFileSync(file, Buffer.from(await pp2.arrayBuffer()));
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
  }, 180_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) await page.screenshot({ path: join(shots, `insights-off-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.dispose();
  });

  it('a tab that opened a LiveShare link drops the link\'s id once a user signs in', async () => {
    // A LiveShare link (this one unknown to the server) leaves its id in the tab.
    await page.goto(`${app.url}/LiveShare/0000000000/nopassword`);
    await page.getByText('This LiveShare link is invalid', { exact: false }).first().waitFor({ timeout: 15_000 });
    expect((await storedLiveShare()).cookie).toBe(true);

    await signInWithForm(page, app.url, 'admin', password);
    // Signed in as a user: the visitor's id rides on none of the user's requests.
    await expect.poll(storedLiveShare, { timeout: 10_000 }).toEqual({ cookie: false, session: null });
  }, 60_000);

  it('importing a file with Insights off opens the imported target, signed in, with no Insights invitation', async () => {
    await page.goto(`${app.url}/`); // All Targets
    await page.getByRole('button', { name: 'Import PP2 File' }).waitFor({ timeout: 15_000 });
    await page.getByTestId('import-pp2-input').setInputFiles(file);
    // One file, one target: the console opens the imported target (asking for Insights' auto-run).
    await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 30_000 });
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(4);
    await page.screenshot({ path: join(shots, 'insights-off-imported-target.png') });

    // Insights are off: no panel, no invitation, no toggle.
    expect(await page.getByTestId('insights-panel').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Yes, I will help!' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Insights', exact: true }).count()).toBe(0);
    // Still signed in, still on the target: a reload asks the server's session check again.
    const target = path();
    await page.reload();
    await expect.poll(rowCount, { timeout: 15_000 }).toBe(4);
    expect(path()).toBe(target);
  }, 120_000);

  it('/target and /sktargets/ open the main screen, not "Page not found"', async () => {
    for (const route of ['/target', '/sktargets/']) {
      await page.goto(`${app.url}${route}`);
      await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Import PP2 File' }).waitFor({ timeout: 15_000 }); // All Targets
      expect(await page.getByText('Page not found', { exact: false }).count()).toBe(0);
    }
    await page.screenshot({ path: join(shots, 'insights-off-route-target.png') });
  }, 60_000);

  it('/agent/abc says there is no agent abc', async () => {
    await page.goto(`${app.url}/agent/abc`);
    await page.getByRole('alert').filter({ hasText: 'No agent abc' }).waitFor({ timeout: 15_000 });
    expect(path()).toBe('/agent/abc');
    await page.screenshot({ path: join(shots, 'insights-off-agent-abc.png') });
    // A known agent shows no such line: the Local Machine (ID -1).
    await page.goto(`${app.url}/agent/-1`);
    await page.getByText('AGENT DETAIL', { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(await page.getByText('No agent', { exact: false }).count()).toBe(0);
  }, 60_000);
});
