// Browser test of issue 23 (accounts): two accounts of one cloud appliance side by side in
// two Chromium profiles, each seeing only its own targets, agents, summaries and LiveShare
// links; the console's hub connection carries the bearer token; the subscription page shows
// the account's entitlements; staff create an account on /staff/accounts and suspend
// another, whose open console is sent to sign-in. Simulated engine (loopback answers), so no
// root is needed. Screenshots: test-results/accounts-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccount } from '../../server/contract/accounts.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { caller, q } from '../security/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const staff = { user: 'ops@provider.example', password: 'Staff-pw-e2e-accounts' };

interface Side {
  name: string;
  email: string;
  password: string;
  cookie: string;
  target: string;
  browser?: Browser;
  page?: Page;
  hubUrls: string[];
}

describe('two accounts side by side in Chromium (cloud flavour)', () => {
  let app: Appliance;
  let call: ReturnType<typeof caller>;
  let staffBrowser: Browser | undefined;
  const sides: Side[] = [
    { name: 'Alpha', email: 'amy@alpha.example', password: '', cookie: '', target: '127.0.0.1', hubUrls: [] },
    { name: 'Bravo', email: 'bob@bravo.example', password: '', cookie: '', target: '::1', hubUrls: [] },
  ];
  const [alpha, bravo] = sides as [Side, Side];
  const text = (p: Page) => p.evaluate(() => document.body.innerText);

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({
      env: { HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'root-pw-e2e-accounts', HOPWATCH_STAFF_USER: staff.user, HOPWATCH_STAFF_PASSWORD: staff.password },
    });
    call = caller(app);
    const staffCookie = await signIn(app.url, staff.user, staff.password);
    for (const side of sides) {
      // LocalMachine: granted, so each account's first trace runs from this server (issue 39 item 15).
      const r = await call('/api/staff/accounts', staffCookie, {
        method: 'POST',
        body: JSON.stringify({ Name: side.name, UserEmail: side.email, Plan: `${side.name} plan`, EntitledTraces: 7, LocalMachine: true }),
      });
      const made = (await r.json()) as CreatedAccount;
      const temp = await signIn(app.url, side.email, made.TemporaryPassword);
      side.password = `Own-pw-${side.name}-1`;
      expect((await call(`/api/Account?newPassword=${q(side.password)}`, temp, { method: 'PATCH' })).status).toBe(200);
      side.cookie = await signIn(app.url, side.email, side.password);
      // Each account's own things, named after it.
      expect((await call(`/cmd/newtarget?target=${q(side.target)}&traceInterval=1`, side.cookie)).status).toBe(200);
      const summary = (await (await call(`/cmd/createsummary?name=${q(`${side.name} summary`)}`, side.cookie)).json()) as { UniqueID: string };
      expect((await call(`/cmd/createAgent?name=${q(`${side.name} agent`)}`, side.cookie)).status).toBe(200);
      const link = await call('/api/liveshare', side.cookie, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summary.UniqueID}`, Description: `${side.name} link` }) });
      expect(link.status).toBe(200);
    }
    for (const side of sides) {
      side.browser = await openBrowser({ width: 1280, height: 800 });
      side.page = side.browser.page;
      side.page.on('websocket', (ws) => side.hubUrls.push(ws.url()));
      await signInWithForm(side.page, app.url, side.email, side.password);
    }
  }, 180_000);

  afterEach(async ({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const side of sides) await side.page?.screenshot({ path: join(shots, `accounts-failed-${side.name}-${task.name.slice(0, 30).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
  });

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'accounts-server.log'), app.output());
    for (const side of sides) await side.browser?.close();
    await staffBrowser?.close();
    await app?.dispose();
  });

  it('each sees only its own targets and summaries', async () => {
    for (const [me, other] of [[alpha, bravo], [bravo, alpha]] as const) {
      const page = me.page!;
      await page.goto(`${app.url}/`);
      await page.getByTestId('summary-heading').waitFor({ timeout: 15_000 });
      // The All Targets grid's accessible table lists the account's one target.
      await expect
        .poll(() => page.evaluate(() => [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody td')].map((td) => td.textContent ?? '').join(' ')), { timeout: 20_000 })
        .toContain(me.target);
      const cells = await page.evaluate(() => [...document.querySelectorAll('[data-testid="trace-grid"] table[role="grid"] tbody td')].map((td) => td.textContent ?? ''));
      expect(cells).not.toContain(other.target);
      await expect.poll(() => text(page), { timeout: 10_000 }).toContain(`${me.name} summary`);
      expect(await text(page)).not.toContain(`${other.name} summary`);
      await page.screenshot({ path: join(shots, `accounts-${me.name}-home.png`) });
    }
  });

  it('each sees only its own agents and LiveShare links', async () => {
    for (const [me, other] of [[alpha, bravo], [bravo, alpha]] as const) {
      const page = me.page!;
      await page.goto(`${app.url}/agents`);
      await expect.poll(() => text(page), { timeout: 15_000 }).toContain(`${me.name} agent`);
      expect(await text(page)).toContain('Cloud Agents');
      expect(await text(page)).not.toContain(`${other.name} agent`);
      await page.goto(`${app.url}/LiveShareLinks`);
      await expect.poll(() => text(page), { timeout: 15_000 }).toContain(`${me.name} link`);
      expect(await text(page)).not.toContain(`${other.name} link`);
      await page.screenshot({ path: join(shots, `accounts-${me.name}-links.png`) });
    }
  });

  it("the console's hub connection sends the bearer token", async () => {
    for (const side of sides) {
      const hub = side.hubUrls.filter((u) => u.includes('/mainHub'));
      expect(hub.length, side.hubUrls.join('\n')).toBeGreaterThan(0);
      expect(hub.every((u) => /[?&]access_token=[^&]+/.test(u))).toBe(true);
    }
  });

  it('the subscription page shows the plan and entitlements', async () => {
    const page = alpha.page!;
    await page.goto(`${app.url}/subscription`);
    await expect.poll(() => page.getByTestId('plan').textContent(), { timeout: 15_000 }).toBe('Alpha plan');
    // Its one trace runs from the granted Local Machine, which counts (issue 39 item 15).
    expect(await page.getByTestId('traces').textContent()).toBe('1 of 7 Active Targets');
    expect(await page.getByTestId('agents').textContent()).toBe('0 online, 0 offline, 1 pending');
    await page.screenshot({ path: join(shots, 'accounts-subscription.png') });
  });

  it('staff create an account and suspend another on /staff/accounts; its console goes to sign-in', async () => {
    staffBrowser = await openBrowser({ width: 1280, height: 800 });
    const page = staffBrowser.page;
    await signInWithForm(page, app.url, staff.user, staff.password);
    await page.goto(`${app.url}/staff/accounts`);
    const row = (name: string) => page.locator(`tr[data-account="${name}"]`);
    await row('Alpha').waitFor({ timeout: 15_000 });
    expect(await row('Bravo').textContent()).toContain('Active');

    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByLabel('Account name').fill('Charlie');
    await page.getByLabel("First user's e-mail").fill('cat@charlie.example');
    await page.getByLabel('Entitled traces').fill('3');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const oneTime = await page.getByLabel('One-time password').textContent();
    expect(oneTime?.trim().length).toBeGreaterThanOrEqual(12);
    await page.getByRole('button', { name: 'Done' }).click();
    await row('Charlie').waitFor({ timeout: 10_000 });
    expect(await row('Charlie').textContent()).toContain('0 of 3');
    // The one-time password signs the new account's first user in.
    await signIn(app.url, 'cat@charlie.example', oneTime!.trim());

    await row('Bravo').getByRole('button', { name: 'Suspend' }).click();
    await page.getByLabel('Reason (staff only)').fill('test');
    await page.getByRole('button', { name: 'Suspend', exact: true }).last().click();
    await expect.poll(() => row('Bravo').textContent(), { timeout: 10_000 }).toContain('Suspended');
    await page.screenshot({ path: join(shots, 'accounts-staff.png') });

    // Bravo's open console loses its session: the next call sends it to sign-in.
    const bravoPage = bravo.page!;
    await bravoPage.goto(`${app.url}/agents`);
    await bravoPage.waitForURL((u) => u.pathname.startsWith('/login'), { timeout: 15_000 });
    await bravoPage.getByLabel('Username').fill(bravo.email);
    await bravoPage.getByLabel('Password').fill(bravo.password);
    await bravoPage.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => text(bravoPage), { timeout: 10_000 }).toContain('This account is suspended');
  });
});
