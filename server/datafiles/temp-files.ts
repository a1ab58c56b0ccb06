// Data files are written and uploads kept beside the database (HOPWATCH_DATA_DIR/tmp), not in
// the system's /tmp: a container's /tmp may be a small in-memory file system, and a data file
// is as large as the history it holds. Each gets its own directory, removed when done.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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

/** At start: what a stop left behind. */
export function clearTempFiles(dataDir: string): void {
  rmSync(join(dataDir, 'tmp'), { recursive: true, force: true });
}

/** A path written into SQL text as a string literal (COPY and the Parquet functions take no parameters). */
export function sqlPath(path: string): string {
  return `'${path.replace(/'/g, "''")}'`;
}
