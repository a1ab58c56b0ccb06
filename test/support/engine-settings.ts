// Test fixture: writes a configuration's engine settings into a data directory before the
// appliance starts on it (the settings editor is a later issue). Imports the built store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from './built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

export async function dataDirWithEngineSettings(settings: Record<string, unknown>, configId = 1): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-test-'));
  const store = await openTestStore(dataDir);
  try {
    await store.run('UPDATE configurations SET engine_json = $2 WHERE id = $1', [configId, JSON.stringify(settings)]);
  } finally {
    await store.close();
  }
  return dataDir;
}
