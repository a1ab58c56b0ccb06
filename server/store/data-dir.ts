// The data directory's file modes (issue 39 item 12). It holds the database (password hashes,
// sealed secrets, every measurement), its WAL, the key files that unseal the secrets, the
// alert outbox and exports. Under the usual umask 022 they were 0644 in a 0755 directory:
// readable by every local user. The server runs with umask 077 (main.ts: DuckDB creates the
// database and its WAL itself, so a mode given at creation cannot reach them), makes the
// directory 0700 and tightens what an earlier release left open, saying so once at start.
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The server process's umask: files it creates are 0600, directories 0700. */
export const ServerUmask = 0o077;
export const DataDirMode = 0o700;
export const DataFileMode = 0o600;

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;
const readableByOthers = (mode: number) => (mode & 0o077) !== 0;

/**
 * Makes the data directory (0700) or tightens an existing one, and its files directly inside
 * (the database, WAL, key files) to 0600. The directory alone already keeps others out of
 * everything below it. A directory the server does not own (a volume mounted with a group of
 * its own) cannot be changed: that is said, and the start goes on.
 */
export function secureDataDir(dir: string, log: (line: string) => void): void {
  mkdirSync(dir, { recursive: true, mode: DataDirMode });
  const mode = statSync(dir).mode;
  if (readableByOthers(mode)) {
    try {
      chmodSync(dir, DataDirMode);
      log(`The data directory ${dir} was ${octal(mode)}: now ${octal(DataDirMode)} (its owner only).`);
    } catch (err) {
      log(`The data directory ${dir} is ${octal(mode)} and could not be made ${octal(DataDirMode)} (${(err as NodeJS.ErrnoException).code}): other local users may read it.`);
    }
  }
  let tightened = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(dir, entry.name);
    if (!readableByOthers(statSync(path).mode)) continue;
    try {
      chmodSync(path, DataFileMode);
      tightened++;
    } catch (err) {
      log(`${path} could not be made ${octal(DataFileMode)} (${(err as NodeJS.ErrnoException).code}).`);
    }
  }
  if (tightened) log(`${tightened} file${tightened === 1 ? ' in the data directory was' : 's in the data directory were'} readable by others: now ${octal(DataFileMode)}.`);
}
