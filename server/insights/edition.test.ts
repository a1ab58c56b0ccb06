// Which setting wins for the Insights switch: the variable, then the stored setting, then
// the edition.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeploymentMode, LicenseMode } from '../contract/account.js';
import { Store } from '../store/db.js';
import { insightsEnabled, storeInsightsSetting } from './edition.js';
import { openTestStore } from '../store/testing/test-store.js';

describe('Insights switch', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-insights-edition-'));
    store = await openTestStore(dir);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows the edition, then the stored setting, and the variable above both', async () => {
    const self = { insights: undefined, deployment: DeploymentMode.SelfHosted, licenseMode: LicenseMode.Professional };
    const cloud = { insights: undefined, deployment: DeploymentMode.Cloud, licenseMode: LicenseMode.Professional };
    const sidekick = { ...self, licenseMode: LicenseMode.Sidekick };
    expect(await insightsEnabled(store, self)).toBe(false);
    expect(await insightsEnabled(store, cloud)).toBe(true);
    // Sidekick's Troubleshoot runs Insights: on by default under its licence.
    expect(await insightsEnabled(store, sidekick)).toBe(true);
    await storeInsightsSetting(store, true);
    expect(await insightsEnabled(store, self)).toBe(true);
    expect(await insightsEnabled(store, { ...self, insights: false })).toBe(false);
    await storeInsightsSetting(store, false);
    expect(await insightsEnabled(store, cloud)).toBe(false);
    expect(await insightsEnabled(store, sidekick)).toBe(false);
    expect(await insightsEnabled(store, { ...cloud, insights: true })).toBe(true);
  });
});
