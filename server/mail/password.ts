// The stored SMTP password, sealed: the server must hand it back to the SMTP server (AUTH), so
// it cannot be hashed; it is sealed (AES-256-GCM) under the key file LiveShare's link
// passwords use (liveshare.key in the data directory, server/liveshare/secrets.ts), so a copied
// database alone does not give it away. Back the key file up with the database
// (docs/liveshare.md): without it a stored password cannot be opened and must be entered again.
import { dirname } from 'node:path';
import { PasswordSeal } from '../liveshare/secrets.js';
import type { Queryable, Store } from '../store/db.js';

/** mail_settings rows: the sealed password ('' = none, stored over HOPWATCH_SMTP_PASSWORD); the clear one of older versions. */
export const SealedPasswordRow = 'PasswordSealed';
export const ClearPasswordRow = 'Password';

export type MailPasswordSeal = Pick<PasswordSeal, 'seal' | 'open'>;

const seals = new Map<string, MailPasswordSeal>();

/** The store's seal: the data directory's key file (made on first use, mode 0600), or PostgreSQL's row of it. */
export function mailPasswordSeal(store: Pick<Store, 'path' | 'keys'>): MailPasswordSeal {
  if (store.keys) return PasswordSeal.forStore(store);
  const dataDir = dirname(store.path);
  let seal = seals.get(dataDir);
  if (!seal) {
    seal = PasswordSeal.forDataDir(dataDir);
    seals.set(dataDir, seal);
  }
  return seal;
}

/** Stores `password` sealed ('' stores "no password") and drops a clear one. */
export async function storeMailPassword(q: Queryable, seal: MailPasswordSeal, password: string): Promise<void> {
  await q.run('INSERT INTO mail_settings VALUES ($1, $2, $3) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at', [SealedPasswordRow, password === '' ? '' : seal.seal(password), Date.now()]);
  await q.run('DELETE FROM mail_settings WHERE name = $1', [ClearPasswordRow]);
}

/**
 * Seals a password an older version stored in clear (run at start). Answers whether there
 * was one. A sealed one stored since wins: the clear row is then only dropped.
 */
export async function sealClearMailPassword(store: Store, seal: MailPasswordSeal): Promise<boolean> {
  return store.transaction(async (q) => {
    const clear = await q.one<{ value: string }>('SELECT value FROM mail_settings WHERE name = $1', [ClearPasswordRow]);
    if (!clear) return false;
    const sealed = await q.one('SELECT value FROM mail_settings WHERE name = $1', [SealedPasswordRow]);
    if (sealed) await q.run('DELETE FROM mail_settings WHERE name = $1', [ClearPasswordRow]);
    else await storeMailPassword(q, seal, clear.value);
    return true;
  });
}
