// Browser check of the HopDetails columns (issue 16) on the simulated engine (any user): a
// trace through a label switch router, two hosts balanced at one hop, a translating device
// and a router that clears DSCP; the user turns the Hosts, MPLS, AS, NAT and DSCP columns on
// in "Show / hide columns" and reads them in the grid. Screenshot: test-results/hop-details-*.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimScenario } from '../../engine/index.js';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Hop-details-pw-1';

// Topology id 116 (addresses only: nothing is sent on the simulated network).
const scenario: SimScenario = {
  name: 'hop-details-116',
  hops: [
    { v4: '10.251.116.2', rttMs: 0.4, mpls: [{ label: 24001, exp: 0, ttl: 1 }] },
    { v4: '10.251.116.10', rttMs: 0.8, balancedWith: [{ v4: '10.251.116.14' }], nat: true },
    { v4: '10.251.116.18', rttMs: 1.2, setsDscp: 0 },
  ],
  target: { v4: '10.251.116.26', rttMs: 1.6 },
};

describe('hop details columns in Chromium', () => {
  let dir: string;
  let app: Appliance;
  let browser: Browser;
  let page: Page;

  const gridRows = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody tr')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
      ),
    );
  const headers = () =>
    page.evaluate(() => [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] thead th')].map((th) => th.textContent ?? ''));

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-hop-details-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const dataDir = await dataDirWithEngineSettings({ packetType: 'UDP', dscp: 46, timeoutMs: 300, reverseDns: false });
    app = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file } });
    browser = await openBrowser({ width: 2100, height: 900 });
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'hop-details-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows hosts, MPLS labels, AS, NAT and DSCP per hop once the columns are chosen', async () => {
    try {
      // At 1 s: glide-data-grid rebuilds its accessibility table (what this test reads) only after
      // 200 ms without a change, which rows updated every 0.2 s rarely give it (a screen reader's
      // view of a very fast trace lags; left for the grid's owner).
      await startTraceFromEntry(page, '1 s', scenario.target.v4!);
      await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
      await expect.poll(async () => (await headers()).includes('IP'), { timeout: 15_000 }).toBe(true);
      // Hidden by default.
      for (const c of ['Hosts', 'MPLS', 'AS', 'NAT', 'DSCP']) expect(await headers()).not.toContain(c);
      await page.getByRole('button', { name: 'Show / hide columns' }).click();
      for (const c of ['Hosts', 'MPLS', 'AS', 'NAT', 'DSCP']) {
        const item = page.getByRole('menuitemcheckbox', { name: c, exact: true });
        await expect.poll(() => item.getAttribute('aria-checked')).toBe('false');
        await item.click();
      }
      await page.keyboard.press('Escape');
      await expect.poll(async () => ['Hosts', 'MPLS', 'AS', 'NAT', 'DSCP'].every((c) => headers().then((h) => h.includes(c))), { timeout: 10_000 }).toBe(true);
      // The headers are read with the rows each time: the accessibility table is rebuilt as a whole.
      const cells = async () => {
        const h = await headers();
        const col = (c: string) => h.indexOf(c);
        return (await gridRows()).slice(1, 5).map((r) => ({
          ip: r[col('IP')], hosts: r[col('Hosts')], mpls: r[col('MPLS')], as: r[col('AS')], nat: r[col('NAT')], dscp: r[col('DSCP')],
        }));
      };
      await expect.poll(async () => (await cells()).map((c) => c.dscp), { timeout: 30_000, interval: 500 }).toEqual(['46', '46', '46', '0']);
      // Hop 2's two paths (ECMP) are listed once each has been seen in the rounds shown: wait for that work too.
      const twoHosts = /^10\.251\.116\.1[04] \d+(\.\d)?%, 10\.251\.116\.1[04] \d+(\.\d)?%$/;
      await expect.poll(async () => (await cells())[1].hosts, { timeout: 30_000, interval: 500 }).toMatch(twoHosts);
      const rows = await cells();
      expect(rows.map((r) => r.mpls)).toEqual(['24001 exp 0 ttl 1 S', '', '', '']);
      expect(rows.map((r) => r.as)).toEqual(['Private', 'Private', 'Private', 'Private']);
      expect(rows.map((r) => r.nat)).toEqual(['', '', 'NAT', 'NAT']);
      expect(rows[0].hosts).toBe('');
      expect(rows[1].hosts).toMatch(twoHosts);
      expect(rows[1].hosts).toContain('10.251.116.10');
      expect(rows[1].hosts).toContain('10.251.116.14');
      await page.screenshot({ path: join(shots, 'hop-details-columns.png') });
    } catch (err) {
      await page.screenshot({ path: join(shots, 'hop-details-failure.png') });
      throw err;
    }
  }, 90_000);
});
