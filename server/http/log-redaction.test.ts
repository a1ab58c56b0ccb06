import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('masks password, token and key values and keeps the rest', () => {
    expect(redactUrl('/api/Account?currentPassword=a&newPassword=b')).toBe('/api/Account?currentPassword=***&newPassword=***');
    expect(redactUrl('/login?u=bob&p=secret')).toBe('/login?u=bob&p=***');
    expect(redactUrl('/mainHub?id=1&access_token=t')).toBe('/mainHub?id=1&access_token=***');
    expect(redactUrl('/cmd/newtarget?target=example.org')).toBe('/cmd/newtarget?target=example.org');
    expect(redactUrl('/healthz')).toBe('/healthz');
  });

  it('never throws on malformed escapes in names or values, and still masks what it can read', () => {
    expect(redactUrl('/readyz?%=1')).toBe('/readyz?%=1');
    expect(redactUrl('/login?%zz=1&p=secret')).toBe('/login?%zz=1&p=***');
    expect(redactUrl('/x?%E0%A4%A=1&%')).toBe('/x?%E0%A4%A=1&%');
    // An escaped secret name is still recognised.
    expect(redactUrl('/api/Account?new%50assword=b')).toBe('/api/Account?new%50assword=***');
  });

  it("masks a LiveShare link's password in the viewer path", () => {
    expect(redactUrl('/LiveShare/abcDEF/s3cr3t-pw')).toBe('/LiveShare/abcDEF/***');
    expect(redactUrl('/liveshare/abc/pw?x=1')).toBe('/liveshare/abc/***?x=1');
    expect(redactUrl('/LiveShareLinks/SUM-1')).toBe('/LiveShareLinks/SUM-1');
  });
});
