import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('hashes with a per-user salt and verifies', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
  });

  it('generates typeable temporary passwords', () => {
    const pw = generatePassword();
    expect(pw).toMatch(/^[A-Za-z2-9]{16}$/);
    expect(pw).not.toMatch(/[0O1lI]/);
  });
});
