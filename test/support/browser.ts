// Debian Chromium driven by playwright-core, with the flags ARCHITECTURE.md verified and a
// fresh profile that is removed on close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

export async function openBrowser(viewport: { width: number; height: number }): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'hopwatch-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      close: async () => {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw err;
  }
}

/** Signs in through the login form and waits for the home route. */
export async function signInWithForm(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
}

/** On the new-target entry: sets the Trace Interval field, then types the target and presses Enter. */
export async function startTraceFromEntry(page: Page, interval: string, target: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Trace Interval' });
  await field.fill(interval);
  await field.press('Enter');
  const entry = page.getByPlaceholder('Enter target name or IP');
  await entry.fill(target);
  await entry.press('Enter');
}

/**
 * A locator's box once the page has stopped moving it (two reads two frames apart agree), for a
 * click at an offset in a canvas-drawn grid: a box read while the page still lays out (a bar
 * above the grid appearing a moment later) sends the click somewhere else, e.g. onto the header.
 */
export async function settledBox(page: Page, locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let before = await locator.boundingBox();
  for (let i = 0; i < 100; i++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const now = await locator.boundingBox();
    if (now && before && now.x === before.x && now.y === before.y && now.width === before.width && now.height === before.height) return now;
    before = now;
  }
  throw new Error('the element kept moving (or never appeared)');
}
