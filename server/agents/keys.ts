// Agent keys: random, shown once in a setup link or handed to the agent, stored as SHA-256.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newKey(): string {
  return randomBytes(24).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyMatches(key: string, hash: string | null): boolean {
  if (!hash) return false;
  const a = Buffer.from(hashKey(key), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
