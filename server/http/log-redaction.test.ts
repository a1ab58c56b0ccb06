import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.js';

describe('redactUrl', () => {
  it('masks password, token and key values and keeps the rest', () => {
    expect(redactUrl('/api/Account?currentPassword=a&newPassword=b')).toBe('/api/Account?currentPassword=***&newPassword=***');
    expect(redactUrl('/login?u=bob&p=secret')).toBe('/login?u=bob&p=***');
    expect(redactUrl('/mainHub?id=1&access_token=t')).toBe('/mainHub?id=***&access_token=***');
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

  // Issue 39 item 11: the console's router finds the viewer at these spellings too (it
  // decodes, and browsers and proxies fold slashes), so the mask must as well.
  it('masks the LiveShare password after the normalisation a router applies', () => {
    expect(redactUrl('//LiveShare/abc/s3cr3t-pw')).toBe('/LiveShare/abc/***');
    expect(redactUrl('/%4CiveShare/abc/s3cr3t-pw')).toBe('/LiveShare/abc/***');
    expect(redactUrl('/LiveShare%2Fabc/s3cr3t-pw')).toBe('/LiveShare/abc/***');
    expect(redactUrl('/LiveShare%2Fabc%2Fs3cr3t-pw?x=1')).toBe('/LiveShare/abc/***?x=1');
    expect(redactUrl('/LIVESHARE//abc///s3cr3t-pw')).toBe('/LIVESHARE/abc/***');
    expect(redactUrl('/%254CiveShare/abc/s3cr3t-pw')).toBe('/LiveShare/abc/***');
    expect(redactUrl('\\LiveShare\\abc\\s3cr3t-pw')).toBe('/LiveShare/abc/***');
    expect(redactUrl('/x/../LiveShare/./abc/s3cr3t-pw')).toBe('/LiveShare/abc/***');
    expect(redactUrl('/Live%53hare/abc/%zz-s3cr3t')).toBe('/LiveShare/abc/***');
    for (const url of ['//LiveShare/abc/s3cr3t-pw', '/%4CiveShare/abc/s3cr3t-pw', '/LiveShare%2Fabc/s3cr3t-pw', '/%4ciVESHARE%2f%2fabc%2Fs3cr3t-pw']) {
      expect(redactUrl(url)).not.toContain('s3cr3t');
    }
    // Paths that are not the viewer stay as sent.
    expect(redactUrl('/LiveShare/abc')).toBe('/LiveShare/abc');
    expect(redactUrl('//cmd/getsummaries?n=1')).toBe('//cmd/getsummaries?n=1');
    expect(redactUrl('/%zz/%E0%A4%A')).toBe('/%zz/%E0%A4%A');
  });

  // Issue 39 item 3: a hub connection token names someone's live connection.
  it("masks the hub's connection token (id) and only there", () => {
    expect(redactUrl('/mainHub?id=Zm9vYmFy&_=1700000000000')).toBe('/mainHub?id=***&_=1700000000000');
    expect(redactUrl('/mainHub?%69d=Zm9vYmFy')).toBe('/mainHub?%69d=***');
    expect(redactUrl('//mainhub?id=Zm9vYmFy')).toBe('//mainhub?id=***');
    expect(redactUrl('/mainHub/negotiate?negotiateVersion=1')).toBe('/mainHub/negotiate?negotiateVersion=1');
    expect(redactUrl('/api/user?id=5')).toBe('/api/user?id=5');
    expect(redactUrl('/cmd/stoptrace?ID=5')).toBe('/cmd/stoptrace?ID=5');
  });

  it('never throws, whatever the path', () => {
    for (const url of ['/%', '/%%%', '//', '', '?', '/..', '/../../..', `/${'%25'.repeat(5000)}`, `/${'/'.repeat(10000)}LiveShare/a/b`]) {
      expect(() => redactUrl(url)).not.toThrow();
    }
    expect(redactUrl(`/${'/'.repeat(10000)}LiveShare/a/b`)).toBe('/LiveShare/a/***');
  });
});
