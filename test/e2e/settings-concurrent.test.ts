// Two consoles saving settings at once (issue 19 point 5), in two Chromium profiles (two
// sessions). A console that missed the other's save (its hub is cut off, so no
// SettingsChanged) gets the clear conflict, keeps its edit, shows what the other saved, and
// saves again: both changes kept. A console that hears SettingsChanged reloads the saved
// settings under its pending edit and saves without a conflict: both kept again.
// Screenshots: test-results/settings-concurrent-*.png.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SettingsResult } from '../../server/contract/settings.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Concurrent-saves-pw-1';
const WarnLabel = 'Latency warning level (ms)';
const BadLabel = 'Latency critical level (ms)';

describe('two consoles saving settings at once', () => {
  let app: Appliance;
  let one: Browser;
  let two: Browser;
  let a: Page;
  let b: Page;

  const pending = (p: Page) => p.getByTestId('settings-pending').textContent();
  const openDisplay = async (p: Page) => {
    await p.goto(`${app.url}/settings`);
    await p.locator('nav.settings-tree button', { hasText: 'Display' }).first().click();
    await p.getByLabel(WarnLabel).waitFor();
  };
  const enter = async (p: Page, label: string, value: string) => {
    const input = p.getByLabel(label);
    await input.fill(value);
    await input.press('Enter');
  };
  /** What the server has now for the Default configuration. */
  const saved = async () => {
    const cookie = await signIn(app.url, 'admin', password);
    const r = (await (await fetch(`${app.url}/api/Settings/getsettings`, { headers: { cookie } })).json()) as SettingsResult;
    const item = r.Settings.Root.Children.find((c) => c.Name === 'ClientSettings')!.Children.find((c) => c.Name === 'Configurations')!.Children[0];
    return { Warn: item.Children.find((c) => c.Name === 'Warn')!.Value, Bad: item.Children.find((c) => c.Name === 'Bad')!.Value };
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated' } });
    one = await openBrowser({ width: 1280, height: 800 });
    two = await openBrowser({ width: 1280, height: 800 });
    a = one.page;
    b = two.page;
    await signInWithForm(a, app.url, 'admin', password);
    await signInWithForm(b, app.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await app?.dispose();
  });

  const onFailure = async (name: string, f: () => Promise<void>) => {
    try {
      await f();
    } catch (e) {
      await a.screenshot({ path: join(shots, `settings-concurrent-${name}-a-failed.png`) }).catch(() => undefined);
      await b.screenshot({ path: join(shots, `settings-concurrent-${name}-b-failed.png`) }).catch(() => undefined);
      throw e;
    }
  };

  it('the console that missed the other save gets a clear conflict, keeps its edit and saves it over the other change', () =>
    onFailure('conflict', async () => {
      // Console B hears nothing from the hub: it cannot know of A's save before its own.
      await b.route('**/mainHub**', (route) => route.abort());
      await openDisplay(a);
      await openDisplay(b);
      await enter(a, WarnLabel, '90');
      await enter(b, BadLabel, '300');
      await expect.poll(() => pending(a)).toBe('1 change pending');
      await expect.poll(() => pending(b)).toBe('1 change pending');

      await a.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => pending(a), { timeout: 10_000 }).toBe('0 changes pending');
      await b.getByRole('button', { name: 'Save' }).click();
      const error = b.getByRole('alert').filter({ hasText: 'changed in another console' });
      await error.waitFor({ timeout: 10_000 });
      expect(await error.textContent()).toContain('Your edits are kept');
      // B keeps its edit and now shows what A saved under it.
      expect(await pending(b)).toBe('1 change pending');
      expect(await b.getByLabel(BadLabel).inputValue()).toBe('300');
      await expect.poll(() => b.getByLabel(WarnLabel).inputValue(), { timeout: 10_000 }).toBe('90');
      expect(await saved()).toEqual({ Warn: 90, Bad: 250 });
      await b.screenshot({ path: join(shots, 'settings-concurrent-conflict.png') });

      await b.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => pending(b), { timeout: 10_000 }).toBe('0 changes pending');
      expect(await b.getByRole('alert').filter({ hasText: 'changed in another console' }).count()).toBe(0);
      expect(await saved()).toEqual({ Warn: 90, Bad: 300 });
      await b.unroute('**/mainHub**');
    }));

  it('a console that hears SettingsChanged takes the other save under its pending edit and saves without a conflict', () =>
    onFailure('merge', async () => {
      await openDisplay(a);
      await openDisplay(b);
      await enter(a, WarnLabel, '80');
      await enter(b, BadLabel, '280');
      await expect.poll(() => pending(b)).toBe('1 change pending');
      await a.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => pending(a), { timeout: 10_000 }).toBe('0 changes pending');
      // B reloads the saved settings at once: A's Warn shows, B's own edit stays pending.
      await expect.poll(() => b.getByLabel(WarnLabel).inputValue(), { timeout: 10_000 }).toBe('80');
      expect(await b.getByLabel(BadLabel).inputValue()).toBe('280');
      expect(await pending(b)).toBe('1 change pending');
      await b.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => pending(b), { timeout: 10_000 }).toBe('0 changes pending');
      expect(await b.getByRole('alert').filter({ hasText: 'changed in another console' }).count()).toBe(0);
      expect(await saved()).toEqual({ Warn: 80, Bad: 280 });
      // And A, which heard B's save, shows both.
      await expect.poll(() => a.getByLabel(BadLabel).inputValue(), { timeout: 10_000 }).toBe('280');
    }));
});
