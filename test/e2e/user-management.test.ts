// Browser test of the Web Users page (issue 26 item 1, spec 1 "Web users page"): root opens
// Manage Users, creates a user (the password policy's Error shows in the dialog first),
// searches, edits the permissions, sets a password and deletes the user; the list reloads
// after each change and root is never listed. Every change is checked against the API too.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

let app: Appliance;
let browser: Browser;
let page: Page;
let admin: string;
const email = 'zed.ops@example.org';

const usersFromApi = async () =>
  (await (await fetch(`${app.url}/api/user`, { headers: { cookie: admin } })).json()) as { Id: number; EmailAddress: string; Roles: string[] }[];
const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.getByRole('row').filter({ hasText: text });

beforeAll(async () => {
  app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-users-page' } });
  admin = await signIn(app.url, 'admin', 'root-pw-users-page');
  browser = await openBrowser({ width: 1280, height: 800 });
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

describe('Web Users page', () => {
  it('creates, finds, edits, resets and deletes a web user', async () => {
    await signInWithForm(page, app.url, 'admin', 'root-pw-users-page');
    await page.getByRole('link', { name: 'Manage Users' }).click();
    await page.getByRole('heading', { name: 'Web Users' }).waitFor();
    expect(await page.getByPlaceholder('Search...').count()).toBe(1);
    // Root is hidden.
    expect(await row('admin').count()).toBe(0);

    await page.getByRole('button', { name: 'Create User' }).click();
    await dialog().getByRole('heading', { name: 'Create a new web user' }).waitFor();
    await dialog().getByLabel('E-mail').fill(email);
    await dialog().getByLabel('Password').fill('short');
    await dialog().getByLabel('Target Management').check();
    await dialog().getByRole('button', { name: 'Create User' }).click();
    await dialog().getByText('A password needs at least 8 characters.').waitFor();
    await dialog().getByLabel('Password').fill('First-pass-of-z');
    await dialog().getByRole('button', { name: 'Create User' }).click();
    await dialog().waitFor({ state: 'detached' });
    await row(email).waitFor();
    expect((await usersFromApi()).find((u) => u.EmailAddress === email)?.Roles).toEqual(['TargetManagement']);

    await page.getByPlaceholder('Search...').fill('ZED.OPS');
    await row(email).waitFor();
    await page.getByPlaceholder('Search...').fill('nobody-here');
    await row(email).waitFor({ state: 'detached' });
    await page.getByPlaceholder('Search...').fill('');

    await row(email).getByRole('button', { name: 'Edit' }).click();
    await dialog().getByRole('heading', { name: 'Update web permissions' }).waitFor();
    expect(await dialog().getByLabel('E-mail').getAttribute('readonly')).not.toBeNull();
    await dialog().getByLabel('Session Management').check();
    await dialog().getByRole('button', { name: 'Update' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expect.poll(async () => (await usersFromApi()).find((u) => u.EmailAddress === email)?.Roles.sort()).toEqual(['SessionManagement', 'TargetManagement']);

    await row(email).getByRole('button', { name: 'Password' }).click();
    await dialog().getByRole('heading', { name: `Enter a new password for ${email}` }).waitFor();
    await dialog().getByLabel('New Password').fill('Reset-by-root-1');
    await dialog().getByRole('button', { name: 'Set Password' }).click();
    await dialog().waitFor({ state: 'detached' });
    await signIn(app.url, email, 'Reset-by-root-1');

    await row(email).getByRole('button', { name: 'Delete' }).click();
    await dialog().getByRole('heading', { name: 'Delete User' }).waitFor();
    await dialog().getByText(`Are you sure you want to delete ${email}?`).waitFor();
    await dialog().getByRole('button', { name: 'Delete' }).click();
    await row(email).waitFor({ state: 'detached' });
    expect((await usersFromApi()).some((u) => u.EmailAddress === email)).toBe(false);
  });
});
