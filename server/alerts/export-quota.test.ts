// The per-account quota of alert exports (export-quota.ts), on real files in a temporary folder.
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExportMinRepeatSeconds, ExportTooLarge, exportUse, exportedRecently, noteExported, withoutExportDir, writeWithinQuota } from './export-quota.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hopwatch-export-quota-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes `bytes` bytes, then dates the file `age` seconds back (the quota goes by modification time). */
const writer = (bytes: number, ageSeconds = 0) => async (path: string) => {
  writeFileSync(path, Buffer.alloc(bytes, 1));
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(path, t, t);
  return bytes;
};
const names = (accountId: number) => readdirSync(join(root, `account-${accountId}`)).sort();

describe('writeWithinQuota', () => {
  it('deletes the oldest files of the same account when the count would go over, never another account\'s', async () => {
    const quota = { maxBytes: 1_000_000, maxFiles: 3 };
    await writeWithinQuota(root, 2, quota, 'alert-9_target-9_start_20261101-000000.pp2', writer(10, 5000));
    for (const [i, age] of [400, 300, 200].entries()) await writeWithinQuota(root, 1, quota, `alert-1_target-1_holds_2026110${i + 1}-000000.pp2`, writer(10, age));
    const r = await writeWithinQuota(root, 1, quota, 'alert-1_target-1_holds_20261104-000000.pp2', writer(10));
    expect(r.relative).toBe('account-1/alert-1_target-1_holds_20261104-000000.pp2');
    expect(r.pruned).toEqual(['account-1/alert-1_target-1_holds_20261101-000000.pp2']);
    expect(names(1)).toEqual(['alert-1_target-1_holds_20261102-000000.pp2', 'alert-1_target-1_holds_20261103-000000.pp2', 'alert-1_target-1_holds_20261104-000000.pp2']);
    // Account 2's file is the oldest of all, and stays.
    expect(names(2)).toEqual(['alert-9_target-9_start_20261101-000000.pp2']);
  });

  it('deletes the oldest files until the bytes fit, and counts only export files', async () => {
    const quota = { maxBytes: 100, maxFiles: 100 };
    await writeWithinQuota(root, 1, quota, 'alert-1_target-1_start_a.pp2', writer(40, 300));
    await writeWithinQuota(root, 1, quota, 'alert-1_target-1_start_b.pp2', writer(40, 200));
    writeFileSync(join(root, 'account-1', 'notes.txt'), Buffer.alloc(500));
    const r = await writeWithinQuota(root, 1, quota, 'alert-1_target-1_start_c.pp2', writer(50));
    expect(r.pruned).toEqual(['account-1/alert-1_target-1_start_a.pp2']);
    expect(names(1)).toEqual(['alert-1_target-1_start_b.pp2', 'alert-1_target-1_start_c.pp2', 'notes.txt']);
    expect(await exportUse(root, 1)).toEqual({ files: 2, bytes: 90 });
    expect(await exportUse(root, 7)).toEqual({ files: 0, bytes: 0 });
  });

  it('refuses a file larger than the whole quota and keeps the older ones', async () => {
    const quota = { maxBytes: 100, maxFiles: 10 };
    await writeWithinQuota(root, 1, quota, 'alert-1_target-1_start_a.pp2', writer(60, 100));
    await expect(writeWithinQuota(root, 1, quota, 'alert-1_target-1_start_b.pp2', writer(150))).rejects.toBeInstanceOf(ExportTooLarge);
    expect(names(1)).toEqual(['alert-1_target-1_start_a.pp2']);
  });

  it('leaves no partial file when the write fails', async () => {
    const quota = { maxBytes: 100, maxFiles: 10 };
    const failing = async (path: string) => {
      writeFileSync(path, 'half');
      throw new Error('disk full');
    };
    await expect(writeWithinQuota(root, 1, quota, 'alert-1_target-1_start_a.pp2', failing)).rejects.toThrow('disk full');
    expect(names(1)).toEqual([]);
  });

  it('makes folders 0700 and files 0600, whatever the umask', async () => {
    const old = process.umask(0o022);
    try {
      await writeWithinQuota(root, 1, { maxBytes: 100, maxFiles: 10 }, 'alert-1_target-1_start_a.pp2', writer(10));
    } finally {
      process.umask(old);
    }
    expect(statSync(join(root, 'account-1')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'account-1', 'alert-1_target-1_start_a.pp2')).mode & 0o777).toBe(0o600);
  });

  it('keeps the count when two exports of one account run at once', async () => {
    const quota = { maxBytes: 1_000_000, maxFiles: 2 };
    await Promise.all([1, 2, 3, 4].map((i) => writeWithinQuota(root, 1, quota, `alert-1_target-${i}_start_a.pp2`, writer(10))));
    expect(names(1)).toHaveLength(2);
  });
});

describe('what users are shown', () => {
  it('names files relative to the export folder', () => {
    expect(withoutExportDir(`Could not write ${root}/account-1/x.pp2: ENOTDIR: not a directory, mkdir '${root}'`, root)).toBe(
      "Could not write account-1/x.pp2: ENOTDIR: not a directory, mkdir 'the export folder'",
    );
  });
});

describe('the minimum repeat of one alert\'s exports', () => {
  it('holds back a second file of the same alert and target within ExportMinRepeatSeconds', () => {
    const t = 1_000_000_000;
    noteExported(root, 5, 7, t);
    expect(exportedRecently(root, 5, 7, t + 1000)).toBe(1);
    expect(exportedRecently(root, 5, 8, t + 1000)).toBeUndefined();
    expect(exportedRecently(root, 6, 7, t + 1000)).toBeUndefined();
    expect(exportedRecently(root, 5, 7, t + ExportMinRepeatSeconds * 1000)).toBeUndefined();
    // Send test (alert 0) is never held back.
    noteExported(root, 0, 7, t);
    expect(exportedRecently(root, 0, 7, t + 1000)).toBeUndefined();
  });
});
