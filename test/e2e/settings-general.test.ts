// Browser test of Settings > General's appliance settings (issue 21 point 5, issue 25 points 2
// and 3): one console watches a target window (no Insights button: off by default on a
// self-hosted appliance); another switches Settings > General > Insights on and saves; the
// watching console shows the Insights button without a reload (SettingsChanged -> it reads
// /api/app/config again), and loses it when the switch goes off. The General page shows the
// retention days and the Disk use panel. Simulated engine (route-change scenario), no root.
// Screenshots: test-results/settings-general-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const scenario = resolve(import.meta.dirname, '../sim/scenarios/route-change.yaml');
const password = 'General-settings-pw-1';
const Target = '10.251.112.26';

describe('Settings > General in Chromium', () => {
  let app: Appliance;
  let browser: Browser;
  let editor: Page;
  let watcher: Page;
  let targetId = 0;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `settings-general-${name}.png`) });
  const pending = () => editor.getByTestId('settings-pending').textContent();
  const insightsButton = () => watcher.getByRole('button', { name: 'Insights', exact: true });
  const onFailure = async (name: string, f: () => Promise<void>) => {
    try {
      await f();
    } catch (e) {
      await shot(editor, `${name}-editor-failed`).catch(() => undefined);
      await shot(watcher, `${name}-watcher-failed`).catch(() => undefined);
      throw e;
    }
  };

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({
      env: {
        HOPWATCH_ROOT_PASSWORD: password,
        HOPWATCH_ENGINE: 'simulated',
        HOPWATCH_SIM_SCENARIOS: scenario,
        HOPWATCH_INSIGHTS: '',
        HOPWATCH_RETENTION_RAW_DAYS: '',
        HOPWATCH_RETENTION_MINUTE_DAYS: '',
      },
    });
    browser = await openBrowser({ width: 1440, height: 900 });
    watcher = browser.page;
    await signInWithForm(watcher, app.url, 'admin', password);
    editor = await browser.context.newPage();
    targetId = await watcher.evaluate(async (t) => {
      const r = await fetch(`/cmd/newtarget?target=${t}&traceInterval=1`);
      return ((await r.json()) as { ID: number }).ID;
    }, Target);
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'settings-general-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
  });

  it('the General page offers Insights (off), the retention days and the disk use', () =>
    onFailure('page', async () => {
      expect(targetId).toBeGreaterThan(0);
      await watcher.goto(`${app.url}/targets/${targetId}`);
      await watcher.getByTestId('trace-grid').waitFor({ timeout: 15_000 });
      expect(await insightsButton().count()).toBe(0);

      await editor.goto(`${app.url}/settings`);
      const insights = editor.getByLabel('Insights', { exact: true });
      await insights.waitFor();
      expect(await insights.isChecked()).toBe(false);
      expect(await editor.getByLabel('Keep raw samples (days)').inputValue()).toBe('30');
      expect(await editor.getByLabel('Keep 1-minute rollups (days)').inputValue()).toBe('400');
      const disk = editor.getByRole('region', { name: 'Disk use' });
      await disk.getByText('Data volume').waitFor({ timeout: 10_000 });
      await expect.poll(() => disk.textContent()).toMatch(/% full, .+ free of /);
      await shot(editor, 'page');
    }));

  it('switching Insights on shows the Insights button on an open target window without a reload', () =>
    onFailure('on', async () => {
      await editor.getByLabel('Insights', { exact: true }).check();
      await expect.poll(pending, { timeout: 10_000 }).toBe('1 change pending');
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      await insightsButton().waitFor({ timeout: 15_000 });
      await shot(watcher, 'insights-on');

      await editor.getByLabel('Insights', { exact: true }).uncheck();
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      await expect.poll(() => insightsButton().count(), { timeout: 15_000 }).toBe(0);
    }));

  it('a retention day count is saved and shown in the disk use', () =>
    onFailure('retention', async () => {
      const raw = editor.getByLabel('Keep raw samples (days)');
      await raw.fill('14');
      await raw.press('Enter');
      await expect.poll(pending, { timeout: 10_000 }).toBe('1 change pending');
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      const disk = editor.getByRole('region', { name: 'Disk use' });
      await disk.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => disk.textContent(), { timeout: 10_000 }).toContain('raw samples 14 days');
    }));
});
