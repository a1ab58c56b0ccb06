// The server keys (server-keys.ts, issue 42 item 1) on the matrix's backend. DuckDB: unchanged,
// the data directory's key files (an existing one keeps sealing and opening what it sealed:
// nobody's LiveShare link or agent setup link breaks by an upgrade). PostgreSQL: rows of
// server_keys, the same for two stores opened together on one database, adopted from a data
// directory's key file when it has one (an appliance moved from DuckDB).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PasswordSeal } from '../liveshare/secrets.js';
import { Store } from './db.js';
import { newKeyText, ServerKeyNames } from './server-keys.js';
import { openTestStore, testDatabaseUrl, testStore } from './testing/test-store.js';

const dirs: string[] = [];
const stores: Store[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hopwatch-keys-'));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.runIf(testStore() === 'duckdb')('server keys on DuckDB', () => {
  it('stay files of the data directory: an existing key keeps opening what it sealed', async () => {
    const dir = dataDir();
    const before = PasswordSeal.forDataDir(dir);
    const sealed = before.seal('link-pw');
    const store = await openTestStore(dir);
    stores.push(store);
    expect(store.keys).toBeUndefined();
    expect(PasswordSeal.forStore(store).open(sealed)).toBe('link-pw');
    expect(PasswordSeal.forStore(store, 'agent-setup.key').open(PasswordSeal.forDataDir(dir, 'agent-setup.key').seal('k'))).toBe('k');
    expect(readdirSync(dir).filter((f) => f.endsWith('.key')).sort()).toEqual(['agent-setup.key', 'liveshare.key']);
  });
});

describe.runIf(testStore() === 'postgres')('server keys on PostgreSQL', () => {
  it('are made once in the database: two stores opened together on it seal and open alike, and write no file', async () => {
    const url = await testDatabaseUrl(dataDir());
    const [dirA, dirB] = [dataDir(), dataDir()];
    const [a, b] = await Promise.all([Store.open(dirA, { databaseUrl: url }), Store.open(dirB, { databaseUrl: url })]);
    stores.push(a, b);
    for (const name of ServerKeyNames) {
      expect(a.keys?.get(name), name).toBeTruthy();
      expect(b.keys?.get(name), name).toBe(a.keys?.get(name));
      expect(PasswordSeal.forStore(b, name).open(PasswordSeal.forStore(a, name).seal(`secret of ${name}`))).toBe(`secret of ${name}`);
    }
    expect(new Set(ServerKeyNames.map((n) => a.keys?.get(n))).size).toBe(ServerKeyNames.length);
    expect([...readdirSync(dirA), ...readdirSync(dirB)].filter((f) => f.endsWith('.key'))).toEqual([]);
    expect(Number((await a.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM server_keys'))!.n)).toBe(ServerKeyNames.length);
  });

  it("take a data directory's key file when the database has none yet (moved from DuckDB), and keep the database's after", async () => {
    const dir = dataDir();
    const fileKey = newKeyText();
    writeFileSync(join(dir, 'liveshare.key'), fileKey, { mode: 0o600 });
    const sealedOnDuckDb = PasswordSeal.forDataDir(dir).seal('smtp-pw');
    const url = await testDatabaseUrl(dataDir());
    const store = await Store.open(dir, { databaseUrl: url });
    stores.push(store);
    expect(store.keys?.get('liveshare.key')).toBe(fileKey);
    expect(PasswordSeal.forStore(store).open(sealedOnDuckDb)).toBe('smtp-pw');
    // Another replica with another file: the database's key wins.
    const other = dataDir();
    writeFileSync(join(other, 'liveshare.key'), newKeyText(), { mode: 0o600 });
    const second = await Store.open(other, { databaseUrl: url });
    stores.push(second);
    expect(second.keys?.get('liveshare.key')).toBe(fileKey);
  });
});
