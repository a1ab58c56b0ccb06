// Browser test of the alert form (issue 41 items 7 and 8): it shows only the fields of the
// chosen condition and action, takes For and Recover, edits an alert in the same form (For and
// Recover too; the action keeps its id), and deletes after a question in the console's own
// dialog, never the browser's confirm(). Names with markup show as text. Debian Chromium via
// playwright-core; screenshots in test-results/alert-form-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';
import { engineEnv } from '../support/trace-network.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Alert-form-pw-1';
const Name = 'Branch <b>loss</b>';

describe('the alert form in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let page: Page;
  let targetId: number;
  let cookie: string;
  /** Dialogs the browser itself opened (confirm, alert): there must be none. */
  const browserDialogs: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(shots, `alert-form-${name}.png`) });
  const sidebar = () => page.getByTestId('alerts-sidebar');
  const api = async (path: string) => (await fetch(`${app.url}${path}`, { headers: { cookie } })).json();
  /** The names of the form's fields a user can see. */
  const shownFields = (form: Locator) =>
    form.evaluate((f) =>
      [...(f as HTMLFormElement).querySelectorAll<HTMLInputElement>('input[name], select[name], textarea[name]')]
        .filter((x) => x.type !== 'hidden' && x.offsetParent !== null)
        .map((x) => x.name)
        .filter((n, i, all) => all.indexOf(n) === i),
    );

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { ...engineEnv(), HOPWATCH_ROOT_PASSWORD: password } });
    cookie = await signIn(app.url, 'admin', password);
    targetId = (await (await fetch(`${app.url}/cmd/newtarget?target=127.0.0.1&traceInterval=1`, { headers: { cookie } })).json()).ID;
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    page.on('dialog', (d) => {
      browserDialogs.push(d.message());
      void d.dismiss();
    });
    await signInWithForm(page, app.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'alert-form-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('shows the chosen kinds\' fields only, creates, edits (For and Recover too) and deletes after the console\'s own question', async () => {
    try {
      await page.goto(`${app.url}/targets/${targetId}`);
      await page.getByTestId('trace-grid').waitFor({ timeout: 20_000 });
      await page.getByTestId('alerts-toggle').click();
      await sidebar().getByText('No alerts yet.').waitFor({ timeout: 10_000 });

      // New: a loss condition and a comment action show their fields, no other kind's.
      await sidebar().getByRole('button', { name: 'New alert...' }).click();
      const form = page.locator('.alerts-modal form');
      await form.locator('input[name="Name"]').waitFor({ timeout: 10_000 });
      expect(await shownFields(form)).toEqual(['Name', 'Enabled', 'Kind', 'Hop', 'Samples', 'Lost', 'ForSeconds', 'RecoverSeconds', 'Events', 'MinRepeatSeconds', 'ActionKind', 'Text']);
      expect(await form.locator('input[name="RecoverSeconds"]').inputValue()).toBe('120');
      await shot('new-loss');
      // Latency and a webhook: their fields instead.
      await form.locator('select[name="Kind"]').selectOption('latency');
      await form.locator('select[name="ActionKind"]').selectOption('webhook');
      expect(await shownFields(form)).toEqual(['Name', 'Enabled', 'Kind', 'Hop', 'Samples', 'Statistic', 'ThresholdMs', 'ForSeconds', 'RecoverSeconds', 'Events', 'MinRepeatSeconds', 'ActionKind', 'Url', 'Method', 'Format', 'Template']);
      await shot('new-latency-webhook');
      // Agent offline has no window: no hop, samples, For or Recover.
      await form.locator('select[name="Kind"]').selectOption('agentOffline');
      await form.locator('select[name="ActionKind"]').selectOption('log');
      expect(await shownFields(form)).toEqual(['Name', 'Enabled', 'Kind', 'OfflineSeconds', 'Events', 'MinRepeatSeconds', 'ActionKind', 'Text']);

      // The alert made: loss at the target, For 30 s, Recover 5 minutes, a log line.
      await form.locator('select[name="Kind"]').selectOption('loss');
      await form.locator('input[name="Name"]').fill(Name);
      await form.locator('input[name="Hop"]').fill('0');
      await form.locator('input[name="Lost"]').fill('2');
      await form.locator('input[name="ForSeconds"]').fill('30');
      await form.locator('input[name="RecoverSeconds"]').fill('300');
      await form.locator('input[name="Text"]').fill('Loss on $host');
      await form.getByRole('button', { name: 'Finish' }).click();
      await sidebar().getByText('Alert created').waitFor({ timeout: 10_000 });
      await sidebar().getByRole('button', { name: 'Back to alerts' }).click();
      const card = sidebar().locator('.alert-card');
      await card.waitFor({ timeout: 10_000 });
      expect(await card.locator('h3').textContent()).toBe(Name);
      expect(await card.locator('h3 b').count()).toBe(0);
      expect(await card.locator('.alert-condition').textContent()).toContain('starts after holding 30 s, ends after 5 min without holding');
      const [made] = (await api('/api/alerts')) as { AlertID: number; ForSeconds: number; RecoverSeconds: number; Condition: { Kind: string; Lost: number }; Actions: { ActionID: number; Kind: string; Config: { Text?: string } }[] }[];
      expect(made).toMatchObject({ ForSeconds: 30, RecoverSeconds: 300, Condition: { Kind: 'loss', Lost: 2 }, Actions: [{ Kind: 'log', Config: { Text: 'Loss on $host' } }] });
      await shot('created');

      // Edit in the same form, filled with the alert: For, Recover, the text.
      await card.getByRole('button', { name: 'Edit' }).click();
      const edit = page.locator('.alerts-modal form');
      await edit.locator('input[name="Name"]').waitFor({ timeout: 10_000 });
      expect(await edit.locator('h2').textContent()).toBe('Edit alert');
      expect(await edit.locator('input[name="Name"]').inputValue()).toBe(Name);
      expect(await edit.locator('input[name="ForSeconds"]').inputValue()).toBe('30');
      expect(await edit.locator('input[name="RecoverSeconds"]').inputValue()).toBe('300');
      expect(await edit.locator('input[name="Text"]').inputValue()).toBe('Loss on $host');
      expect(await shownFields(edit)).toEqual(['Name', 'Enabled', 'Kind', 'Hop', 'Samples', 'Lost', 'ForSeconds', 'RecoverSeconds', 'Events', 'MinRepeatSeconds', 'ActionKind', 'Text']);
      await edit.locator('input[name="ForSeconds"]').fill('0');
      await edit.locator('input[name="RecoverSeconds"]').fill('60');
      await edit.locator('input[name="Text"]').fill('Still losing on $host');
      await shot('edit');
      await edit.getByRole('button', { name: 'Save' }).click();
      await sidebar().getByText('Alert saved').waitFor({ timeout: 10_000 });
      const [saved] = (await api('/api/alerts')) as typeof made[];
      expect(saved).toMatchObject({ AlertID: made.AlertID, ForSeconds: 0, RecoverSeconds: 60, Actions: [{ ActionID: made.Actions[0].ActionID, Config: { Text: 'Still losing on $host' } }] });
      await sidebar().getByRole('button', { name: 'Back to alerts' }).click();
      await expect.poll(() => card.locator('.alert-condition').textContent(), { timeout: 10_000 }).toContain('starts at once, ends after 1 min without holding');

      // Delete asks in the console's dialog: Cancel keeps it, Delete deletes it.
      await card.getByRole('button', { name: 'Delete alert' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete alert' });
      await dialog.waitFor({ timeout: 10_000 });
      expect(await dialog.textContent()).toContain(`Delete the alert "${Name}"?`);
      await shot('confirm-delete');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await card.count()).toBe(1);
      await card.getByRole('button', { name: 'Delete alert' }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await sidebar().getByText('No alerts yet.').waitFor({ timeout: 10_000 });
      expect(await api('/api/alerts')).toEqual([]);
      expect(browserDialogs).toEqual([]);
      await shot('deleted');

      // At 1024x700 the form fits the window's width and scrolls inside its dialog.
      await page.setViewportSize({ width: 1024, height: 700 });
      await sidebar().getByRole('button', { name: 'New alert...' }).click();
      const small = page.locator('.alerts-modal');
      await small.locator('input[name="Name"]').waitFor({ timeout: 10_000 });
      const fit = await small.evaluate((m) => ({ over: m.scrollWidth - m.clientWidth, right: m.getBoundingClientRect().right }));
      expect(fit.over).toBeLessThanOrEqual(0);
      expect(fit.right).toBeLessThanOrEqual(1024);
      await shot('new-1024');
    } catch (err) {
      await shot('failure');
      throw err;
    }
  }, 120_000);
});
