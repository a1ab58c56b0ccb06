import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { digestOf, newSecurePW, newShareId, passwordMatches, PasswordSeal } from './secrets.js';
import { formatSummaryRef, parseSummaryRef } from './shared.js';
import { linkCredentialsFrom } from './visitors.js';

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-liveshare-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('LiveShare secrets', () => {
  it('makes 128-bit ids and passwords that differ every time', () => {
    const ids = new Set(Array.from({ length: 200 }, newShareId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(Buffer.from(id, 'base64url')).toHaveLength(16);
    expect(Buffer.from(newSecurePW(), 'base64url')).toHaveLength(16);
  });

  it('checks a password against its digest only', () => {
    const pw = newSecurePW();
    expect(passwordMatches(pw, digestOf(pw))).toBe(true);
    expect(passwordMatches(`${pw}x`, digestOf(pw))).toBe(false);
    expect(digestOf(pw)).not.toContain(pw);
  });

  it('seals with a key file of its own (mode 0600) and opens only with that key', () => {
    const seal = PasswordSeal.forDataDir(dir);
    const sealed = seal.seal('s3cret');
    expect(sealed).not.toContain('s3cret');
    expect(PasswordSeal.forDataDir(dir).open(sealed)).toBe('s3cret');
    expect(statSync(join(dir, 'liveshare.key')).mode & 0o777).toBe(0o600);
    const other = mkdtempSync(join(tmpdir(), 'hopwatch-liveshare-key-'));
    try {
      expect(PasswordSeal.forDataDir(other).open(sealed)).toBe('');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('link references and the visitor cookie', () => {
  it('reads SUM-{id} and AGT-{uniqueId} in any case and spells them one way', () => {
    expect(formatSummaryRef(parseSummaryRef('sum-12')!)).toBe('SUM-12');
    expect(formatSummaryRef(parseSummaryRef('AGT--1')!)).toBe('AGT--1');
    expect(formatSummaryRef(parseSummaryRef('agt-1b4e28ba-2fa1-11d2-883f-0016d3cca427')!)).toBe('AGT-1b4e28ba-2fa1-11d2-883f-0016d3cca427');
    for (const bad of ['SUM-', 'SUM-x', 'XYZ-1', 'AGT-a b', '']) expect(parseSummaryRef(bad)).toBeUndefined();
  });

  it('takes "{shareId}/{password}" from the liveshareid cookie, URL-encoded or not', () => {
    expect(linkCredentialsFrom('a=1; liveshareid=abc%2Fdef')).toEqual({ shareId: 'abc', password: 'def' });
    expect(linkCredentialsFrom('liveshareid=abc/def')).toEqual({ shareId: 'abc', password: 'def' });
    for (const bad of [undefined, 'other=1', 'liveshareid=abc', 'liveshareid=a/b/c', 'liveshareid=/b', `liveshareid=${'a'.repeat(300)}/b`]) {
      expect(linkCredentialsFrom(bad)).toBeUndefined();
    }
  });
});
