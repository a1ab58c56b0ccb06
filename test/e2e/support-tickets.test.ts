// Support tickets and Insights' Read More in Chromium (issue 41 item 11). A ticket sent from
// the console (the dialog's call, from the page) is mailed to the support address through a
// real SMTP server on loopback and listed for the root user on Support Tickets, what the user
// wrote shown as text; a Read More link opens a rendered page, not Markdown. Screenshots:
// test-results/support-tickets.png, test-results/insights-read-more.png.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { startMailSink, type MailSink } from '../alerts/support.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Support-tickets-pw-1';

describe('support tickets and Read More in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let sink: MailSink;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    sink = await startMailSink();
    app = await startAppliance({
      env: {
        HOPWATCH_ROOT_PASSWORD: password,
        HOPWATCH_ENGINE: 'simulated',
        HOPWATCH_SMTP_HOST: '127.0.0.1',
        HOPWATCH_SMTP_PORT: String(sink.port),
        HOPWATCH_SMTP_SECURITY: 'none',
        HOPWATCH_SUPPORT_EMAIL: 'operator@appliance.example',
      },
    });
    browser = await openBrowser({ width: 1024, height: 700 });
    await signInWithForm(browser.page, app.url, 'admin', password);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await app?.dispose();
    await sink?.close();
  });

  it('lists a sent ticket for root with its mail, as text', async () => {
    const page = browser.page;
    const problem = 'The graph is empty <img src=x onerror=alert(1)>\nsince this morning';
    const id = await page.evaluate(async (text) => {
      const q = new URLSearchParams({ name: 'Ann', email: 'ann@example.org', problemStatement: text });
      const r = await fetch(`/cmd/sendsupportticket?${q}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[{"Message":"boom"}]' });
      return ((await r.json()) as { Id: number }).Id;
    }, problem);
    await expect.poll(() => sink.mails.filter((m) => m.raw.includes(`#${id}`)).map((m) => m.to.join()), { timeout: 15_000 }).toEqual(['operator@appliance.example']);

    await page.getByRole('link', { name: 'Support Tickets' }).click();
    const ticket = page.locator(`li.support-ticket[data-ticket-id="${id}"]`);
    await ticket.waitFor({ timeout: 15_000 });
    await expect.poll(() => ticket.locator('.support-ticket-mail').innerText(), { timeout: 15_000 }).toBe('Mailed to operator@appliance.example');
    expect(await ticket.locator('.support-ticket-problem').innerText()).toBe(problem);
    expect(await ticket.locator('img').count()).toBe(0);
    expect(await ticket.locator('.support-ticket-sender').innerText()).toBe('Ann <ann@example.org> (user admin)');
    // Nothing wider than the page at 1024 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await page.screenshot({ path: join(shots, 'support-tickets.png') });
  });

  it('opens a Read More page rendered in the console look', async () => {
    const page = browser.page;
    await page.goto(`${app.url}/docs/insights/wan-red-herring-hops.md`);
    expect(await page.locator('h1').innerText()).toBe('Red herring hops');
    expect(await page.title()).toBe('Red herring hops - Hopwatch Insights');
    expect(await page.locator('main li').count()).toBeGreaterThan(0);
    expect(await page.locator('body').innerText()).not.toMatch(/^# |\*\*/m);
    await page.screenshot({ path: join(shots, 'insights-read-more.png'), fullPage: true });
  });
});
