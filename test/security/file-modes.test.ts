// Issue 39 item 12 (file modes): the data directory holds the database (password hashes,
// sealed secrets, every measurement), its WAL and the key files. Under the usual umask 022
// they were 0644 in a 0755 directory: readable by every local user. The server now makes the
// directory 0700 (an existing one is tightened at start, with a log line) and its files 0600,
// whatever umask it was started with. On PostgreSQL (the test matrix) the data directory holds
// neither the database nor the key files (docs/store.md "What lives where"): the directory's own
// mode and that nothing in it is readable by others are what is checked there.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { caller, q } from './support.js';
import { testStore } from '../../server/store/testing/test-store.js';

const password = 'root-pw-file-modes';
const modeOf = (path: string) => statSync(path).mode & 0o777;
/** DuckDB's database file and the key file are in the data directory (not on PostgreSQL). */
const duckdb = testStore() === 'duckdb';

/** Every file and directory under `dir` with its mode, for a readable failure. */
function modesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) out[name] = modeOf(join(dir, name)).toString(8);
  return out;
}

let parent: string;
let previousUmask: number;
beforeAll(() => {
  // What a shell or a service manager usually starts the server with; the appliance inherits it.
  previousUmask = process.umask(0o022);
  parent = mkdtempSync(join(tmpdir(), 'hopwatch-modes-'));
});
afterAll(() => {
  process.umask(previousUmask);
  rmSync(parent, { recursive: true, force: true });
});

describe('file modes of the data directory (started under umask 022)', () => {
  let hw: Appliance | undefined;
  afterAll(async () => {
    await hw?.stop();
  });

  it('a fresh data directory is 0700; the database, its WAL and the key file 0600; nothing in it is readable by others', async () => {
    const dataDir = join(parent, 'fresh', 'data');
    hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: password, HOPWATCH_ENGINE: 'simulated' } });
    // Some writes: a sign-in, a trace, a summary shared by LiveShare (the key file is used).
    const call = caller(hw);
    const root = await signIn(hw.url, 'admin', password);
    expect((await call('/cmd/newtarget?target=127.0.0.1&traceInterval=1', root)).status).toBe(200);
    const summary = (await (await call(`/cmd/createsummary?name=${q('modes')}`, root)).json()) as { UniqueID: string };
    expect((await call('/api/liveshare', root, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summary.UniqueID}`, Description: 'modes' }) })).status).toBe(200);

    expect(modeOf(dataDir).toString(8)).toBe('700');
    if (duckdb) {
      expect(modeOf(join(dataDir, 'hopwatch.duckdb')).toString(8)).toBe('600');
      const wal = join(dataDir, 'hopwatch.duckdb.wal');
      expect(existsSync(wal)).toBe(true);
      expect(modeOf(wal).toString(8)).toBe('600');
      expect(modeOf(join(dataDir, 'liveshare.key')).toString(8)).toBe('600');
    } else {
      expect(readdirSync(dataDir).filter((f) => f.endsWith('.key') || f.startsWith('hopwatch.duckdb'))).toEqual([]);
    }
    const open = Object.entries(modesUnder(dataDir)).filter(([, m]) => (Number.parseInt(m, 8) & 0o077) !== 0);
    expect(open).toEqual([]);
  });

  it('the data directory of an earlier release (0755, its database and key file 0644) is tightened at start, with a log line', async () => {
    const dataDir = hw!.dataDir;
    await hw!.stop();
    // As an earlier release left them under umask 022.
    chmodSync(dataDir, 0o755);
    // PostgreSQL: a key file an earlier DuckDB appliance left (its key is then the database's).
    const files = duckdb ? ['hopwatch.duckdb', 'liveshare.key'] : ['liveshare.key'];
    if (!duckdb) writeFileSync(join(dataDir, 'liveshare.key'), randomBytes(32).toString('base64'));
    for (const name of files) chmodSync(join(dataDir, name), 0o644);
    hw = await hw!.restart();
    expect(modeOf(dataDir).toString(8)).toBe('700');
    for (const name of files) expect(modeOf(join(dataDir, name)).toString(8), name).toBe('600');
    expect(hw.output()).toMatch(/data directory .* was 0755: now 0700/);
    expect(hw.output()).toMatch(duckdb ? /2 files in the data directory were readable by others: now 0600/ : /1 file in the data directory was readable by others: now 0600/);
  });
});
