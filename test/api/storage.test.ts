// GET /api/settings/storage over real HTTP: disk use for Settings > General, for users with
// SettingsManagement (docs/api.md "Storage").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';

let hw: Appliance;
let admin: string;
let plain: string;
const get = (cookie?: string) => fetch(`${hw.url}/api/settings/storage`, { headers: cookie ? { cookie } : {} });

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'storage-pw', HOPWATCH_RETENTION_RAW_DAYS: '9' } });
  admin = await signIn(hw.url, 'admin', 'storage-pw');
  await createWebUser(hw.url, admin, { email: 'st@example.org', password: 'plain-pw' });
  plain = await signIn(hw.url, 'st@example.org', 'plain-pw');
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

describe('GET /api/settings/storage', () => {
  it('gives the database size, the volume and the retention in force', async () => {
    const r = await get(admin);
    const body = await r.json();
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(body.DatabaseBytes).toBeGreaterThan(0);
    expect(body.UsedBytes).toBeLessThanOrEqual(body.DatabaseBytes);
    expect(body.VolumeTotalBytes).toBeGreaterThan(body.VolumeFreeBytes);
    expect(body.VolumeUsedPercent).toBeGreaterThan(0);
    expect(body.VolumeUsedPercent).toBeLessThan(100);
    expect(body).toMatchObject({ SampleCount: 0, BytesPerSample: null, DaysUntilFull: null, RetentionRawDays: 9, RetentionMinuteDays: 400 });
  });

  it('answers 401 without sign-in and 403 without SettingsManagement, with an Error body', async () => {
    const anonymous = await get();
    expect(anonymous.status).toBe(401);
    expect(typeof (await anonymous.json()).Error).toBe('string');
    const denied = await get(plain);
    expect(denied.status).toBe(403);
    expect((await denied.json()).Error).toMatch(/SettingsManagement/);
  });
});
