// Browser test of issue 24 (Sidekick) on the simulated engine (test/sidekick/scenarios: a
// gateway, a resolver, a provider edge and two external sources in 10.251.131.0/24, of which
// 10.251.131.0/26 counts as private). The machine's view is the suite's own: a routing table
// and a resolv.conf in a temporary directory. Through the stages: purchase view (Standard
// licence), Sidekick as home (licence 112) and its export link opened by a signed-out browser
// there, then on a Professional server /sidekick: welcome,
// Get Started, the five cards, Details and back, Troubleshoot, Export Data, the export link
// opened by a signed-out browser, and Clear All and Restart. Screenshots: test-results/sidekick-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const scenarios = resolve(import.meta.dirname, '../sidekick/scenarios');
const password = 'Sidekick-screen-pw-1';
// Gateway 10.251.131.1 (little-endian hex in /proc/net/route), metric 100.
const routeTable = 'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\neth0\t00000000\t0183FB0A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n';
const expectedIps = { DefaultGateway: '10.251.131.1', DnsResolver: '10.251.131.53', ProviderEdge: '10.251.131.66', External1: '10.251.131.100', External2: '10.251.131.101' };

describe('Sidekick in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-sidekick-e2e-'));
  let pro: Appliance;
  let sidekickLicence: Appliance;
  let standard: Appliance;
  let browser: Browser;
  let visitor: Browser;
  let page: Page;
  let shareUrls: string[] = [];
  const firstIds: string[] = [];

  const shot = (p: Page, name: string) => p.screenshot({ path: join(shots, `sidekick-${name}.png`), fullPage: true });
  const failing = async (fn: () => Promise<void>, name: string, p: () => Page = () => page) => {
    try {
      await fn();
    } catch (err) {
      await shot(p(), `${name}-failed`).catch(() => undefined);
      throw err;
    }
  };
  const card = (kind: string) => page.locator(`article.sidekick-card[data-kind="${kind}"]`);

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    writeFileSync(join(dir, 'route'), routeTable);
    writeFileSync(join(dir, 'resolv.conf'), '# the test network\nnameserver 10.251.131.53\n');
    const env = (licence: string) => ({
      HOPWATCH_ROOT_PASSWORD: password,
      HOPWATCH_LICENSE_MODE: licence,
      HOPWATCH_ENGINE: 'simulated',
      HOPWATCH_SIM_SCENARIOS: scenarios,
      HOPWATCH_INSIGHTS: '1',
      HOPWATCH_SIDEKICK_ROUTE_TABLE: join(dir, 'route'),
      HOPWATCH_SIDEKICK_RESOLV_CONF: join(dir, 'resolv.conf'),
      HOPWATCH_SIDEKICK_PRIVATE_RANGES: '10.251.131.0/26',
      HOPWATCH_SIDEKICK_EXTERNAL_SOURCES: '10.251.131.100,10.251.131.101',
      HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS: '30',
    });
    [pro, sidekickLicence, standard] = await Promise.all([startAppliance({ env: env('3') }), startAppliance({ env: env('112') }), startAppliance({ env: env('1') })]);
    browser = await openBrowser({ width: 1440, height: 1000 });
    page = browser.page;
    visitor = await openBrowser({ width: 1280, height: 800 });
  }, 120_000);

  afterAll(async () => {
    if (pro) writeFileSync(join(shots, 'sidekick-server.log'), pro.output());
    await browser?.close();
    await visitor?.close();
    await Promise.all([pro?.dispose(), sidekickLicence?.dispose(), standard?.dispose()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('without a Sidekick or Professional licence /sidekick offers to buy it', () =>
    failing(async () => {
      await signInWithForm(page, standard.url, 'admin', password);
      await page.goto(`${standard.url}/sidekick`);
      await page.getByRole('link', { name: 'Buy Sidekick' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('button', { name: 'Get Started' }).count()).toBe(0);
      await shot(page, 'purchase');
    }, 'purchase'));

  it('under the Sidekick licence the home screen is Sidekick', () =>
    failing(async () => {
      await signInWithForm(page, sidekickLicence.url, 'admin', password);
      await page.getByRole('heading', { name: 'Welcome to Sidekick' }).waitFor({ timeout: 15_000 });
      await page.getByRole('button', { name: 'Get Started' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await expect.poll(() => page.locator('nav.nav').innerText()).toMatch(/^\s*Sidekick\b/);
    }, 'home'));

  it('under the Sidekick licence an export link opens for a signed-out visitor', () =>
    failing(
      async () => {
        await signInWithForm(page, sidekickLicence.url, 'admin', password);
        await page.getByRole('button', { name: 'Get Started' }).click();
        await expect.poll(() => page.locator('article.sidekick-card .sidekick-ip').allInnerTexts(), { timeout: 40_000 }).toEqual(Object.values(expectedIps));
        await page.getByRole('button', { name: 'Export Data' }).click();
        const view = page.getByRole('region', { name: 'Sidekick export' });
        await expect.poll(() => view.locator('ul.sidekick-share-links a').count(), { timeout: 15_000 }).toBe(5);
        const links = await view.locator('ul.sidekick-share-links a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
        await visitor.page.goto(links[2]);
        await expect.poll(() => visitor.page.getByTestId('summary-heading').textContent(), { timeout: 15_000 }).toBe('Sidekick');
        await expect.poll(async () => Number(await visitor.page.getByTestId('trace-grid').getAttribute('data-row-count')), { timeout: 15_000 }).toBe(5);
        expect(new URL(visitor.page.url()).pathname).not.toBe('/InvalidLiveshare');
        await shot(visitor.page, 'visitor-112');
      },
      'visitor-112',
      () => visitor.page,
    ));

  it('Get Started discovers the five targets and shows their cards', () =>
    failing(async () => {
      await signInWithForm(page, pro.url, 'admin', password);
      await page.goto(`${pro.url}/sidekick`);
      const loads: string[] = [];
      page.on('response', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/api/Sidekick/')) loads.push(`${path} ${r.status()}`);
      });
      // Before anything is probed the welcome screen says what Get Started traces (issue 41 item 13).
      const plan = page.getByTestId('sidekick-plan');
      await expect.poll(() => plan.locator('li').allInnerTexts(), { timeout: 10_000 }).toEqual([
        'Default Gateway: 10.251.131.1',
        'DNS Resolver: 10.251.131.53',
        'Provider Edge: Found while Sidekick traces: the first hop with a public address on the way to the external sources.',
        'External Source 1: 10.251.131.100',
        'External Source 2: 10.251.131.101',
      ]);
      expect(loads.filter((l) => l.startsWith('/api/Sidekick/StartDiscovery'))).toEqual([]);
      await shot(page, 'welcome-plan');
      await page.getByRole('button', { name: 'Get Started' }).click();
      // The status is reloaded after the start (spec 3 section 4.2).
      await expect.poll(() => loads.indexOf('/api/Sidekick/StartDiscovery 204'), { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
      await expect.poll(() => loads.slice(loads.indexOf('/api/Sidekick/StartDiscovery 204')).some((l) => l === '/api/Sidekick/SidekickState 200'), { timeout: 10_000 }).toBe(true);
      await page.getByRole('region', { name: 'Local Sources' }).waitFor({ timeout: 15_000 });
      // The provider edge comes last: it is found in the external source's trace.
      await expect.poll(() => page.locator('article.sidekick-card .sidekick-ip').allInnerTexts(), { timeout: 40_000 }).toEqual(Object.values(expectedIps));
      expect(await page.getByRole('region', { name: 'Local Sources' }).locator('article.sidekick-card').count()).toBe(3);
      expect(await page.getByRole('region', { name: 'External Sources' }).locator('article.sidekick-card').count()).toBe(2);
      for (const kind of Object.keys(expectedIps)) {
        // Each card has its description, a Details link and a 150 px time graph.
        await expect.poll(() => card(kind).locator('.sidekick-description').innerText()).not.toBe('');
        firstIds.push((await card(kind).getByRole('link', { name: 'Details' }).getAttribute('href'))!.replace('/sktargets/', ''));
        expect((await card(kind).locator('.sidekick-graph').boundingBox())?.height).toBe(150);
      }
      // Samples arrive: every path of the simulated network is fast and loss-free, so good (#96cd73).
      for (const kind of Object.keys(expectedIps)) {
        await expect.poll(() => card(kind).getAttribute('data-status'), { timeout: 30_000 }).toBe('0');
        expect(await card(kind).locator('.sidekick-status').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(150, 205, 115)');
      }
      await page.getByText('Sidekick needs at least 10 minutes of data').waitFor();
      await expect.poll(() => page.locator('.sidekick-collected').innerText()).toMatch(/on 5 of 5 targets/);
      await shot(page, 'summary');
    }, 'discover'));

  it('Details opens the target with Return to sidekick', () =>
    failing(async () => {
      await card('DefaultGateway').getByRole('link', { name: 'Details' }).click();
      await page.waitForURL((u) => u.pathname === `/sktargets/${firstIds[0]}`);
      await expect.poll(() => page.getByTestId('target-heading').textContent(), { timeout: 15_000 }).toMatch(/10\.251\.131\.1\b/);
      await page.getByRole('link', { name: 'Return to sidekick' }).click();
      await page.waitForURL((u) => u.pathname === '/sidekick');
      await card('DefaultGateway').waitFor({ timeout: 15_000 });
    }, 'details'));

  it('Troubleshoot runs Insights on this target or on all of them', () =>
    failing(async () => {
      await card('External1').getByRole('button', { name: /Troubleshoot/ }).click();
      await page.getByRole('menuitem', { name: 'This Target' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Troubleshoot results' }).waitFor({ timeout: 30_000 });
      expect(await dialog.locator('section.sidekick-verdict').count()).toBe(1);
      await expect.poll(() => dialog.locator('section.sidekick-verdict h3').innerText()).toBe('External Source 1 (10.251.131.100)');
      // With a minute of data the verdict says why Insights did not run (they need 10 minutes).
      await expect.poll(() => dialog.locator('section.sidekick-verdict').innerText()).toMatch(/Insights did not run yet:[\s\S]*10(\.0)? minutes/);
      await shot(page, 'troubleshoot-one');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await card('DefaultGateway').getByRole('button', { name: /Troubleshoot/ }).click();
      await page.getByRole('menuitem', { name: 'All Targets' }).click();
      await dialog.getByRole('heading', { name: 'Troubleshoot results' }).waitFor({ timeout: 60_000 });
      expect(await dialog.locator('section.sidekick-verdict').count()).toBe(5);
      await dialog.getByRole('button', { name: 'Close' }).click();
    }, 'troubleshoot'));

  it('Export Data lists a share link per target and Back To Sidekick returns', () =>
    failing(async () => {
      await page.getByRole('button', { name: 'Export Data' }).click();
      const view = page.getByRole('region', { name: 'Sidekick export' });
      await view.getByRole('heading', { name: 'Sidekick export' }).waitFor();
      await expect.poll(() => view.locator('ul.sidekick-share-links a').count(), { timeout: 15_000 }).toBe(5);
      shareUrls = await view.locator('ul.sidekick-share-links a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      for (const u of shareUrls) expect(u).toMatch(new RegExp(`^${pro.url}/LiveShare/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}$`));
      await shot(page, 'export');
      await view.getByRole('button', { name: 'Back To Sidekick' }).click();
      await page.getByRole('region', { name: 'Local Sources' }).waitFor();
    }, 'export'));

  it('a signed-out visitor opens an export link and sees the Sidekick targets', () =>
    failing(
      async () => {
        await visitor.page.goto(shareUrls[0]);
        await expect.poll(() => visitor.page.getByTestId('summary-heading').textContent(), { timeout: 15_000 }).toBe('Sidekick');
        await expect.poll(async () => Number(await visitor.page.getByTestId('trace-grid').getAttribute('data-row-count')), { timeout: 15_000 }).toBe(5);
        await shot(visitor.page, 'visitor');
      },
      'visitor',
      () => visitor.page,
    ));

  it('Clear All and Restart closes the traces and discovers again', () =>
    failing(async () => {
      page.once('dialog', (d) => void d.accept());
      await page.getByRole('button', { name: 'Clear All and Restart' }).click();
      await expect
        .poll(async () => (await page.locator('article.sidekick-card a:text("Details")').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).length, { timeout: 40_000 })
        .toBe(5);
      await expect
        .poll(async () => {
          const hrefs = await page.locator('article.sidekick-card a:text("Details")').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.replace('/sktargets/', '')));
          return hrefs.some((h) => firstIds.includes(h));
        }, { timeout: 40_000 })
        .toBe(false);
      // The first traces are closed: their old links show nothing any more.
      const r = await fetch(`${pro.url}/api/Sidekick/SidekickState`, { headers: { cookie: (await browser.context.cookies(pro.url)).map((c) => `${c.name}=${c.value}`).join('; ') } });
      const state = (await r.json()) as { Targets: { WebTargetID: string }[] };
      expect(state.Targets.map((t) => t.WebTargetID).filter((id) => firstIds.includes(id))).toEqual([]);
    }, 'restart'));
});
