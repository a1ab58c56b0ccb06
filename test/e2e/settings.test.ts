// Browser test of issue 19 (the settings editor): in one console /settings makes a second
// configuration, sets its engine to TCP port 443 (the warning until the packet type is saved,
// the packet size following the type, "{n} changes pending"); another console watching a
// running target sees the Settings picker appear without a reload, switches the target to the
// new configuration, and the probes reach the target on TCP port 443 (an nftables counter in
// the target's namespace, as root); then Warn saved in the first console turns the second's
// grid amber at once, and General's hide-the-setting-name option reaches its time graphs.
// Topology id 81. Screenshots: test-results/settings-*.png.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { openBrowser, signInWithForm, startTraceFromEntry, type Browser } from '../support/browser.js';
import { traceNetwork, type TraceNetwork } from '../support/trace-network.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Settings-editor-pw-1';
const TopologyId = 81;

/** Packets to TCP port 443 that reached the target namespace (root only). */
function tcp443AtTarget(): number {
  const out = execFileSync('ip', ['netns', 'exec', `hw${TopologyId}-t`, 'nft', 'list', 'chain', 'ip', 'hwsettings', 'in'], { encoding: 'utf8' });
  return Number(/packets (\d+)/.exec(out)?.[1] ?? 'NaN');
}

/** Pixels of the grid canvas in a colour (the Graph cells' latency colours), within a tolerance. */
const gridPixels = (page: Page, rgb: [number, number, number]) =>
  page.evaluate((c) => {
    let n = 0;
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('[data-testid="trace-grid"] canvas')) {
      const ctx = canvas.getContext('2d');
      if (!ctx || !canvas.width || !canvas.height) continue;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - c[0]) < 12 && Math.abs(data[i + 1] - c[1]) < 12 && Math.abs(data[i + 2] - c[2]) < 12) n++;
    }
    return n;
  }, rgb);
const Amber: [number, number, number] = [245, 158, 11];
const Green: [number, number, number] = [22, 163, 74];

describe('the settings editor in Chromium', () => {
  let topo: TraceNetwork;
  let app: Appliance;
  let browser: Browser;
  let editor: Page;
  let watcher: Page;

  const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `settings-${name}.png`) });
  const pending = () => editor.getByTestId('settings-pending').textContent();
  const entry = (label: string) => editor.locator('nav.settings-tree button', { hasText: label });

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    topo = traceNetwork({ id: TopologyId, routers: 1 });
    if (!topo.simulated) {
      execFileSync('ip', ['netns', 'exec', `hw${TopologyId}-t`, 'nft', '-f', '-'], {
        input: 'table ip hwsettings {\n chain in {\n type filter hook input priority 0;\n tcp dport 443 counter\n }\n}\n',
      });
    }
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
    app = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: password, ...topo.env } });
    browser = await openBrowser({ width: 1440, height: 900 });
    watcher = browser.page;
    await signInWithForm(watcher, app.url, 'admin', password);
    editor = await browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    if (app) writeFileSync(join(shots, 'settings-server.log'), app.output());
    await browser?.close();
    await app?.dispose();
    topo?.destroy();
  });

  const onFailure = async (name: string, f: () => Promise<void>) => {
    try {
      await f();
    } catch (e) {
      await shot(editor, `${name}-editor-failed`).catch(() => undefined);
      await shot(watcher, `${name}-watcher-failed`).catch(() => undefined);
      throw e;
    }
  };

  it('a running target in one console; the other makes a configuration with TCP port 443', () =>
    onFailure('create', async () => {
      await startTraceFromEntry(watcher, '0.5 s', topo.target.v4);
      await watcher.waitForURL((u) => /^\/targets\/\d+$/.test(u.pathname), { timeout: 15_000 });
      await expect.poll(() => gridPixels(watcher, Green), { timeout: 20_000 }).toBeGreaterThan(0);
      // One configuration: no Settings picker yet.
      expect(await watcher.getByLabel('Settings', { exact: true }).count()).toBe(0);

      await editor.goto(`${app.url}/settings`);
      await entry('General').first().waitFor();
      expect(await pending()).toBe('0 changes pending');
      expect(await editor.getByRole('button', { name: 'Delete Configuration' }).count()).toBe(0);
      await entry('New named config').click();
      // Creating selects the new configuration (the last before the trailing entry).
      await editor.locator('.settings-screen-head', { hasText: 'New configuration' }).waitFor();
      const name = editor.getByLabel('Name', { exact: true });
      await name.fill('HTTPS 443');
      await expect.poll(pending, { timeout: 10_000 }).toBe('1 change pending');
      await editor.getByRole('button', { name: 'Save' }).click();
      await entry('HTTPS 443').waitFor();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');

      await entry('Engine').last().click();
      await editor.getByLabel('Packet type').waitFor();
      await editor.getByLabel('Packet type').selectOption('TCP');
      // The engine-type warning; the packet size follows the type (40 for TCP).
      await editor.getByText('Save the change of packet type before its own fields appear.').waitFor();
      expect(await editor.getByLabel('Packet size (bytes)').inputValue()).toBe('40');
      expect(await editor.getByLabel('TCP port', { exact: true }).count()).toBe(0);
      await expect.poll(pending, { timeout: 10_000 }).toBe('2 changes pending');
      await editor.getByRole('button', { name: 'Save' }).click();
      await editor.getByLabel('TCP port', { exact: true }).waitFor();
      // A TCP port entry is ignored unless numeric.
      const port = editor.getByLabel('TCP port', { exact: true });
      await port.fill('https');
      await port.press('Enter');
      expect(await port.inputValue()).toBe('80');
      await editor.getByLabel('TCP port preset').selectOption('443');
      expect(await port.inputValue()).toBe('443');
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      await shot(editor, 'engine');
    }));

  it('the watching console gets the Settings picker without a reload and switches the target to TCP 443', () =>
    onFailure('switch', async () => {
      const picker = watcher.getByLabel('Settings', { exact: true });
      await picker.waitFor({ timeout: 10_000 });
      const before = topo.simulated ? 0 : tcp443AtTarget();
      expect(before).toBe(0);
      await picker.selectOption({ label: 'HTTPS 443' });
      if (!topo.simulated) await expect.poll(tcp443AtTarget, { timeout: 15_000 }).toBeGreaterThan(5);
      await expect.poll(() => watcher.locator('.timeline-sub').first().textContent(), { timeout: 10_000 }).toContain('HTTPS 443');
      await shot(watcher, 'switched');
    }));

  it('Warn saved in the editor turns the watching grid amber at once', () =>
    onFailure('warn', async () => {
      expect(await gridPixels(watcher, Amber)).toBe(0);
      await entry('Display').last().click();
      const warn = editor.getByLabel('Latency warning level (ms)');
      await warn.waitFor();
      // A numeric entry that is not a number reverts.
      await warn.fill('soon');
      await warn.press('Enter');
      expect(await warn.inputValue()).toBe('100');
      await warn.fill('0.001');
      await warn.press('Enter');
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      await expect.poll(() => watcher.locator('.legend').textContent(), { timeout: 10_000 }).toContain('Warn 0.001 ms');
      await expect.poll(() => gridPixels(watcher, Amber), { timeout: 10_000 }).toBeGreaterThan(0);
      await shot(watcher, 'amber');
    }));

  it('General: always hiding the setting name takes it off the watching console\'s time graphs', () =>
    onFailure('general', async () => {
      await entry('General').click();
      // Before: the graphs name their configuration.
      await expect.poll(() => watcher.locator('.timeline-sub').first().textContent(), { timeout: 10_000 }).not.toBe('');
      const hide = editor.getByLabel('Timegraphs: always hide the setting name');
      await hide.check();
      await expect.poll(pending, { timeout: 10_000 }).toBe('1 change pending');
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect.poll(pending, { timeout: 10_000 }).toBe('0 changes pending');
      // After: no configuration name; and with one agent no agent name either (spec 2: the agent
      // name on graphs only in multi-agent mode), so nothing is left.
      await expect.poll(() => watcher.locator('.timeline-sub').first().textContent(), { timeout: 10_000 }).toBe('');
    }));
});
