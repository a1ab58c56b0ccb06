// Browser test: the Sessions grid draws only the rows in view (spec 2 sessions page, issue 18).
// With 2,000 closed sessions the grid must fit the window and scroll inside itself. Before the
// page had a height of its own the grid grew to all its rows and drew every one of them
// (10,000 sessions: 120,000 elements; clearing a filter then held the main thread for 10 s and
// more, which was most of "Delete sessions in filter" taking 12 s). Sessions are written
// straight into a stopped appliance's store (no samples: the list does not need them).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { Store } from '../support/built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Sessions-grid-pw-1';
const SESSIONS = 2_000;
const H = 3_600_000;
const WINDOW = { width: 1280, height: 800 };
/** Rows in an 800 px window at 30 px each, with the grid's overscan of 10 above and below. */
const MostDrawn = Math.ceil(WINDOW.height / 30) + 20;

describe('the Sessions grid with 2,000 sessions in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;

  const grid = () => page.getByTestId('session-grid');
  const rowCount = async () => Number(await grid().getAttribute('data-row-count'));
  const drawn = () => page.locator('[data-testid="session-grid"] [role="row"]').count();

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password } });
    await first.stop();
    // Session i ended i hours before 2026-01-05: session-0 is the newest, first in End descending.
    const store = await openTestStore(first.dataDir);
    try {
      const end = Date.UTC(2026, 0, 5);
      await store.run(
        `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, end_time, sample_count, first_sample, latest_sample)
         SELECT (SELECT min(id) FROM accounts), n, n, '10.251.110.' || (i % 250 + 1), 2, 0, 5000, $1 - (i + 1) * ${H}, $1 - i * ${H}, 0, NULL, NULL
         FROM (SELECT i, 'session-' || i || '.example.test' AS n FROM range(${SESSIONS}) t(i)) ORDER BY i`,
        [end],
      );
    } finally {
      await store.close();
    }
    app = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: password } });
    browser = await openBrowser(WINDOW);
    page = browser.page;
    await signInWithForm(page, app.url, 'admin', password);
  }, 180_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === 'fail' && page) await page.screenshot({ path: join(shots, `sessions-grid-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'sessions-grid-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('fits the window and draws only the rows in view, after a filter is cleared too', async () => {
    await page.goto(`${app.url}/sessions`);
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(SESSIONS);
    // The grid ends inside the window; the rows scroll within it, not the page.
    const box = await grid().boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(WINDOW.height);
    await expect.poll(drawn).toBeGreaterThan(10);
    expect(await drawn()).toBeLessThanOrEqual(MostDrawn);

    // "Delete sessions in filter" starts from a filter; clearing it gives back every session.
    const filter = page.locator('input[aria-label="Filter Target Name"]');
    await filter.fill('session-1');
    await expect.poll(rowCount).toBe(1111); // session-1, -10 to -19, -100 to -199, -1000 to -1999
    await filter.fill('');
    await expect.poll(rowCount).toBe(SESSIONS);
    expect(await drawn()).toBeLessThanOrEqual(MostDrawn);

    // Scrolled to the end, the oldest session is drawn (and the newest no longer).
    await page.locator('.session-grid-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = page.locator('[data-testid="session-grid"] [role="row"]', { hasText: `session-${SESSIONS - 1}.example.test` });
    await last.waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-testid="session-grid"] [role="row"]', { hasText: 'session-0.example.test' }).count()).toBe(0);
    expect(await drawn()).toBeLessThanOrEqual(MostDrawn);
  }, 90_000);
});
