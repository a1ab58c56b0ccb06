// When the console warns about the data volume (docs/store.md "Disk use"): once when it
// crosses the warning or the pause level, again only after it fell back below and crossed
// again, so a console left open does not repeat the toast at every look.
import { StoragePausePercent, StorageWarnPercent } from '../../../server/contract/storage';

export type StorageLevel = 'ok' | 'warn' | 'paused';

export function storageLevel(usedPercent: number): StorageLevel {
  if (usedPercent >= StoragePausePercent) return 'paused';
  if (usedPercent >= StorageWarnPercent) return 'warn';
  return 'ok';
}

const rank: Record<StorageLevel, number> = { ok: 0, warn: 1, paused: 2 };

/** The toast to show for a new look at the volume, given the level of the last one (none when not worse). */
export function storageToast(previous: StorageLevel, usedPercent: number, freeBytes: number): { level: StorageLevel; message?: string } {
  const level = storageLevel(usedPercent);
  if (rank[level] <= rank[previous]) return { level };
  const free = formatBytes(freeBytes);
  const message =
    level === 'paused'
      ? `The data volume is ${usedPercent}% full (${free} free): new samples are not being stored. Free space on it, or shorten the retention in Settings > General.`
      : `The data volume is ${usedPercent}% full (${free} free). Storing pauses at ${StoragePausePercent}%: free space, or shorten the retention in Settings > General.`;
  return { level, message };
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${Math.round(v)} bytes` : `${v.toFixed(v >= 100 ? 0 : 1)} ${units[u]}`;
}
