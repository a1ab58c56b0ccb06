// Issue 39 item 16: the console's calls that set a password put it in the JSON body, never in
// the URL (reverse proxies log URLs). Driven through the real request code with fetch recorded.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changePassword } from './account';
import { createUser, setUserPassword } from '../users/api';

interface Sent {
  url: string;
  method: string;
  body: unknown;
}
let sent: Sent[] = [];

beforeEach(() => {
  sent = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, method: String(init.method), body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    return new Response(init.method === 'PATCH' && url.startsWith('/api/user') ? null : '{}', {
      status: init.method === 'PATCH' && url.startsWith('/api/user') ? 204 : 200,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('password calls of the console', () => {
  it('change password: both passwords in the body', async () => {
    await changePassword('New-secret-1', 'Old-secret-1');
    expect(sent).toEqual([{ url: '/api/Account', method: 'PATCH', body: { currentPassword: 'Old-secret-1', newPassword: 'New-secret-1' } }]);
  });

  it("a user's reset: id and new password in the body", async () => {
    await setUserPassword(7, 'Reset-secret-2');
    expect(sent).toEqual([{ url: '/api/user', method: 'PATCH', body: { id: 7, newPassword: 'Reset-secret-2' } }]);
  });

  it("a new user's temporary password in the body", async () => {
    await createUser({ Id: 0, Name: '', EmailAddress: 'ann@example.org', Roles: [], IsRoot: false }, 'Temp-secret-3');
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('/api/user');
    expect(sent[0].body).toMatchObject({ EmailAddress: 'ann@example.org', password: 'Temp-secret-3' });
  });
});
