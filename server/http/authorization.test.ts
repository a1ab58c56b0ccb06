import { describe, expect, it } from 'vitest';
import { authorizationCredentials, bearerCredentials } from './authorization.js';

describe('authorizationCredentials', () => {
  it('reads the scheme case-insensitively (RFC 9110 11.1)', () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) expect(bearerCredentials(`${scheme} abc.def`)).toBe('abc.def');
    expect(bearerCredentials('Bearer   spaced ')).toBe('spaced');
  });

  it('refuses another scheme, no credentials, and a missing header', () => {
    expect(bearerCredentials('Basic abc')).toBeUndefined();
    expect(bearerCredentials('Bearer')).toBeUndefined();
    expect(bearerCredentials('Bearer ')).toBeUndefined();
    expect(bearerCredentials('Bearerabc')).toBeUndefined();
    expect(bearerCredentials(undefined)).toBeUndefined();
    expect(bearerCredentials(['Bearer a', 'Bearer b'])).toBeUndefined();
    expect(authorizationCredentials('basic dXNlcjpwdw==', 'Basic')).toBe('dXNlcjpwdw==');
  });
});
