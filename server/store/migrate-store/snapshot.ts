// migrate-store from a RUNNING appliance (docs/deploy.md "Moving an appliance onto PostgreSQL"):
// DuckDB lets no other process open the file the appliance holds, so the command asks the
// appliance for a consistent copy of it. The request is a file in the data directory, not a
// signal: the command often runs in another container on the same volume (`docker run --rm -v
// hopwatch-data:/data <image> migrate-store`), where the PID in DuckDB's lock is another
// namespace's (a signal would reach the wrong process, or none), and a file needs no right
// to signal the appliance's user. The appliance looks for it every second (cheap: one stat).
//
//   command:   writes migrate-snapshot.request, waits
//   appliance: takes the request (removes it), writes migrate-snapshot.duckdb.partial through
//              its own store (DuckStore.snapshotTo), renames it to migrate-snapshot.duckdb (the
//              command never reads half a file), or writes migrate-snapshot.error
//   command:   copies from migrate-snapshot.duckdb, removes it when done
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckStore } from '../db.js';
import { MigrateError } from './errors.js';

export const SnapshotName = 'migrate-snapshot.duckdb';

/** The files of one request, in the data directory. */
export function snapshotFiles(dataDir: string) {
  const snapshot = join(dataDir, SnapshotName);
  return { request: join(dataDir, 'migrate-snapshot.request'), partial: `${snapshot}.partial`, snapshot, error: join(dataDir, 'migrate-snapshot.error') };
}

/** Removes whatever an earlier request left (a snapshot, its WAL, a partial one, an error). */
export function removeSnapshot(dataDir: string): void {
  const f = snapshotFiles(dataDir);
  for (const p of [f.request, f.partial, `${f.partial}.wal`, f.snapshot, `${f.snapshot}.wal`, f.error]) rmSync(p, { force: true });
}

/** How often the appliance looks for a request (ms). */
export const SnapshotPollMs = 1000;

/**
 * The appliance's side: looks for a request every `everyMs` and answers it, one at a time.
 * Returns a function that stops looking (the server's shutdown).
 */
export function answerSnapshotRequests(store: DuckStore, dataDir: string, log: (line: string) => void, everyMs = SnapshotPollMs): () => void {
  const f = snapshotFiles(dataDir);
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !existsSync(f.request)) return;
    busy = true;
    void (async () => {
      const started = performance.now();
      try {
        rmSync(f.request, { force: true });
        for (const p of [f.partial, `${f.partial}.wal`, f.snapshot, f.error]) rmSync(p, { force: true });
        const { takenAt } = await store.snapshotTo(f.partial);
        renameSync(f.partial, f.snapshot);
        log(`migrate-store snapshot: wrote ${f.snapshot} (as of ${new Date(takenAt).toISOString()}, ${(statSync(f.snapshot).size / 1e6).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      } catch (err) {
        rmSync(f.partial, { force: true });
        writeFileSync(f.error, (err as Error).message);
        log(`migrate-store snapshot: failed: ${(err as Error).message}`);
      } finally {
        busy = false;
      }
    })();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface SnapshotWait {
  /** How long the appliance has to take the request (ms): it looks every second. */
  answerMs?: number;
  /** How long the snapshot may take once taken (ms). */
  writeMs?: number;
  pollMs?: number;
}

/**
 * The command's side: asks the appliance that holds `file` (process `pid` by DuckDB's lock)
 * for a snapshot and waits for it; returns the snapshot's path.
 */
export async function requestSnapshot(dataDir: string, file: string, pid: string, say: (line: string) => void, o: SnapshotWait = {}): Promise<string> {
  const f = snapshotFiles(dataDir);
  const answerMs = o.answerMs ?? 30_000;
  const writeMs = o.writeMs ?? 3_600_000;
  const pollMs = o.pollMs ?? 200;
  removeSnapshot(dataDir);
  writeFileSync(f.request, JSON.stringify({ requestedAt: new Date().toISOString(), by: process.pid }));
  say(`migrate-store: the appliance is running (process ${pid} holds ${file}): waiting for the appliance's snapshot (${f.snapshot})`);
  const sleep = () => new Promise((r) => setTimeout(r, pollMs));
  const started = Date.now();
  while (existsSync(f.request)) {
    if (Date.now() - started > answerMs) {
      rmSync(f.request, { force: true });
      throw new MigrateError(
        'migrate-store',
        `the appliance is running (process ${pid} holds ${file}) and did not answer the request for a snapshot within ${Math.round(answerMs / 1000)} s ` +
          `(a release before migrate-store snapshots, or a process that does not see this data directory): stop it (systemctl stop hopwatch, docker compose stop hopwatch, ` +
          `or scale the deployment to 0), run migrate-store again, then start the appliance with HOPWATCH_DATABASE_URL`,
      );
    }
    await sleep();
  }
  const taken = Date.now();
  for (;;) {
    if (existsSync(f.snapshot)) return f.snapshot;
    if (existsSync(f.error)) {
      const why = readFileSync(f.error, 'utf8');
      rmSync(f.error, { force: true });
      throw new MigrateError("the appliance's snapshot", why);
    }
    if (Date.now() - taken > writeMs) throw new MigrateError("the appliance's snapshot", `not written within ${Math.round(writeMs / 1000)} s (the appliance's log says why)`);
    await sleep();
  }
}
