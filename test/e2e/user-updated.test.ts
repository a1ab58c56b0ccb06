// Browser test of issue 26 item 2: a role change reaches the signed-in console at once. A
// web user (who has already replaced the password an admin set) has no Sessions entry;
// root grants SessionManagement through the API and the entry appears without a reload,
// then taking it away removes it again (the hub's UserUpdated makes the console re-read the
// current user).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

let app: Appliance;
let browser: Browser;
let page: Page;
let admin: string;
let userId: number;
const email = 'rita@example.org';

const call = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${app.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });

const setRoles = async (roles: string[]) => {
  const r = await call(`/api/user/${userId}`, admin, { method: 'PATCH', body: JSON.stringify({ EmailAddress: email, Roles: roles }) });
  expect(r.status).toBe(200);
};

beforeAll(async () => {
  app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-e2e-updated' } });
  admin = await signIn(app.url, 'admin', 'root-pw-e2e-updated');
  const created = await call(`/api/user?password=${encodeURIComponent('Temp-pass-for-r')}`, admin, {
    method: 'POST',
    body: JSON.stringify({ EmailAddress: email, Roles: ['TargetManagement'] }),
  });
  expect(created.status).toBe(200);
  userId = ((await created.json()) as { Id: number }).Id;
  // The user replaces the temporary password first, as the console would make them.
  const cookie = await signIn(app.url, email, 'Temp-pass-for-r');
  const changed = await call(`/api/Account?currentPassword=Temp-pass-for-r&newPassword=Own-pass-of-r-1`, cookie, { method: 'PATCH' });
  expect(changed.status).toBe(200);
  browser = await openBrowser({ width: 1280, height: 800 });
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

describe('a role change in the signed-in console', () => {
  it('shows and hides the Sessions entry without a reload', async () => {
    await signInWithForm(page, app.url, email, 'Own-pass-of-r-1');
    const sessions = page.getByRole('link', { name: 'Sessions' });
    await page.getByText(email, { exact: true }).first().waitFor();
    expect(await sessions.count()).toBe(0);
    // Marks this document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    await setRoles(['TargetManagement', 'SessionManagement']);
    await sessions.first().waitFor({ state: 'visible', timeout: 10_000 });

    await setRoles(['TargetManagement']);
    await sessions.first().waitFor({ state: 'detached', timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });
});
