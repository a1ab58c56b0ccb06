// Password changes, web users and claims over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { replaceTemporaryPassword } from '../support/web-users.js';

let hw: Appliance;
let admin: string;
beforeAll(async () => {
  hw = await startAppliance();
  admin = await signIn(hw.url, 'admin', hw.rootPassword!);
});
afterAll(async () => {
  await hw?.dispose();
});

const call = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
const q = encodeURIComponent;

async function createUser(email: string, password: string, roles: string[]) {
  const r = await call(`/api/user?password=${q(password)}`, admin, {
    method: 'POST',
    body: JSON.stringify({ Id: 0, Name: '', EmailAddress: email, Roles: roles, IsRoot: false }),
  });
  expect(r.status).toBe(200);
  return r.json();
}

describe('change password (PATCH /api/Account)', () => {
  it('enforces the rules and clears the temporary flag', async () => {
    await createUser('carol@example.org', 'first-pass', []);
    const carol = await signIn(hw.url, 'carol@example.org', 'first-pass');
    const me = await (await call('/api/Account/GetCurrentUser', carol)).json();
    expect(me.Claims).toContain('temppassword');

    const patch = (params: string) => call(`/api/Account?${params}`, carol, { method: 'PATCH' });
    const expectError = async (params: string, text: RegExp) => {
      const r = await patch(params);
      expect(r.status, params).toBe(400);
      expect((await r.json()).Error).toMatch(text);
    };
    await expectError(`newPassword=abc`, /current password is required/);
    await expectError(`currentPassword=wrong&newPassword=abc`, /current password is not correct/);
    await expectError(`currentPassword=first-pass&newPassword=first-pass`, /New password can not match current password/);
    await expectError(`currentPassword=first-pass&newPassword=${'x'.repeat(46)}`, /at most 45/);
    // The password policy (issue 26): at least 8 characters, not naming the user.
    await expectError(`currentPassword=first-pass&newPassword=short`, /^A password needs at least 8 characters\.$/);
    await expectError(`currentPassword=first-pass&newPassword=${q('Carol-2024!')}`, /^A password cannot be or contain the user name\.$/);

    const ok = await patch(`currentPassword=first-pass&newPassword=${q('second pass!')}`);
    expect(ok.status).toBe(200);
    expect((await ok.json()).Claims).not.toContain('temppassword');
    await expect(signIn(hw.url, 'carol@example.org', 'first-pass')).rejects.toThrow(/401/);
    await signIn(hw.url, 'carol@example.org', 'second pass!');
  });
});

describe('web users (/api/user)', () => {
  it('lists roles and creates, reads, updates, resets and deletes users', async () => {
    const roles = await (await call('/api/user/api/roles', admin)).json();
    expect(roles).toContainEqual({ DisplayString: 'Target Management', StorageString: 'TargetManagement' });

    const dave = await createUser('Dave@Example.org', 'pw-for-d-1', ['TargetManagement']);
    expect(dave).toMatchObject({ EmailAddress: 'Dave@Example.org', Roles: ['TargetManagement'], IsRoot: false });

    const dup = await call(`/api/user?password=long-enough-1`, admin, { method: 'POST', body: JSON.stringify({ EmailAddress: 'dave@example.org', Roles: [] }) });
    expect(dup.status).toBe(409);
    const badRole = await call(`/api/user?password=long-enough-1`, admin, { method: 'POST', body: JSON.stringify({ EmailAddress: 'e@example.org', Roles: ['Root'] }) });
    expect(badRole.status).toBe(400);

    const found = await (await call(`/api/user?filter=dave`, admin)).json();
    expect(found.map((u: { Id: number }) => u.Id)).toEqual([dave.Id]);

    const updated = await call(`/api/user/${dave.Id}`, admin, { method: 'PATCH', body: JSON.stringify({ ...dave, Roles: ['SessionManagement'] }) });
    expect((await updated.json()).Roles).toEqual(['SessionManagement']);

    expect((await call(`/api/user?id=${dave.Id}&newPassword=reset-pass-1`, admin, { method: 'PATCH' })).status).toBe(204);
    const daveCookie = await signIn(hw.url, 'dave@example.org', 'reset-pass-1');
    const daveMe = await (await call('/api/Account/GetCurrentUser', daveCookie)).json();
    expect(daveMe.Claims).toEqual(['SessionManagement', 'temppassword']);

    // Until Dave picks his own password, he may only change it (test/api/temporary-password.test.ts).
    expect((await call('/api/user', daveCookie)).status).toBe(403);
    await replaceTemporaryPassword(hw.url, 'dave@example.org', 'reset-pass-1', 'Chosen-by-him-9');
    const daveOwn = await signIn(hw.url, 'dave@example.org', 'Chosen-by-him-9');
    // Without UserManagement: 403.
    const forbidden = await call('/api/user', daveOwn);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).Error).toMatch(/UserManagement/);

    expect((await call(`/api/user/${dave.Id}`, admin, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/api/user/${dave.Id}`, admin)).status).toBe(404);
    expect((await call('/api/Account/GetCurrentUser', daveOwn)).status).toBe(401);
  });

  it('applies the password policy to passwords an admin sets', async () => {
    const create = (email: string, password: string) =>
      call(`/api/user?password=${q(password)}`, admin, { method: 'POST', body: JSON.stringify({ EmailAddress: email, Roles: [] }) });
    const refused = async (r: Response, text: string) => {
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ Error: text });
    };
    await refused(await create('frank@example.org', 'x'), 'A password needs at least 8 characters.');
    await refused(await create('frank@example.org', 'frank@example.org'), 'A password cannot be or contain the user name.');
    await refused(await create('frank@example.org', 'I-am-Frank-1'), 'A password cannot be or contain the user name.');
    await refused(await create('frank@example.org', 'y'.repeat(46)), 'A password has at most 45 characters.');
    expect((await call('/api/user?filter=frank', admin).then((r) => r.json())).length).toBe(0);

    const frank = await createUser('frank@example.org', 'first-of-f-1', []);
    await refused(await call(`/api/user?id=${frank.Id}&newPassword=1234567`, admin, { method: 'PATCH' }), 'A password needs at least 8 characters.');
    await refused(await call(`/api/user?id=${frank.Id}&newPassword=FRANK-reset`, admin, { method: 'PATCH' }), 'A password cannot be or contain the user name.');
    // A password an admin set is temporary: the user is told to change it at sign-in.
    const signedIn = await fetch(`${hw.url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'frank@example.org', Password: 'first-of-f-1' }),
    });
    expect((await signedIn.json()).Claims).toContain('temppassword');
  });

  it('protects the root user', async () => {
    const list = await (await call('/api/user', admin)).json();
    const root = list.find((u: { IsRoot: boolean }) => u.IsRoot);
    expect((await call(`/api/user/${root.Id}`, admin, { method: 'DELETE' })).status).toBe(403);
    expect((await call(`/api/user/${root.Id}`, admin, { method: 'PATCH', body: JSON.stringify({ ...root, Roles: [] }) })).status).toBe(403);
    expect((await call(`/api/user/abc`, admin)).status).toBe(400);
  });
});
