// Disk use a user can see (GET /api/settings/storage; docs/store.md "Disk use"), and the
// volume thresholds the server acts on and the console warns at: declared once for both.

/** The data volume this full (percent) gives a log line and a warning toast in the console. */
export const StorageWarnPercent = 90;
/** This full, ingest pauses with an error until space is freed (below StorageResumePercent). */
export const StoragePausePercent = 98;
export const StorageResumePercent = 97;

export interface StorageUse {
  /** The database file on disk (its free blocks included; not the WAL). */
  DatabaseBytes: number;
  /** Bytes of the database's blocks in use; the rest of the file is free blocks DuckDB reuses. */
  UsedBytes: number;
  WalBytes: number;
  SampleCount: number;
  RollupRowCount: number;
  /** Used bytes (and the WAL's) per stored hop sample, rollups and everything else included; null without samples. */
  BytesPerSample: number | null;
  VolumeFreeBytes: number;
  VolumeTotalBytes: number;
  VolumeUsedPercent: number;
  /** Hop samples stored in the last 24 hours. */
  SamplesPerDay: number;
  RetentionRawDays: number;
  RetentionMinuteDays: number;
  /** Days the volume's free space lasts at the current rate (raw samples that do not expire yet); null when nothing comes in. */
  DaysUntilFull: number | null;
  /** Days of raw samples the database and the free space together could hold at the current rate; null when nothing comes in. */
  RawDaysThatFit: number | null;
}
