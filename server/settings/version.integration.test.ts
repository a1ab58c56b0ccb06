// Two consoles saving Settings at once with the same version: exactly one save wins, the others
// get "stale" (409), on both backends (issue 42 item 5: on PostgreSQL transactions run side by
// side, so no in-process writer lane may be what makes the check-and-bump atomic).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/db.js';
import { openTestStore } from '../store/testing/test-store.js';
import { accountSettings, bumpVersion } from './repository.js';

describe('the settings version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-settings-version-'));
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dir);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets exactly one of many simultaneous saves of one version through, first save and later ones alike', async () => {
    for (const expected of [1, 2, 3]) {
      const saves = await Promise.all(Array.from({ length: 12 }, (_, i) => store.transaction((q) => bumpVersion(q, 7, expected, { n: i })).catch(() => false)));
      expect(saves.filter(Boolean)).toHaveLength(1);
      const now = await store.read((q) => accountSettings(q, 7));
      expect(now.version).toBe(expected + 1);
      expect(now.general).toEqual({ n: saves.indexOf(true) });
    }
  });
});
