// Browser test of what the Agents page says after Create (issue 40 items 3, 4 and 5), on a
// console opened at 127.0.0.1 with no public URL set: the new agent is selected and its
// install commands show at once (download from this server, unpack, install.sh with the Auto
// Setup link; the container form), with a Copy button; a warning says the link names a
// loopback address agents elsewhere cannot reach and points at Settings; Installer and Auto
// Setup keep the link shown; New Setup Link replaces it and says the old one stopped working;
// Settings > General asks for the public URL. Debian Chromium via playwright-core.
// Screenshots: test-results/agent-install-*.png.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { SetupLinkReplacedText } from '../../server/contract/agents.js';
import { parseSetupLink } from '../../agent/setup-link.js';
import { startAppliance, type Appliance } from '../support/appliance.js';
import { openBrowser, signInWithForm, type Browser } from '../support/browser.js';

const shots = resolve(import.meta.dirname, '../../test-results');
const password = 'Agent-install-pw-1';

describe('the install commands on the Agents page in Chromium', () => {
  let app: Appliance;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    app = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated', HOPWATCH_PUBLIC_URL: '' } });
    browser = await openBrowser({ width: 1400, height: 1000 });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.dispose();
  });

  it('shows the commands and the loopback warning after Create, and keeps the link until a new one is asked for', async () => {
    const page = browser.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(shots, 'agent-install-failed.png') });
    });
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    await signInWithForm(page, app.url, 'admin', password);
    await page.goto(`${app.url}/agents`);
    await page.getByRole('button', { name: 'Create Agent' }).click();
    await page.getByRole('dialog', { name: 'Create a new agent' }).getByLabel('Name').fill('Branch office');
    await page.getByRole('dialog').getByRole('button', { name: 'Create Agent' }).click();
    await expect.poll(() => page.getByText('Install it with the commands under DEPLOY').count()).toBe(1);

    // No click on the row: Create selects the new agent and its commands show.
    const install = page.getByRole('region', { name: 'Install this agent' });
    await expect.poll(() => install.count(), { timeout: 15_000 }).toBe(1);
    const warning = install.getByRole('alert');
    await expect.poll(() => warning.textContent()).toMatch(/^The link names 127\.0\.0\.1, a loopback address .*Set the public URL in Settings > General/);
    expect(await warning.getByRole('link', { name: 'Open Settings' }).getAttribute('href')).toBe('/settings');

    // The installer the server serves picks x64 or arm64 by uname -m (issue 46).
    const linux = install.locator('figure', { hasText: 'Install on Linux x64 or arm64' });
    const lines = (await linux.locator('pre').textContent())!.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`curl -fLO ${app.url}/downloads/hopwatch-agent-install.sh`);
    const shown = /^sudo sh hopwatch-agent-install\.sh '(hopwatch:\/\/setup\?[^']+)'$/.exec(lines[1])![1];
    expect(parseSetupLink(shown).server).toBe(app.url);
    expect(await install.locator('figure', { hasText: 'in a container' }).locator('pre').textContent()).toContain(`hopwatch:latest agent '${shown}'`);
    await linux.getByRole('button', { name: /^Copy/ }).click();
    await expect.poll(clipboard).toBe(lines.join('\n'));
    await page.locator('.agent-detail').screenshot({ path: join(shots, 'agent-install-commands.png') });

    // Auto Setup and Installer show the same link: the one in the commands still works.
    await page.getByRole('button', { name: 'Auto Setup' }).click();
    await expect.poll(() => page.getByText('Auto Setup link copied to clipboard.').count()).toBe(1);
    expect(await clipboard()).toBe(shown);
    const download = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Installer' }).click();
    await (await download).close();
    expect((await linux.locator('pre').textContent())!.split('\n')[1]).toBe(lines[1]);

    // New Setup Link: confirmed, a new link copied and shown, the old one said to stop working.
    await page.getByRole('button', { name: 'New Setup Link' }).click();
    await page.getByRole('dialog', { name: 'New Auto Setup Link' }).getByRole('button', { name: 'Make New Link' }).click();
    await expect.poll(() => page.getByText(SetupLinkReplacedText, { exact: false }).count()).toBe(1);
    const renewed = await clipboard();
    expect(renewed).not.toBe(shown);
    await expect.poll(async () => (await linux.locator('pre').textContent())!.split('\n')[1]).toBe(`sudo sh hopwatch-agent-install.sh '${renewed}'`);
    await page.screenshot({ path: join(shots, 'agent-install-renewed.png') });

    // Settings > General asks for the public URL while none is set.
    await page.goto(`${app.url}/settings`);
    await expect.poll(() => page.getByText('No public URL is set').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => page.getByText('Public URL', { exact: true }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, 'agent-install-settings.png') });
  }, 120_000);
});
