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
});
