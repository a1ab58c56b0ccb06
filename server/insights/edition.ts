// Whether this server shows Insights: HOPWATCH_INSIGHTS if set, else the stored setting
// Settings > General > Insights (storage_settings row "Insights", "true"/"false", where the
// settings editor will write it, like the retention days), else the edition's default
// (spec 3: the cloud edition shows Insights; self-hosted has them off), and on under the
// Sidekick licence, whose Troubleshoot runs Insights on its five targets (docs/sidekick.md).
import type { Config } from '../config.js';
import { DeploymentMode, LicenseMode } from '../contract/account.js';
import type { Queryable } from '../store/db.js';

export const InsightsSettingName = 'Insights';

export async function insightsEnabled(q: Queryable, config: Pick<Config, 'insights' | 'deployment' | 'licenseMode'>): Promise<boolean> {
  if (config.insights !== undefined) return config.insights;
  const row = await q.one<{ value: string }>('SELECT value FROM storage_settings WHERE name = $1', [InsightsSettingName]);
  if (row?.value === 'true') return true;
  if (row?.value === 'false') return false;
  return config.deployment === DeploymentMode.Cloud || config.licenseMode === LicenseMode.Sidekick;
}

/** Stores the setting (for the settings editor, and tests). */
export async function storeInsightsSetting(q: Queryable, on: boolean): Promise<void> {
  await q.run('INSERT INTO storage_settings VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at', [InsightsSettingName, String(on), Date.now()]);
}
