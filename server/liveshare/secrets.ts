// Share ids and passwords of LiveShare links: 128 random bits each from the CSPRNG (256
// together). A visit is checked against the password's SHA-256 (a fast hash is enough for a
// random 128-bit secret: nothing can be guessed from it); managers copy the link's URL again
// from the grid at any time, so the password is also kept sealed (AES-256-GCM) under a key
// file beside the database: a copied database file alone does not give the links away.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

  /** `fileName`: the key file (the settings' remote-server passwords use their own, docs/settings.md). */
  static forDataDir(dataDir: string, fileName = 'liveshare.key'): PasswordSeal {
    const file = join(dataDir, fileName);
    if (!existsSync(file)) {
      try {
        writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} is not a password key (32 bytes, base64).`);
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
