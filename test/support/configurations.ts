// Test fixture: adds named configurations to a data directory before the appliance starts on
// it (the settings editor is a later issue), like engine-settings.ts. Imports the built store.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from './built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

export interface ConfigurationRow {
  name: string;
  warn?: number;
  bad?: number;
  scale?: number;
}

/** A fresh data directory (or the given one) with these configurations after the Default one; answers their ids in order. */
export async function dataDirWithConfigurations(rows: ConfigurationRow[], dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-test-'))): Promise<{ dataDir: string; ids: number[] }> {
  const store = await openTestStore(dataDir);
  const ids: number[] = [];
  try {
    for (const r of rows) {
      const row = await store.one<{ id: number }>(
        'INSERT INTO configurations (name, warn, bad, scale) VALUES ($1, $2, $3, $4) RETURNING id',
        [r.name, r.warn ?? 100, r.bad ?? 250, r.scale ?? 100],
      );
      ids.push(Number(row!.id));
    }
  } finally {
    await store.close();
  }
  return { dataDir, ids };
}
