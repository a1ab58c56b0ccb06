// Browser test of the staff pages (issue 23 point 3) against seeded data: a staff user opens
// the Staff group, revokes a user's sign-in on Session Audit (that user's next call is 401),
// reads the user's events, answers a support ticket (the account then lists the answer),
// looks up an account by an agent id and impersonates its user from there, after checking
// Ping Server Management shows that account's agent; as that user, Get Help lists the answer.
// Runs in the hosted flavour. Screenshots go to test-results/ on failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountFeedbackAnswer } from '../../server/contract/staff.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { seedAccount, StaffRoles, withStore } from '../support/staff-users.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const StaffPw = 'Staff-pw-e2e-1';
const AnnPw = 'Ann-pw-e2e-1';
const AgentUid = 'branch-agent-e2e';
let app: Appliance;
let browser: Browser;
let page: Page;
let acme: { accountId: number; userIds: Record<string, number> };

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  // The hosted flavour (HOPWATCH_DEPLOYMENT=1), where staff and several accounts belong.
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-e2e-staff', HOPWATCH_ENGINE: 'simulated', HOPWATCH_DEPLOYMENT: '1' } });
  await first.stop();
  await seedAccount(first.dataDir, 'Hopwatch Staff', [{ name: 'sam', email: 'sam@staff.example', password: StaffPw, roles: StaffRoles }]);
  acme = await seedAccount(first.dataDir, 'Acme Networks', [{ name: 'ann', email: 'ann@acme.example', password: AnnPw, roles: ['TargetManagement'] }]);
  await withStore(first.dataDir, async (store) => {
    await store.run(`INSERT INTO agents (account_id, unique_id, name, version, last_message, created_at) VALUES ($1, $2, 'Branch office', '1.4.2', $3, $3)`, [
      acme.accountId,
      AgentUid,
      Date.now() - 3_600_000,
    ]);
    await store.run(
      `INSERT INTO support_tickets (account_id, user_id, name, email, problem_statement, error_log, created_at)
       VALUES ($1, $2, 'Ann', 'ann@acme.example', '<script>alert(1)</script> graphs stop', 'null', $3)`,
      [acme.accountId, acme.userIds.ann, Date.now()],
    );
  });
  app = await first.restart();
  browser = await openBrowser({ width: 1400, height: 900 });
  page = browser.page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.dispose();
});

const shot = (name: string) => page.screenshot({ path: join(shots, `staff-${name}.png`) });
const row = (text: string | RegExp) => page.getByRole('row').filter({ hasText: text });

async function step(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    await shot(`failed-${name}`).catch(() => undefined);
    writeFileSync(join(shots, 'staff-server.log'), app.output());
    throw err;
  }
}

const annCalls = (cookie: string, path = '/api/Account/GetCurrentUser') => fetch(`${app.url}${path}`, { headers: { cookie } });

describe('the staff pages in the console', () => {
  it('revokes a session, reads events, answers a ticket, looks up and impersonates', async () => {
    const ann = await signIn(app.url, 'ann', AnnPw);
    expect((await annCalls(ann)).status).toBe(200);

    await step('session-audit', async () => {
      await signInWithForm(page, app.url, 'sam', StaffPw);
      await page.getByRole('button', { name: 'Staff' }).click();
      await page.getByRole('link', { name: 'Session Audit' }).click();
      await page.getByRole('heading', { name: 'Session Audit' }).waitFor();
      const annRow = row('Acme Networks').filter({ hasText: 'ann' }).first();
      await annRow.waitFor();
      expect(await annRow.textContent()).toContain('127.0.0.1');
      await annRow.getByRole('button', { name: 'Revoke' }).click();
      await row('Acme Networks').filter({ hasText: 'Revoked by sam' }).first().waitFor();
      expect((await annCalls(ann)).status).toBe(401);
    });

    await step('events', async () => {
      await row('Acme Networks').filter({ hasText: 'ann' }).first().getByRole('link', { name: 'ann' }).click();
      await page.getByRole('heading', { name: 'Users and Events' }).waitFor();
      await page.getByRole('heading', { name: 'ann (Acme Networks)' }).waitFor();
      const events = page.getByRole('grid', { name: 'User events' });
      await events.getByRole('row').filter({ hasText: 'Signed in' }).first().waitFor();
      expect(await events.getByRole('row').filter({ hasText: 'POST /api/Account/Login' }).count()).toBeGreaterThan(0);
    });

    await step('feedback', async () => {
      await page.getByRole('link', { name: 'Feedback' }).click();
      await page.getByRole('heading', { name: 'Feedback' }).waitFor();
      const ticket = row('graphs stop').first();
      await ticket.waitFor();
      // What the user wrote is text, not markup.
      expect(await ticket.textContent()).toContain('<script>alert(1)</script> graphs stop');
      await ticket.getByRole('button', { name: 'Answer' }).click();
      await ticket.getByRole('textbox').fill('We found it: fixed in 1.5.');
      await ticket.getByRole('button', { name: 'Send answer' }).click();
      await ticket.getByText('We found it: fixed in 1.5.').waitFor();
      // No mail server here: the answer says so, and the account lists it.
      await ticket.getByText(/not mailed/).waitFor();
      const again = await signIn(app.url, 'ann', AnnPw);
      const answers = (await (await annCalls(again, '/api/support/Answers')).json()) as AccountFeedbackAnswer[];
      expect(answers.map((a) => a.Text)).toEqual(['We found it: fixed in 1.5.']);
    });

    await step('ping-servers', async () => {
      await page.getByRole('link', { name: 'Ping Servers' }).click();
      await page.getByRole('heading', { name: 'Ping Server Management' }).waitFor();
      const agent = row('Branch office');
      await agent.waitFor();
      expect(await agent.textContent()).toContain('Acme Networks');
      expect(await agent.textContent()).toContain('Offline');
      expect(await agent.textContent()).toContain('1 h ago');
      expect(await row('Local Machine').textContent()).toContain('simulated');
    });

    await step('lookup-impersonate', async () => {
      await page.getByRole('link', { name: 'Lookup' }).click();
      await page.getByRole('heading', { name: 'Lookup' }).waitFor();
      await page.getByRole('searchbox', { name: 'Look up' }).fill(AgentUid);
      await page.getByRole('button', { name: 'Look up' }).click();
      const match = row('Agent').filter({ hasText: AgentUid });
      await match.waitFor();
      expect(await match.textContent()).toContain('Acme Networks');
      await match.getByRole('button', { name: 'Impersonate' }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.locator('.user-group').getByText('ann').first().waitFor();
      // The session is ann's now: staff calls are refused for it.
      const cookies = await browser.context.cookies(app.url);
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      expect((await annCalls(cookie, '/api/staff/pingservers')).status).toBe(403);
    });

    await step('account-reads-answer', async () => {
      // As ann (impersonated): Get Help lists the answer support gave the account.
      await page.locator('.user-group').getByText('Get Help').click();
      const answers = page.locator('details.support-answers');
      await answers.getByText('Answers from support (1)').click();
      await answers.getByText('We found it: fixed in 1.5.').waitFor();
      expect(await answers.textContent()).toContain('<script>alert(1)</script> graphs stop');
    });
  }, 180_000);
});
