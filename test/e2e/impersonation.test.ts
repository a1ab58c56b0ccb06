// Browser test of impersonation (issue 26 item 3; spec 1 sections 2 and 6): a user with
// ImpersonateUser opens Impersonate, picks a user (users holding more are not offered), and
// the console acts as that user with the orange user header and Clear Impersonation in the
// user menu; clearing returns to the original user. Root then reads both in the audit.
// A screenshot goes to test-results/impersonation-*.png on failure (and of the header).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { createWebUser } from '../support/web-users.js';

const shots = resolve(import.meta.dirname, '../../test-results');
let app: Appliance;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-e2e-imp' } });
  const root = await signIn(app.url, 'admin', 'root-pw-e2e-imp');
  await createWebUser(app.url, root, { email: 'ivy@example.org', password: 'Secret-one-9', roles: ['ImpersonateUser', 'TargetManagement', 'SessionManagement'] });
  await createWebUser(app.url, root, { email: 'jack@example.org', password: 'Secret-two-9', roles: ['TargetManagement'] });
  await createWebUser(app.url, root, { email: 'kim@example.org', password: 'Secret-three-9', roles: ['UserManagement'] });
  browser = await openBrowser({ width: 1280, height: 800 });
  page = browser.page;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

const shot = (name: string) => page.screenshot({ path: join(shots, `impersonation-${name}.png`) });
const userMenu = () => page.locator('.user-group');
const row = (text: string) => page.getByRole('row').filter({ hasText: text });

/** Runs a step; on failure keeps a screenshot and the server log. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    await shot(`failed-${name}`).catch(() => undefined);
    writeFileSync(join(shots, 'impersonation-server.log'), app.output());
    throw err;
  }
}

describe('impersonation in the console', () => {
  it('impersonates a user, shows it, and clears back to the original user', async () => {
    await step('start', async () => {
      await signInWithForm(page, app.url, 'ivy@example.org', 'Secret-one-9');
      await page.getByRole('link', { name: 'Impersonate' }).click();
      await page.getByRole('heading', { name: 'Impersonate User' }).waitFor();
      await row('jack@example.org').waitFor();
      // Kim holds UserManagement, which Ivy lacks; root is never offered.
      expect(await row('kim@example.org').count()).toBe(0);
      expect(await row('admin').count()).toBe(0);
      await row('jack@example.org').getByRole('button', { name: 'Impersonate' }).click();
      await page.waitForURL((u) => u.pathname === '/');
    });

    await step('impersonating', async () => {
      await userMenu().getByText('jack@example.org', { exact: true }).waitFor();
      expect(await userMenu().getAttribute('class')).toContain('impersonating');
      await userMenu().getByText('Signed in as ivy@example.org, impersonating jack@example.org.').waitFor();
      // The orange header.
      const background = await userMenu().locator('.user-head').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background).toBe('rgb(194, 65, 12)');
      // Jack's rights: no Sessions entry, no Impersonate entry.
      expect(await page.getByRole('link', { name: 'Sessions' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Impersonate' }).count()).toBe(0);
      await shot('header');
    });

    await step('clear', async () => {
      await userMenu().getByRole('link', { name: 'Clear Impersonation' }).click();
      await userMenu().getByText('ivy@example.org', { exact: true }).waitFor();
      expect(await userMenu().getAttribute('class')).not.toContain('impersonating');
      await page.getByRole('link', { name: 'Sessions' }).waitFor();
      expect(await userMenu().getByRole('link', { name: 'Clear Impersonation' }).count()).toBe(0);
    });

    await step('audit', async () => {
      await page.goto(`${app.url}/logout`);
      await page.waitForURL((u) => u.pathname === '/login');
      await signInWithForm(page, app.url, 'admin', 'root-pw-e2e-imp');
      await page.getByRole('link', { name: 'Manage Users' }).click();
      await page.getByRole('link', { name: 'Impersonation Audit' }).click();
      await page.getByRole('heading', { name: 'Impersonation Audit' }).waitFor();
      await row('Started impersonating').filter({ hasText: 'ivy@example.org' }).filter({ hasText: 'jack@example.org' }).waitFor();
      await row('Cleared impersonation').filter({ hasText: 'ivy@example.org' }).filter({ hasText: 'jack@example.org' }).waitFor();
    });
  });
});
