// Temporary files of data file downloads and uploads (temp-files.ts): a start removes what a
// stop left behind, but not what another process sharing the data directory is using now
// (replicas on one volume, compose.cluster.yaml; docs/store.md "What lives where").
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clearTempFiles, StaleTempMs, tempDir } from './temp-files.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('clearTempFiles', () => {
  it("removes a stop's leftovers and keeps what is in use", () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-temp-'));
    dirs.push(dataDir);
    const left = tempDir(dataDir);
    writeFileSync(left.file('export.pp2'), 'old');
    const old = (Date.now() - StaleTempMs - 60_000) / 1000;
    utimesSync(left.path, old, old);
    const inUse = tempDir(dataDir);
    writeFileSync(inUse.file('upload.pp2'), 'being written');
    clearTempFiles(dataDir);
    expect(existsSync(left.path)).toBe(false);
    expect(existsSync(inUse.file('upload.pp2'))).toBe(true);
  });

  it('does nothing where no temporary directory was made', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hopwatch-temp-'));
    dirs.push(dataDir);
    expect(() => clearTempFiles(dataDir)).not.toThrow();
  });
});
