// Settings > General, "Disk use": the database, bytes per sample, the data volume, and how
// long the retention tiers and the free space last at the current rate (docs/store.md).
import { formatBytes, storageLevel } from '../../shell/storageWarning';
import { freeSpaceDaysText as days } from '../logic/counts';
import { useStorageUse } from './useStorageUse';

export function StorageUsePanel() {
  const { use, error, refresh } = useStorageUse();
  return (
    <section className="settings-storage" aria-label="Disk use">
      <h3>
        Disk use{' '}
        <button type="button" className="button small" onClick={refresh}>
          Refresh
        </button>
      </h3>
      {error && <p className="error-text">{error}</p>}
      {!use && !error && <p>Loading…</p>}
      {use && (
        <dl className="settings-storage-figures">
          <dt>Database</dt>
          <dd>
            {formatBytes(use.DatabaseBytes)} ({formatBytes(use.UsedBytes)} in use, {formatBytes(use.WalBytes)} not yet checkpointed)
          </dd>
          <dt>Hop samples stored</dt>
          <dd>
            {use.SampleCount.toLocaleString()} raw, {use.RollupRowCount.toLocaleString()} rollup rows
            {use.BytesPerSample !== null && `; ${use.BytesPerSample} bytes per hop sample all in`}
          </dd>
          <dt>Data volume</dt>
          <dd className={`storage-${storageLevel(use.VolumeUsedPercent)}`}>
            {use.VolumeUsedPercent}% full, {formatBytes(use.VolumeFreeBytes)} free of {formatBytes(use.VolumeTotalBytes)}
          </dd>
          <dt>Current rate</dt>
          <dd>{use.SamplesPerDay.toLocaleString()} hop samples in the last 24 hours</dd>
          <dt>Retention</dt>
          <dd>
            raw samples {use.RetentionRawDays} days, 1-minute rollups {use.RetentionMinuteDays} days, 10-minute and 1-hour rollups kept
          </dd>
          <dt>Free space lasts</dt>
          <dd>{days(use.DaysUntilFull)}</dd>
          <dt>Raw days that fit</dt>
          <dd>{days(use.RawDaysThatFit)}</dd>
        </dl>
      )}
    </section>
  );
}
