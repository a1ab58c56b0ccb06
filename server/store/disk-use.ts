// Disk use a user can see (GET /api/settings/storage, docs/api.md): the database's size, the
// bytes a hop sample takes, the free space of the data volume, and how long the space lasts at
// the current rate. Free space comes through a seam (`volume`) so tests need no full disk.
import { statfs, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Store } from './db.js';
import { dialectOf } from './dialect.js';
import { storedCounts } from './sample-tables.js';
import type { RetentionDays } from './retention.js';
import type { StorageUse } from '../contract/storage.js';

export type { StorageUse };

export interface VolumeSpace {
  freeBytes: number;
  totalBytes: number;
}

/** The free and total bytes of the volume holding `path` (what an unprivileged writer may use). */
export async function volumeOf(path: string): Promise<VolumeSpace> {
  const s = await statfs(path);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
}


const Day = 86_400_000;

export async function storageUse(store: Store, days: RetentionDays, volume: (path: string) => Promise<VolumeSpace> = volumeOf, now = Date.now()): Promise<StorageUse> {
  const postgres = dialectOf(store) === 'postgres';
  // DuckDB: the file's blocks in use and in all. PostgreSQL: every table of the store with its
  // indexes and TOAST, and the whole database (its WAL is the server's, not counted here).
  const db = await store.read(async (q) =>
    (await q.one<{ used: number; total: number }>(
      postgres
        ? `SELECT (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm', 'p'))::DOUBLE AS used,
                  pg_database_size(current_database())::DOUBLE AS total`
        : `SELECT used_blocks * block_size AS used, total_blocks * block_size AS total FROM pragma_database_size() WHERE database_name = current_database()`,
    ))!,
  );
  const counts = await storedCounts(store, now - Day);
  const size = (path: string) => stat(path).then((s) => s.size, () => 0);
  const file = postgres ? 0 : await size(store.path);
  const wal = postgres ? 0 : await size(`${store.path}.wal`);
  const v = await volume(dirname(store.path));
  // What is not checkpointed yet is in the WAL: counted, so a young database is not 0 bytes.
  const perSample = counts.samples ? (db.used + wal) / counts.samples : null;
  const perDay = perSample && counts.recent ? perSample * counts.recent : 0;
  return {
    DatabaseBytes: Math.max(file, db.total),
    UsedBytes: db.used,
    WalBytes: wal,
    SampleCount: counts.samples,
    RollupRowCount: counts.rollups,
    BytesPerSample: perSample === null ? null : Math.round(perSample * 100) / 100,
    VolumeFreeBytes: v.freeBytes,
    VolumeTotalBytes: v.totalBytes,
    VolumeUsedPercent: v.totalBytes ? Math.round((1 - v.freeBytes / v.totalBytes) * 1000) / 10 : 0,
    SamplesPerDay: counts.recent,
    RetentionRawDays: days.rawDays,
    RetentionMinuteDays: days.minuteDays,
    DaysUntilFull: perDay ? Math.round((v.freeBytes / perDay) * 10) / 10 : null,
    RawDaysThatFit: perDay ? Math.round(((v.freeBytes + db.used) / perDay) * 10) / 10 : null,
  };
}
