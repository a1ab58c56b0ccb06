// The appliance's public URL (issue 40 item 4): the address agents and users reach this
// server at. Auto Setup links and the agent install commands name it; without it they named
// the address the browser used, and a console opened at 127.0.0.1 made links no agent
// elsewhere could follow. HOPWATCH_PUBLIC_URL (server/config.ts) wins; else the value stored
// from Settings > General (storage_settings row `PublicUrl`), which asks for it while unset.
import type { Config } from '../config.js';
import type { SettingValue } from '../contract/settings.js';
import type { Queryable } from '../store/db.js';

export const PublicUrlSettingName = 'PublicUrl';

/** The editor's check: an http(s) URL, or empty (unset). */
export function publicUrlProblem(v: SettingValue): string | undefined {
  if (typeof v !== 'string') return 'must be text';
  if (v.trim() === '') return undefined;
  let u: URL;
  try {
    u = new URL(v.trim());
  } catch {
    u = new URL('none:');
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return 'must be an http:// or https:// URL such as https://hopwatch.example.org';
  if (u.search || u.hash || u.username || u.password) return 'must be a plain URL (no query, fragment or user name)';
  return v.length > 500 ? 'must have at most 500 characters' : undefined;
}

/** The stored value as typed ('' when none): what the editor edits. */
export async function storedPublicUrl(q: Queryable): Promise<string> {
  return (await q.one<{ value: string }>('SELECT value FROM storage_settings WHERE name = $1', [PublicUrlSettingName]))?.value ?? '';
}

export async function storePublicUrl(q: Queryable, value: string): Promise<void> {
  await q.run('INSERT INTO storage_settings VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at', [PublicUrlSettingName, value.trim(), Date.now()]);
}

/** The public URL in force, without a trailing slash: the variable's, else the stored one; undefined when neither is set. */
export async function publicUrlInForce(q: Queryable, config: Pick<Config, 'publicUrl'>): Promise<string | undefined> {
  const url = config.publicUrl || (await storedPublicUrl(q));
  return url ? url.replace(/\/+$/, '') : undefined;
}

/** What the General screen says while no public URL is in force (undefined once one is). */
export function publicUrlNote(inForce: string | undefined): string | undefined {
  if (inForce) return undefined;
  return 'No public URL is set: Auto Setup links and agent install commands name the address your browser uses, which agents on other machines may not reach (127.0.0.1, a name without a domain). Enter the address agents reach this server at in Public URL below.';
}
