// Where the alerts' export action writes, and how much (issue 39 item 7; docs/alerts.md
// "Export quota"). Each account's files live in a folder of its own, `account-<id>/` under the
// export directory: the file system itself says whose a file is, so this survives restarts,
// a restored database and files an operator deleted by hand, with nothing to keep in step. A
// quota of files and bytes per account is kept by deleting that account's oldest exports
// when a new one would go over it; other accounts' files are never looked at. Folders are
// 0700 and files 0600 (only the server's user reads them), and what users are shown names a
// file relative to the export directory, never the server's own path.
import { chmod, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { DataFileExtension } from '../datafiles/format.js';

/**
 * The shortest MinRepeatSeconds of an alert with an export action: every repeat writes a file
 * of up to MaxSamples samples, so `holds` at every sample would churn the disk (10 files in
 * 12 s were seen). Five minutes is also the alerts' default repeat.
 */
export const ExportMinRepeatSeconds = 300;

export interface ExportQuota {
  maxBytes: number;
  maxFiles: number;
}

export const accountFolder = (accountId: number) => `account-${accountId}`;

/** The files the export action writes: anything else an operator puts there is neither counted nor deleted. */
const isExport = (name: string) => name.startsWith('alert-') && name.endsWith(DataFileExtension);

interface ExportFile {
  name: string;
  bytes: number;
  mtimeMs: number;
}

/** An account's exports, oldest first (by modification time, then name); none when its folder is missing. */
async function exportsIn(dir: string): Promise<ExportFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && isExport(e.name)).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const files: ExportFile[] = [];
  for (const name of names) {
    const s = await stat(join(dir, name)).catch(() => undefined);
    if (s) files.push({ name, bytes: s.size, mtimeMs: s.mtimeMs });
  }
  return files.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What an account's exports hold now (Settings > General states it beside the quota). */
export async function exportUse(root: string, accountId: number): Promise<{ files: number; bytes: number }> {
  const files = await exportsIn(join(root, accountFolder(accountId)));
  return { files: files.length, bytes: files.reduce((n, f) => n + f.bytes, 0) };
}

/** A single file larger than the whole quota: retrying will not make it fit. */
export class ExportTooLarge extends Error {}

/** The text with the export directory's own path replaced: users see paths relative to it. */
export function withoutExportDir(text: string, root: string): string {
  return text.split(`${root}/`).join('').split(root).join('the export folder');
}

/** One write at a time per account folder, so two exports cannot both count the same room. */
const lanes = new Map<string, Promise<unknown>>();

function inLane<T>(key: string, work: () => Promise<T>): Promise<T> {
  const run = (lanes.get(key) ?? Promise.resolve()).then(work, work);
  const settled = run.catch(() => undefined);
  lanes.set(key, settled);
  void settled.then(() => lanes.get(key) === settled && lanes.delete(key));
  return run;
}

export interface WrittenExport<T> {
  result: T;
  /** "account-3/alert-12_target-34_start_20261125-021500.pp2": relative to the export directory. */
  relative: string;
  /** The older exports of the account deleted to make room (relative names). */
  pruned: string[];
}

/**
 * Writes one export of the account through `write` (given the absolute path) within its quota:
 * makes room for one more file first, then deletes the account's oldest until the bytes fit
 * too. A file that alone exceeds the byte quota is deleted again and ExportTooLarge thrown; a
 * write that fails leaves no partial file behind.
 */
export function writeWithinQuota<T>(root: string, accountId: number, quota: ExportQuota, fileName: string, write: (path: string) => Promise<T>): Promise<WrittenExport<T>> {
  const folder = accountFolder(accountId);
  const dir = join(root, folder);
  return inLane(dir, async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // A folder made by an older version (or under another umask) is closed too.
    await chmod(dir, 0o700);
    const path = join(dir, fileName);
    const pruned: string[] = [];
    const remove = async (f: ExportFile) => {
      await unlink(join(dir, f.name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      pruned.push(posix.join(folder, f.name));
    };
    // A file of the same name is replaced, not counted.
    const others = (await exportsIn(dir)).filter((f) => f.name !== fileName);
    while (others.length >= quota.maxFiles) await remove(others.shift()!);
    let result: T;
    try {
      result = await write(path);
      await chmod(path, 0o600);
    } catch (err) {
      await unlink(path).catch(() => undefined);
      throw err;
    }
    const bytes = (await stat(path)).size;
    if (bytes > quota.maxBytes) {
      await unlink(path);
      throw new ExportTooLarge(`The data file (${mb(bytes)}) is larger than the account's whole export quota (${mb(quota.maxBytes)}): lower the action's MaxSamples.`);
    }
    let total = bytes + others.reduce((n, f) => n + f.bytes, 0);
    while (total > quota.maxBytes && others.length) {
      const oldest = others.shift()!;
      await remove(oldest);
      total -= oldest.bytes;
    }
    return { result, relative: posix.join(folder, fileName), pruned };
  });
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** Settings > General's line about the quota (no path: it is the operator's). */
export function quotaText(quota: ExportQuota, use: { files: number; bytes: number }): string {
  return (
    `Alert exports: each account keeps at most ${quota.maxFiles} files and ${Math.round(quota.maxBytes / 1024 / 1024)} MB of data files written by alerts; ` +
    `a new one that would go over deletes this account's oldest. This account has ${use.files} (${mb(use.bytes)}). ` +
    `An alert with an export action repeats at most every ${ExportMinRepeatSeconds} s.`
  );
}

/** When each alert last exported each target (in this process): flapping starts and ends write at most one file per ExportMinRepeatSeconds. */
const lastWritten = new Map<string, number>();

/** Seconds since this alert last wrote this target's file, when that is under ExportMinRepeatSeconds (Send test, alert 0, is never held back). */
export function exportedRecently(root: string, alertId: number, sessionId: number, now: number): number | undefined {
  if (!alertId) return undefined;
  const at = lastWritten.get(`${root}\n${alertId}\n${sessionId}`);
  return at !== undefined && now - at < ExportMinRepeatSeconds * 1000 && now >= at ? Math.floor((now - at) / 1000) : undefined;
}

export function noteExported(root: string, alertId: number, sessionId: number, now: number): void {
  if (!alertId) return;
  if (lastWritten.size > 100_000) lastWritten.clear();
  lastWritten.set(`${root}\n${alertId}\n${sessionId}`, now);
}
