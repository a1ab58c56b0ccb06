// Data files are written and uploads kept beside the database (HOPWATCH_DATA_DIR/tmp), not in
// the system's /tmp: a container's /tmp may be a small in-memory file system, and a data file
// is as large as the history it holds. Each gets its own directory, removed when done.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  file(name: string): string;
  remove(): void;
}

export function tempDir(dataDir: string): TempDir {
  const root = join(dataDir, 'tmp');
  mkdirSync(root, { recursive: true });
  const path = mkdtempSync(join(root, 'datafile-'));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/**
 * Older than this, a temporary directory is left over (a file being written or uploaded has a
 * fresh modification time; one being streamed out is open, and stays readable once removed).
 */
export const StaleTempMs = 3_600_000;

/**
 * At start: what a stop left behind. Only what is older than StaleTempMs: replicas that share
 * one data directory (compose.cluster.yaml's /data) must not remove each other's files in use.
 */
export function clearTempFiles(dataDir: string, now = Date.now()): void {
  const root = join(dataDir, 'tmp');
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(root, name);
    const mtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    if (mtime !== undefined && mtime < now - StaleTempMs) rmSync(path, { recursive: true, force: true });
  }
}

/** A path written into SQL text as a string literal (COPY and the Parquet functions take no parameters). */
export function sqlPath(path: string): string {
  return `'${path.replace(/'/g, "''")}'`;
}
