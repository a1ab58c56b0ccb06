// Where a self-hosted appliance's support tickets are mailed (issue 41 item 11): the operator's
// address. Settings > General "Support e-mail address" (SupportEmail, appliance-wide, stored in
// storage_settings like PublicUrl), else HOPWATCH_SUPPORT_EMAIL, else the root user's own
// e-mail address. A stored value wins over the variable, as for the mail server's settings
// (server/mail/settings.ts): the operator changes it without a restart.
import type { SettingValue } from '../contract/settings.js';
import type { Queryable } from '../store/db.js';
import { emailAddressProblem } from '../users/email-address.js';
import { rootEmail } from './repository.js';

export const SupportEmailSettingName = 'SupportEmail';
export const SupportEmailVariable = 'HOPWATCH_SUPPORT_EMAIL';

/** The editor's check: one e-mail address, or empty (the variable's, else root's). */
export function supportEmailProblem(v: SettingValue): string | undefined {
  if (typeof v !== 'string') return 'must be text';
  if (v.trim() === '') return undefined;
  const problem = emailAddressProblem(v.trim());
  return problem ? `must be one e-mail address: ${problem}` : undefined;
}

/** The stored value ('' when none): what the editor edits. */
export async function storedSupportEmail(q: Queryable): Promise<string> {
  return (await q.one<{ value: string }>('SELECT value FROM storage_settings WHERE name = $1', [SupportEmailSettingName]))?.value ?? '';
}

export async function storeSupportEmail(q: Queryable, value: string): Promise<void> {
  await q.run('INSERT OR REPLACE INTO storage_settings VALUES ($1, $2, $3)', [SupportEmailSettingName, value.trim(), Date.now()]);
}

/** The address in force, '' when none of the three is set (or the variable is not one address). */
export async function supportEmailInForce(q: Queryable, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const stored = await storedSupportEmail(q);
  if (stored) return stored;
  const variable = (env[SupportEmailVariable] ?? '').trim();
  if (variable && !emailAddressProblem(variable)) return variable;
  const root = (await rootEmail(q)).trim();
  return root && !emailAddressProblem(root) ? root : '';
}
