// migrate-store's source: an embedded appliance's DuckDB file, opened for reading only. DuckDB
// lets one process write a file and nobody else open it meanwhile, so a running appliance is
// refused here, with what to do (docs/deploy.md "Moving an appliance onto PostgreSQL": stop
// it, copy, start it on PostgreSQL); while the copy reads, the appliance cannot start on the
// file either, so what is copied is one consistent state.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckStore } from '../db.js';
import { migrations } from '../migrations.js';
import { MigrateError } from './errors.js';

/** Where a running appliance's lock shows in DuckDB's refusal. */
const LockHeld = /Could not set lock on file .*Conflicting lock is held in (.*?) \(PID (\d+)\)/s;

/** Opens the data directory's DuckDB file read-only; a file of an older release is migrated first, as that release's next start would. */
export async function openSource(dataDir: string, say: (line: string) => void): Promise<DuckStore> {
  const file = join(dataDir, 'hopwatch.duckdb');
  if (!existsSync(file)) throw new MigrateError('migrate-store', `there is no embedded store at ${file} (--from names the appliance's data directory, HOPWATCH_DATA_DIR)`);
  // A clean stop empties the alert outbox journal (server/alerts/outbox.ts); segments left
  // mean a crash, and entries the DuckDB store may not hold yet: the next start replays them.
  const journal = join(dataDir, 'alerts-outbox');
  const segments = existsSync(journal) ? readdirSync(journal).filter((f) => /^outbox-\d+\.jsonl$/.test(f)) : [];
  if (segments.length)
    throw new MigrateError(
      'migrate-store',
      `the appliance did not stop cleanly: its alert outbox journal (${journal}) holds notifications the DuckDB store may not have yet: start the appliance once and stop it (it replays them), then run migrate-store again`,
    );
  const open = async () => {
    try {
      return await DuckStore.openReadOnly(dataDir);
    } catch (err) {
      const m = LockHeld.exec((err as Error).message);
      if (m)
        throw new MigrateError(
          'migrate-store',
          `the appliance is running (process ${m[2]} holds ${file}): stop it (systemctl stop hopwatch, docker compose stop hopwatch, or scale the deployment to 0), run migrate-store again, then start the appliance with HOPWATCH_DATABASE_URL`,
        );
      throw new MigrateError('opening the DuckDB store', (err as Error).message);
    }
  };
  let store = await open();
  const latest = migrations.at(-1)!.id;
  const at = Number((await store.one<{ id: number }>('SELECT max(id) AS id FROM schema_migrations'))?.id ?? 0);
  if (at > latest) {
    await store.close();
    throw new MigrateError('migrate-store', `the DuckDB store is at migration ${at}, newer than this release (${latest}): run the release that wrote it`);
  }
  if (at < latest) {
    // The file is an older release's: migrated as the current release's start would, then copied.
    await store.close();
    say(`migrate-store: the DuckDB store is at migration ${at}; migrating it to ${latest} first (as this release's start would)`);
    const rw = await DuckStore.open(dataDir, { migrations: { log: say } }).catch((err: Error) => {
      throw new MigrateError('migrating the DuckDB store', err.message);
    });
    await rw.close();
    store = await open();
  }
  return store;
}

/**
 * The source's bytes: the DuckDB file's blocks in use and its WAL (the MB of the progress and
 * of the rate). Not the file's size: DuckDB reuses freed blocks but never shrinks the file, so
 * an appliance that expired old days holds empty space a copy does not move.
 */
export async function sourceBytes(store: DuckStore, dataDir: string): Promise<number> {
  const wal = join(dataDir, 'hopwatch.duckdb.wal');
  const used = await store.one<{ b: number }>('SELECT (used_blocks * block_size)::DOUBLE AS b FROM pragma_database_size()');
  return Number(used?.b ?? 0) + (existsSync(wal) ? statSync(wal).size : 0);
}

/**
 * Which appliance this is: its accounts' ids and creation times (microseconds; never changed
 * once written). A target that holds another appliance's copy is refused by it.
 */
export async function applianceOf(store: DuckStore): Promise<string> {
  const rows = await store.all<{ id: number; at: string }>(`SELECT id, created_at::VARCHAR AS at FROM accounts ORDER BY id`);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex').slice(0, 32);
}
