// Issue 41 item 12: a fresh install printed migration lines about converting 0 rows
// ("migration 5: converting samples (0 rows) ...", "0 of 0 rows (100%)"). The conversions of
// migrations 5 and 18 speak only when there is something to convert (their progress lines on
// a database with data are checked by server/store/*-migration.integration.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { startAppliance, type Appliance } from '../support/appliance.js';

let hw: Appliance | undefined;
afterEach(async () => {
  await hw?.dispose();
  hw = undefined;
});

describe('migration log of a fresh install', () => {
  it('prints no conversion lines when there is nothing to convert, also on the next start', async () => {
    hw = await startAppliance();
    const first = hw.output();
    // The start did happen and did print (the root password), so silence is not an empty log.
    expect(hw.rootPassword).toBeTruthy();
    expect(first).not.toMatch(/\b0 rows\b/);
    expect(first).not.toMatch(/\b0 of 0 rows\b/);
    expect(first).not.toMatch(/^migration \d+: /m);
    hw = await hw.restart();
    expect(hw.output()).not.toMatch(/^migration \d+: /m);
  });
});
