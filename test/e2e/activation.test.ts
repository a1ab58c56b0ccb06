// Browser test of the activation mail (issue 26): root opens Manage Users, picks "Send
// activation link" in a user's row menu, the mail arrives at a real SMTP server on loopback,
// and the link opened in a browser without a session names the user, applies the password
// policy, sets the password and leads to sign-in, where the new password works. The link
// opened again says it was used.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMailSink, waitFor, type MailSink, type ReceivedMail } from '../alerts/support.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

let app: Appliance;
let browser: Browser;
let page: Page;
let sink: MailSink;
const mails: ReceivedMail[] = [];
const email = 'yara.field@example.org';
const shots = resolve(import.meta.dirname, '../../test-results');

const dialog = () => page.getByRole('dialog');
const row = (text: string) => page.getByRole('row').filter({ hasText: text });
/** The raw mail without quoted-printable soft breaks and escapes. */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  sink = await startMailSink(0, mails);
  app = await startAppliance({
    env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-activation', HOPWATCH_SMTP_HOST: '127.0.0.1', HOPWATCH_SMTP_PORT: String(sink.port), HOPWATCH_SMTP_SECURITY: 'none' },
  });
  const admin = await signIn(app.url, 'admin', 'root-pw-activation');
  const r = await fetch(`${app.url}/api/user?password=${encodeURIComponent('Temporary-pw-1')}`, {
    method: 'POST',
    headers: { cookie: admin, 'content-type': 'application/json' },
    body: JSON.stringify({ Id: 0, Name: '', EmailAddress: email, Roles: ['TargetManagement'], IsRoot: false }),
  });
  expect(r.status).toBe(200);
  browser = await openBrowser({ width: 1280, height: 800 });
  page = browser.page;
}, 120_000);

afterEach(async ({ task }) => {
  if (task.result?.state === 'fail' && page) await page.screenshot({ path: join(shots, `activation-failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
  await sink?.close();
});

describe('activation link', () => {
  it('is sent from the row menu, sets the password from the mail, and the user signs in with it', async () => {
    await signInWithForm(page, app.url, 'admin', 'root-pw-activation');
    await page.goto(`${app.url}/user-management`);
    await row(email).waitFor();
    await row(email).getByRole('button', { name: `More actions for ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Send activation link' }).waitFor();
    await page.screenshot({ path: join(shots, 'activation-row-menu.png') });
    await page.getByRole('menuitem', { name: 'Send activation link' }).click();
    await dialog().getByRole('heading', { name: 'Send activation link' }).waitFor();
    await dialog().getByRole('button', { name: 'Send Link' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.getByText(`An activation link was mailed to ${email}.`).waitFor();

    const mail = await waitFor('the activation mail', () => mails.find((m) => m.to.includes(email)), 20_000);
    const link = decoded(mail.raw).match(/https?:\/\/[^\s"<>]+\/activate#[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeDefined();

    // The person opening the mail has no session.
    await browser.context.clearCookies();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    await page.getByText(email).first().waitFor();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText('A password needs at least 8 characters.').waitFor();
    await page.getByLabel('New password', { exact: true }).fill('picked on my own 7');
    await page.getByLabel('Confirm new password').fill('picked on my own 7');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    await page.screenshot({ path: join(shots, 'activation-password-set.png') });

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.getByLabel('Username').inputValue()).toBe(email);
    await page.getByLabel('Password').fill('picked on my own 7');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/', { timeout: 15_000 });
    // Not a temporary password: no Change Password demand.
    expect(await page.getByRole('heading', { name: 'Change your password' }).count()).toBe(0);

    await browser.context.clearCookies();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await page.getByText(/already used/).waitFor();
  }, 90_000);
});
