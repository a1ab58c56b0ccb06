// migrate-store's source: an embedded appliance's DuckDB file, opened for reading only. DuckDB
// lets one process write a file and nobody else open it meanwhile: a running appliance is asked
// for a snapshot of its store (snapshot.ts), copied as one consistent state; a stopped one's
// file is copied as it is (while the copy reads, the appliance cannot start on the file either).
// docs/deploy.md "Moving an appliance onto PostgreSQL".
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckStore } from '../db.js';
import { migrations } from '../migrations.js';
import { MigrateError } from './errors.js';
import { SnapshotName, removeSnapshot, requestSnapshot, type SnapshotWait } from './snapshot.js';

/** Where a running appliance's lock shows in DuckDB's refusal. */
const LockHeld = /Could not set lock on file .*Conflicting lock is held in (.*?) \(PID (\d+)\)/s;

/** What the copy reads: the appliance's file, or (while it runs) the snapshot it wrote, and its time. */
export interface Source {
  store: DuckStore;
  /** The snapshot's time (ms) when the appliance was running; absent for the stopped appliance's own file. */
  snapshotAt?: number;
}

/**
 * Opens the data directory's DuckDB file read-only; a file of an older release is migrated first,
 * as that release's next start would. While the appliance runs (DuckDB's lock names its
 * process), asks it for a snapshot (snapshot.ts) and opens that instead.
 */
export async function openSource(dataDir: string, say: (line: string) => void, wait: SnapshotWait = {}): Promise<Source> {
  const file = join(dataDir, 'hopwatch.duckdb');
  if (!existsSync(file)) throw new MigrateError('migrate-store', `there is no embedded store at ${file} (--from names the appliance's data directory, HOPWATCH_DATA_DIR)`);
  const open = async (): Promise<DuckStore | { pid: string }> => {
    try {
      return await DuckStore.openReadOnly(dataDir);
    } catch (err) {
      const m = LockHeld.exec((err as Error).message);
      if (m) return { pid: m[2] };
      throw new MigrateError('opening the DuckDB store', (err as Error).message);
    }
  };
  let opened = await open();
  if (!(opened instanceof DuckStore)) return snapshotOf(dataDir, file, opened.pid, say, wait);
  // Stopped: a clean stop empties the alert outbox journal (server/alerts/outbox.ts); segments
  // left mean a crash, and entries the DuckDB store may not hold yet: the next start replays them.
  // (A running appliance's journal holds what it is delivering: its store has those rows.)
  const journal = join(dataDir, 'alerts-outbox');
  const segments = existsSync(journal) ? readdirSync(journal).filter((f) => /^outbox-\d+\.jsonl$/.test(f)) : [];
  if (segments.length) {
    await opened.close();
    throw new MigrateError(
      'migrate-store',
      `the appliance did not stop cleanly: its alert outbox journal (${journal}) holds notifications the DuckDB store may not have yet: start the appliance once and stop it (it replays them), then run migrate-store again`,
    );
  }
  let store = opened;
  const latest = migrations.at(-1)!.id;
  const at = await migrationOf(store);
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
    opened = await open();
    if (!(opened instanceof DuckStore)) return snapshotOf(dataDir, file, opened.pid, say, wait);
    store = opened;
  }
  return { store };
}

const migrationOf = async (store: DuckStore) => Number((await store.one<{ id: number }>('SELECT max(id) AS id FROM schema_migrations'))?.id ?? 0);

/** The running appliance's snapshot, opened read-only; it must be at this release's migration (the command cannot migrate a file the appliance holds). */
async function snapshotOf(dataDir: string, file: string, pid: string, say: (line: string) => void, wait: SnapshotWait): Promise<Source> {
  await requestSnapshot(dataDir, file, pid, say, wait);
  const store = await DuckStore.openReadOnly(dataDir, SnapshotName).catch((err: Error) => {
    throw new MigrateError("opening the appliance's snapshot", err.message);
  });
  const latest = migrations.at(-1)!.id;
  const at = await migrationOf(store);
  if (at !== latest) {
    await store.close();
    removeSnapshot(dataDir);
    throw new MigrateError(
      'migrate-store',
      `the running appliance's store is at migration ${at}, this command's release at ${latest}: run the command of the appliance's own release, or stop the appliance and run this one (it migrates the file first)`,
    );
  }
  const takenAt = Number((await store.one<{ t: number }>('SELECT taken_at AS t FROM migrate_snapshot'))!.t);
  say(`migrate-store: copying the appliance's snapshot of ${new Date(takenAt).toISOString()} while it runs`);
  return { store, snapshotAt: takenAt };
}

/**
 * The source's bytes: the DuckDB file's blocks in use and its WAL (the MB of the progress and
 * of the rate). Not the file's size: DuckDB reuses freed blocks but never shrinks the file, so
 * an appliance that expired old days holds empty space a copy does not move.
 */
export async function sourceBytes(store: DuckStore): Promise<number> {
  const wal = `${store.path}.wal`;
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
