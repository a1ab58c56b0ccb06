// The home page (All Targets) asks for each graph's data once on load (issue 41 item 12: it
// asked two to four times, each new ask aborting the one in flight). Chromium on the simulated
// engine, three targets at 1 s: each graph's DataPointBuckets calls of the first seconds are
// read; a full load spans the graph's loaded range (20 minutes), a live top-up only the new
// samples since the last (seconds). Screenshot: test-results/home-requests.png.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Home-requests-pw-1';
const TARGETS = 3;

describe('home page requests in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let scenarios: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    scenarios = mkdtempSync(join(tmpdir(), 'hopwatch-home-requests-'));
    for (let i = 1; i <= TARGETS; i++) {
      writeFileSync(
        join(scenarios, `t${i}.yaml`),
        [`name: home-${i}`, `seed: ${i}`, 'hops:', `  - { v4: 10.251.118.${i}, v6: "fd00:251:118::${i}", rttMs: 0.5 }`, `target: { v4: 10.251.119.${i}, v6: "fd00:251:119::${i}", rttMs: 1.5, jitterMs: 0.5 }`, ''].join('\n'),
      );
    }
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: scenarios } });
    const cookie = await signIn(app.url, 'admin', password);
    for (let i = 1; i <= TARGETS; i++) {
      const r = await fetch(`${app.url}/cmd/newtarget?target=10.251.119.${i}&traceInterval=1`, { headers: { cookie } });
      expect(r.status, await r.text()).toBe(200);
    }
    browser = await openBrowser({ width: 1440, height: 900 });
    await signInWithForm(browser.page, app.url, 'admin', password);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await app?.dispose();
    if (scenarios) rmSync(scenarios, { recursive: true, force: true });
  });

  it('loads each graph once, then only tops up', async () => {
    const page = browser.page;
    const loads = new Map<string, { startMs: number; endMs: number }[]>();
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.pathname !== '/api/data/DataPointBuckets') return;
      const id = u.searchParams.get('targetId') ?? '';
      loads.set(id, [...(loads.get(id) ?? []), { startMs: Number(u.searchParams.get('startTime')), endMs: Number(u.searchParams.get('endTime')) }]);
    });
    await page.goto(`${app.url}/`);
    const graphs = page.locator('.graphs-pane section.timeline-graph');
    await expect.poll(() => graphs.count(), { timeout: 30_000 }).toBe(TARGETS);
    for (let i = 0; i < TARGETS; i++) await graphs.nth(i).locator('canvas').first().waitFor({ timeout: 15_000 });
    // A few samples' time: a repeated full load showed within the first two seconds.
    await page.waitForTimeout(3000);
    await page.screenshot({ path: join(shots, 'home-requests.png') });
    expect([...loads.keys()].sort()).toHaveLength(TARGETS);
    for (const [id, list] of loads) {
      const full = list.filter((l) => l.endMs - l.startMs >= 10 * 60_000);
      expect(full, `${id}: ${JSON.stringify(list)}`).toHaveLength(1);
      // The rest are top-ups after it, each from about where the previous one ended.
      const tops = list.slice(list.indexOf(full[0]) + 1);
      expect(list.indexOf(full[0]), `${id}: the full load first`).toBe(0);
      for (const t of tops) expect(t.endMs - t.startMs, `${id}: ${JSON.stringify(t)}`).toBeLessThan(60_000);
    }
  });
});
