// Browser test of issue 26 item 1 in the console: a web user signed in with a temporary
// password stays signed in (the server's 403s with temporary-password: True are no lost
// session), sees only the request to change it, and once changed gets the screens their
// claims allow. A deep link to a screen waits behind the change too.
// A screenshot goes to test-results/temporary-password-*.png on failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, type Browser } from '../support/browser.js';
import { createWebUser } from '../support/web-users.js';

const shots = resolve(import.meta.dirname, '../../test-results');
let app: Appliance;
let browser: Browser;
let page: Page;
const email = 'tom@example.org';

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-e2e-temp' } });
  const root = await signIn(app.url, 'admin', 'root-pw-e2e-temp');
  await createWebUser(app.url, root, { email, password: 'Given-by-admin-4', roles: ['SessionManagement', 'TargetManagement'], temporary: true });
  browser = await openBrowser({ width: 1280, height: 800 });
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

describe('a temporary password in the console', () => {
  it('holds the user at Change Password without signing them out, then lets them in', async () => {
    const refused: string[] = [];
    const onResponse = async (r: { status: () => number; url: () => string; request: () => Request }) => {
      if (r.status() === 403) refused.push(r.url());
    };
    page.on('response', onResponse);
    try {
      // A deep link: sign-in sends the user back there afterwards.
      await page.goto(`${app.url}/sessions`);
      await page.waitForURL((u) => u.pathname === '/login');
      await page.getByLabel('Username').fill(email);
      await page.getByLabel('Password').fill('Given-by-admin-4');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'Change your password' }).waitFor();
      await page.getByRole('heading', { name: "You're using a temporary password." }).waitFor();
      // Still signed in, on the page asked for, and no screen loaded behind the dialog.
      expect(new URL(page.url()).pathname).toBe('/sessions');
      expect(await page.getByRole('heading', { name: 'Sessions' }).count()).toBe(0);
      expect(refused).toEqual([]);

      await page.getByLabel('Current password').fill('Given-by-admin-4');
      await page.getByLabel('New password', { exact: true }).fill('Picked-by-me-55');
      await page.getByLabel('Confirm new password').fill('Picked-by-me-55');
      await page.getByRole('button', { name: 'Change Password' }).last().click();
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Change your password' }).count()).toBe(0);
      expect(refused).toEqual([]);
    } catch (err) {
      await page.screenshot({ path: join(shots, 'temporary-password-failed.png') }).catch(() => undefined);
      writeFileSync(join(shots, 'temporary-password-server.log'), app.output());
      throw err;
    } finally {
      page.off('response', onResponse);
    }
  });
});
