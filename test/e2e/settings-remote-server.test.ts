// The remote-server packet type in the console (issue 19 point 4): a configuration whose
// traces another Hopwatch runs. In /settings the type is chosen and saved, its own fields
// appear (the password as a password field), a wrong password is refused on the page naming
// the setting, the right one saved shows only as a mask; a target started with that
// configuration shows the other appliance's rounds in its grid. Two appliances on loopback,
// both on the simulated network; here's operator opened loopback to it (HOPWATCH_WEBHOOK_ALLOW,
// the outbound address policy). Screenshots: test-results/settings-remote-*.png.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackWebhooks } from '../alerts/support.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const HerePassword = 'Remote-editor-pw-1';
const TherePassword = 'Remote-there-pw-2';

describe('the remote-server packet type in the settings editor', () => {
  let here: Appliance;
  let there: Appliance;
  let browser: Browser;
  let page: Page;

  const pending = () => page.getByTestId('settings-pending').textContent();
  const entry = (label: string) => page.locator('nav.settings-tree button', { hasText: label });
  const save = async () => {
    await page.getByRole('button', { name: 'Save' }).click();
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [here, there] = await Promise.all([
      startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: HerePassword, HOPWATCH_ENGINE: 'simulated', ...LoopbackWebhooks } }),
      startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: TherePassword, HOPWATCH_ENGINE: 'simulated' } }),
    ]);
    browser = await openBrowser({ width: 1440, height: 900 });
    page = browser.page;
    await signInWithForm(page, here.url, 'admin', HerePassword);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([here?.dispose(), there?.dispose()]);
  });

  it('sets up the access, refusing a wrong password on the page, and mirrors a target run there', async () => {
    try {
      await page.goto(`${here.url}/settings`);
      await entry('Engine').first().click();
      const type = page.getByLabel('Packet type');
      await type.waitFor();
      await type.selectOption('Remote server');
      await page.getByText('Save the change of packet type before its own fields appear.').waitFor();
      await save();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      // Its own fields now; the engine fields that the other appliance decides are gone.
      const password = page.getByLabel('Remote server password');
      await password.waitFor();
      expect(await password.getAttribute('type')).toBe('password');
      expect(await page.getByLabel('Packet size (bytes)').count()).toBe(0);

      await page.getByLabel('Remote server address').fill(there.url);
      await page.getByLabel('Remote server user name').fill('admin');
      await password.fill('not-the-password-9');
      await expect.poll(pending).toBe('3 changes pending');
      await save();
      const refused = page.getByRole('alert').filter({ hasText: 'RemoteServerPassword' });
      await refused.waitFor({ timeout: 10_000 });
      expect(await refused.textContent()).toContain(`the remote Hopwatch at ${there.url} refused the user name or password`);
      expect(await pending()).toBe('3 changes pending');
      await page.screenshot({ path: join(shots, 'settings-remote-refused.png') });

      await password.fill(TherePassword);
      await save();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      // Only the mask comes back.
      expect(await password.inputValue()).toBe('\u2022'.repeat(8));
      expect(await page.content()).not.toContain(TherePassword);

      // A target started with this (the only) configuration runs there and shows here.
      await page.goto(`${here.url}/targets/`);
      const target = page.getByPlaceholder('Enter target name or IP');
      await target.fill('127.0.0.1');
      await target.press('Enter');
      await page.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
      const thereCookie = await signIn(there.url, 'admin', TherePassword);
      await expect
        .poll(async () => ((await (await fetch(`${there.url}/api/Sessions`, { headers: { cookie: thereCookie } })).json()) as { TargetIP: string; State: number }[]).some((s) => s.TargetIP === '127.0.0.1' && s.State === 0), { timeout: 15_000 })
        .toBe(true);
      const id = new URL(page.url()).pathname.split('/').pop();
      const cookie = await signIn(here.url, 'admin', HerePassword);
      await expect
        .poll(async () => ((await (await fetch(`${here.url}/api/data/SamplesReport?ID=${id}`, { headers: { cookie } })).json()) as { Samples: { Status: string }[] }).Samples.filter((s) => s.Status === 'ok').length, { timeout: 20_000 })
        .toBeGreaterThan(2);
      await page.screenshot({ path: join(shots, 'settings-remote-target.png') });
    } catch (e) {
      await page.screenshot({ path: join(shots, 'settings-remote-failed.png') }).catch(() => undefined);
      throw e;
    }
  });
});
