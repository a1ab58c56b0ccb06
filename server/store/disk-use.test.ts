// disk-use.ts: the figures from the database and a volume given through the seam.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from './db.js';
import { storageUse } from './disk-use.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);

describe('storageUse', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-disk-'));
    store = await Store.open(dir);
    // A sample a second for 300,000 s (86,400 of them in the last 24 hours), and 5,000 Timeouts older.
    await store.run(`INSERT INTO samples SELECT 1, $1 - i * 1000, 1, 1000 FROM range(300000) t(i)`, [NOW - 1]);
    await store.run(`INSERT INTO samples SELECT 1, $1 - 400000 * 1000 - i, 1, -1 FROM range(5000) t(i)`, [NOW]);
    await store.run('CHECKPOINT');
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives bytes per sample, the rate of the last day and the days the free space lasts', async () => {
    const volume = async () => ({ freeBytes: 50_000_000, totalBytes: 1_000_000_000 });
    const u = await storageUse(store, { rawDays: 30, minuteDays: 400 }, volume, NOW);
    expect(u.SampleCount).toBe(305_000);
    expect(u.SamplesPerDay).toBe(DAY / 1000);
    const perSample = (u.UsedBytes + u.WalBytes) / 305_000;
    expect(u.BytesPerSample).toBeCloseTo(perSample, 2);
    expect(u.VolumeUsedPercent).toBe(95);
    expect(u.DaysUntilFull).toBeCloseTo(50_000_000 / (perSample * u.SamplesPerDay), 1);
    expect(u.RawDaysThatFit).toBeCloseTo((50_000_000 + u.UsedBytes) / (perSample * u.SamplesPerDay), 1);
    expect(u.RetentionRawDays).toBe(30);
  });
});
