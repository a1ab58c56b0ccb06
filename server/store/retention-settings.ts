// The retention days in force: a HOPWATCH_RETENTION_* variable if set (server/config.ts),
// else the value stored in storage_settings (where the Settings > General editor will write
// it: names below, values whole days as text), else the default.
import type { Queryable } from './db.js';
import { DefaultRetention, type RetentionDays } from './retention.js';

export const RetentionSettingNames = { rawDays: 'RetentionRawDays', minuteDays: 'RetentionMinuteDays' } as const;

export interface RetentionOverrides {
  retentionRawDays: number | undefined;
  retentionMinuteDays: number | undefined;
}

export async function retentionDays(q: Queryable, env: RetentionOverrides): Promise<RetentionDays> {
  const rows = await q.all<{ name: string; value: string }>('SELECT name, value FROM storage_settings');
  const stored = (name: string) => {
    const n = Number(rows.find((r) => r.name === name)?.value);
    return Number.isInteger(n) && n >= 1 ? n : undefined;
  };
  return {
    rawDays: env.retentionRawDays ?? stored(RetentionSettingNames.rawDays) ?? DefaultRetention.rawDays,
    minuteDays: env.retentionMinuteDays ?? stored(RetentionSettingNames.minuteDays) ?? DefaultRetention.minuteDays,
  };
}

/** Stores a setting (for the settings editor, and tests). */
export async function storeRetentionDays(q: Queryable, days: Partial<RetentionDays>): Promise<void> {
  for (const [key, name] of Object.entries(RetentionSettingNames) as [keyof RetentionDays, string][]) {
    const v = days[key];
    if (v === undefined) continue;
    await q.run('INSERT INTO storage_settings VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at', [name, String(v), Date.now()]);
  }
}
