import { describe, expect, it } from 'vitest';
import { emailAddressProblem, validEmailAddress } from './email-address.js';

describe('emailAddressProblem', () => {
  it('accepts one mailbox', () => {
    for (const a of ['ann@example.org', 'a.b+tag@mail.example.co.uk', "o'neil@example.org", 'x_y-z@sub-1.example', 'jürgen@bücher.example']) {
      expect(emailAddressProblem(a), a).toBeUndefined();
    }
  });

  it('refuses lists, headers, spaces and malformed addresses', () => {
    for (const a of [
      'x@example.org, evil@evil.example',
      'x@example.org,evil@evil.example',
      'x@example.org; evil@evil.example',
      'x@example.org\r\nBcc: evil@evil.example',
      'x@example.org\nBcc: evil@evil.example',
      'Ann <ann@example.org>',
      '"a b"@example.org',
      'a b@example.org',
      'ann@@example.org',
      'ann@example',
      'ann',
      '@example.org',
      'ann@',
      '.ann@example.org',
      'an..n@example.org',
      'ann@-example.org',
      'ann@example..org',
      `${'a'.repeat(65)}@example.org`,
      `a@${'b'.repeat(250)}.org`,
      '',
      'ann@exa\u0000mple.org',
    ]) {
      expect(emailAddressProblem(a), JSON.stringify(a)).toBeTypeOf('string');
    }
  });

  it('says what is wrong with a list', () => {
    expect(emailAddressProblem('x@example.org, evil@evil.example')).toMatch(/one e-mail address/);
  });
});

describe('validEmailAddress', () => {
  it('drops surrounding spaces and throws a 400 otherwise', () => {
    expect(validEmailAddress('  ann@example.org ')).toBe('ann@example.org');
    expect(() => validEmailAddress('a@example.org,b@example.org')).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => validEmailAddress(undefined)).toThrow(expect.objectContaining({ status: 400 }));
  });
});
