// A server killed right after its first start (every migration committed to the WAL, nothing
// checkpointed yet) must start again: DuckDB replays the WAL then. It could not replay an
// ALTER TABLE ADD COLUMN on a table with a nextval() default (migration 8 as first written),
// which left such a data directory unable to start ("Failure while replaying WAL file").
// Needs the build (dist/): the child process runs the compiled store.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from './db.js';
import { migrations } from './migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations replayed from the WAL', () => {
  it('a store killed after its migrations starts again with every migration and its tables', async () => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./testing/migrate-until-killed.mjs', import.meta.url)), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('MIGRATED')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the child ended first (${code})`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The migrations are in the WAL, not yet in the database file: what the next start replays.
    const wal = join(dir, 'hopwatch.duckdb.wal');
    expect(existsSync(wal) && statSync(wal).size > 0).toBe(true);

    const store = await Store.open(dir);
    try {
      const applied = await store.all<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(applied.map((r) => Number(r.id))).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
      // The table migration 8 made again keeps the Default configuration and its id sequence.
      const configs = await store.all<{ id: number; name: string; account_id: number }>('SELECT id, name, account_id FROM configurations ORDER BY id');
      expect(configs.map((c) => [Number(c.id), c.name])).toEqual([[1, 'Default']]);
      const added = await store.one<{ id: number }>(`INSERT INTO configurations (name, account_id) VALUES ('second', 1) RETURNING id`);
      expect(Number(added!.id)).toBe(2);
    } finally {
      await store.close();
    }
  }, 120_000);
});
