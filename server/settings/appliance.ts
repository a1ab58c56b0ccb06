// The appliance settings of Settings > General (issues 21, 25 and 40): Insights on/off, the
// retention days of raw samples and 1-minute rollups, the public URL (public-url.ts) and the
// support e-mail address (server/support/operator-address.ts).
// Unlike the rest of General they belong to the whole appliance, not to an account: they live
// in storage_settings (rows `Insights`, `RetentionRawDays`, `RetentionMinuteDays`, `PublicUrl`),
// where /api/app/config, the Insights calls, the daily expiry and the agents' setup links read them. An environment variable still wins over a stored value; the
// trait says so (OverriddenBy) and a save still stores the value, which takes effect once the
// variable is removed. Offered only on a self-hosted appliance (catalogue: selfHostedOnly).
import type { SettingValue } from '../contract/settings.js';
import type { Config } from '../config.js';
import { DeploymentMode } from '../contract/account.js';
import { insightsEnabled, storeInsightsSetting } from '../insights/edition.js';
import type { Queryable } from '../store/db.js';
import { retentionDays, storeRetentionDays } from '../store/retention-settings.js';
import { storedPublicUrl, storePublicUrl } from './public-url.js';
import { storedSupportEmail, storeSupportEmail } from '../support/operator-address.js';

export type ApplianceConfig = Pick<Config, 'deployment' | 'licenseMode' | 'insights' | 'retentionRawDays' | 'retentionMinuteDays'> & Partial<Pick<Config, 'publicUrl'>>;

/** The General settings stored for the whole appliance. */
export const ApplianceSettings = ['Insights', 'RetentionRawDays', 'RetentionMinuteDays', 'PublicUrl', 'SupportEmail'] as const;
export const isApplianceSetting = (name: string) => (ApplianceSettings as readonly string[]).includes(name);

/** The stored values (the defaults where none is stored), ignoring the environment: what the editor edits. */
export async function applianceValues(q: Queryable, config: Pick<Config, 'deployment' | 'licenseMode'>): Promise<Record<string, SettingValue>> {
  const days = await retentionDays(q, { retentionRawDays: undefined, retentionMinuteDays: undefined });
  return {
    Insights: await insightsEnabled(q, { insights: undefined, deployment: config.deployment, licenseMode: config.licenseMode }),
    RetentionRawDays: days.rawDays,
    RetentionMinuteDays: days.minuteDays,
    PublicUrl: await storedPublicUrl(q),
    SupportEmail: await storedSupportEmail(q),
  };
}

/** Per setting, the words the page shows when an environment variable overrides it. */
export function applianceOverrides(config: ApplianceConfig): Record<string, string> {
  const out: Record<string, string> = {};
  const note = (variable: string, value: string) =>
    `${variable}=${value} is set on this server and overrides this setting: ${value} is in force whatever is saved here (a saved value takes effect once the variable is removed).`;
  if (config.deployment === DeploymentMode.Cloud) return out;
  if (config.insights !== undefined) out.Insights = note('HOPWATCH_INSIGHTS', String(config.insights));
  if (config.retentionRawDays !== undefined) out.RetentionRawDays = note('HOPWATCH_RETENTION_RAW_DAYS', String(config.retentionRawDays));
  if (config.retentionMinuteDays !== undefined) out.RetentionMinuteDays = note('HOPWATCH_RETENTION_MINUTE_DAYS', String(config.retentionMinuteDays));
  if (config.publicUrl) out.PublicUrl = note('HOPWATCH_PUBLIC_URL', config.publicUrl);
  return out;
}

/** Stores the changed appliance settings (inside the save's transaction). */
export async function storeApplianceValues(q: Queryable, changed: Record<string, SettingValue>): Promise<void> {
  if (typeof changed.Insights === 'boolean') await storeInsightsSetting(q, changed.Insights);
  if (typeof changed.PublicUrl === 'string') await storePublicUrl(q, changed.PublicUrl);
  if (typeof changed.SupportEmail === 'string') await storeSupportEmail(q, changed.SupportEmail);
  const raw = changed.RetentionRawDays;
  const minute = changed.RetentionMinuteDays;
  await storeRetentionDays(q, {
    ...(typeof raw === 'number' ? { rawDays: raw } : {}),
    ...(typeof minute === 'number' ? { minuteDays: minute } : {}),
  });
}

/** Every account (an appliance setting concerns the consoles of all of them). */
export async function allAccountIds(q: Queryable): Promise<number[]> {
  return (await q.all<{ id: number }>('SELECT id FROM accounts ORDER BY id')).map((r) => Number(r.id));
}
