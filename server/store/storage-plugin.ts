// GET /api/settings/storage: disk use (disk-use.ts) for Settings > General, where the
// retention days will be edited too (docs/store.md "Retention"). For SettingsManagement;
// appliance-wide (the whole database and volume), so in the hosted flavour the provider's alone.
import type { FastifyInstance } from 'fastify';
import { Claim } from '../contract/account.js';
import { requireUser } from '../account/authenticate.js';
import type { Store } from './db.js';
import { storageUse, volumeOf, type VolumeSpace } from './disk-use.js';
import { retentionDays, type RetentionOverrides } from './retention-settings.js';

const count = { type: 'number' };
const nullableCount = { type: ['number', 'null'] };
export const StorageUseSchema = {
  type: 'object',
  required: ['DatabaseBytes', 'UsedBytes', 'WalBytes', 'SampleCount', 'RollupRowCount', 'BytesPerSample', 'VolumeFreeBytes', 'VolumeTotalBytes', 'VolumeUsedPercent', 'SamplesPerDay', 'RetentionRawDays', 'RetentionMinuteDays', 'DaysUntilFull', 'RawDaysThatFit'],
  properties: {
    DatabaseBytes: count,
    UsedBytes: count,
    WalBytes: count,
    SampleCount: count,
    RollupRowCount: count,
    BytesPerSample: nullableCount,
    VolumeFreeBytes: count,
    VolumeTotalBytes: count,
    VolumeUsedPercent: count,
    SamplesPerDay: count,
    RetentionRawDays: count,
    RetentionMinuteDays: count,
    DaysUntilFull: nullableCount,
    RawDaysThatFit: nullableCount,
  },
} as const;

export default async function storagePlugin(app: FastifyInstance, opts: { store: Store; env: RetentionOverrides; volume?: (path: string) => Promise<VolumeSpace> }) {
  app.get(
    '/api/settings/storage',
    { config: { changesState: false, access: { claim: Claim.SettingsManagement, appliance: true } }, schema: { response: { 200: StorageUseSchema } } },
    async (request) => {
      // The declaration is checked before this runs (the hosted provider's staff make it without the claim).
      requireUser(request);
      return storageUse(opts.store, await opts.store.read((q) => retentionDays(q, opts.env)), opts.volume ?? volumeOf);
    },
  );
}
