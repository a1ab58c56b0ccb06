// Share ids and passwords of LiveShare links: 128 random bits each from the CSPRNG (256
// together). A visit is checked against the password's SHA-256 (a fast hash is enough for a
// random 128-bit secret: nothing can be guessed from it); managers copy the link's URL again
// from the grid at any time, so the password is also kept sealed (AES-256-GCM) under a key
// file beside the database: a copied database file alone does not give the links away. On
// PostgreSQL the key is a row of the database instead, shared by every replica
// (server/store/server-keys.ts).
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Store } from '../store/db.js';
import { newKeyText, type ServerKeyName } from '../store/server-keys.js';

export const newShareId = (): string => randomBytes(16).toString('base64url');
export const newSecurePW = (): string => randomBytes(16).toString('base64url');

export const digestOf = (password: string): string => createHash('sha256').update(password, 'utf8').digest('hex');

export function passwordMatches(password: string, digest: string): boolean {
  const a = Buffer.from(digestOf(password), 'hex');
  const b = Buffer.from(digest, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Seals and opens link passwords with the data directory's key (created on first use, mode 0600). */
export class PasswordSeal {
  private constructor(private readonly key: Buffer) {}

  /**
   * The store's seal of that name: on PostgreSQL the key the database holds (every replica the
   * same), on DuckDB the data directory's key file (forDataDir).
   */
  static forStore(store: Pick<Store, 'path' | 'keys'>, name: ServerKeyName = 'liveshare.key'): PasswordSeal {
    if (!store.keys) return PasswordSeal.forDataDir(dirname(store.path), name);
    const text = store.keys.get(name);
    if (text === undefined) throw new Error(`the database holds no ${name} (server_keys)`);
    return PasswordSeal.fromText(text, `${name} in server_keys`);
  }

  /** `fileName`: the key file (the settings' remote-server passwords use their own, docs/settings.md). */
  static forDataDir(dataDir: string, fileName: ServerKeyName = 'liveshare.key'): PasswordSeal {
    const file = join(dataDir, fileName);
    if (!existsSync(file)) {
      try {
        writeFileSync(file, newKeyText(), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    return PasswordSeal.fromText(readFileSync(file, 'utf8'), file);
  }

  private static fromText(text: string, where: string): PasswordSeal {
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== 32) throw new Error(`${where} is not a password key (32 bytes, base64).`);
    return new PasswordSeal(key);
  }

  seal(password: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(password, 'utf8'), c.final()]);
    return [iv, c.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  /** The password, or '' when the key changed since it was sealed (the link then needs a new URL). */
  open(sealed: string): string {
    try {
      const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
      const d = createDecipheriv('aes-256-gcm', this.key, iv);
      d.setAuthTag(tag);
      return Buffer.concat([d.update(body), d.final()]).toString('utf8');
    } catch {
      return '';
    }
  }
}
