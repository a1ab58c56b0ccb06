// Issue 39 item 16: the calls that set a password take it in a JSON body as well as in the
// spec's query form (which reverse proxies log). The same schema both ways; a field given in
// both places must match; the console sends the body form (web/src/api/account.ts,
// web/src/users/api.ts), so its URLs carry no password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

let hw: Appliance;
let root: string;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'Root-body-pw-1', HOPWATCH_LOG_LEVEL: 'debug' } });
  root = await signIn(hw.url, 'admin', 'Root-body-pw-1');
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

const call = (method: string, path: string, cookie: string, body?: unknown) =>
  fetch(`${hw.url}${path}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const errorOf = async (r: Response) => ((await r.json()) as { Error: string }).Error;

describe('passwords in a JSON body', () => {
  let userId: number;

  it('POST /api/user takes the temporary password as `password` in the body', async () => {
    const r = await call('POST', '/api/user', root, { Id: 0, Name: '', EmailAddress: 'carla@example.org', Roles: ['TargetManagement'], IsRoot: false, password: 'Temp-in-body-1' });
    expect(r.status, await r.clone().text()).toBe(200);
    userId = ((await r.json()) as { Id: number }).Id;
    await signIn(hw.url, 'carla@example.org', 'Temp-in-body-1');
  });

  it('PATCH /api/Account takes currentPassword and newPassword in the body', async () => {
    const cookie = await signIn(hw.url, 'carla@example.org', 'Temp-in-body-1');
    const r = await call('PATCH', '/api/Account', cookie, { currentPassword: 'Temp-in-body-1', newPassword: 'Chosen-in-body-2' });
    expect(r.status, await r.clone().text()).toBe(200);
    await signIn(hw.url, 'carla@example.org', 'Chosen-in-body-2');
  });

  it('PATCH /api/user takes id and newPassword in the body', async () => {
    const r = await call('PATCH', '/api/user', root, { id: userId, newPassword: 'Reset-in-body-3' });
    expect(r.status, await r.clone().text()).toBe(204);
    await signIn(hw.url, 'carla@example.org', 'Reset-in-body-3');
  });

  it("still takes the spec's query form", async () => {
    const r = await call('PATCH', `/api/user?id=${userId}&newPassword=Reset-in-query-4`, root);
    expect(r.status, await r.clone().text()).toBe(204);
    await signIn(hw.url, 'carla@example.org', 'Reset-in-query-4');
  });

  it('refuses a field given in the query and the body with different values, and accepts equal ones', async () => {
    const differ = await call('PATCH', `/api/user?newPassword=Query-value-5`, root, { id: userId, newPassword: 'Body-value-5' });
    expect(differ.status).toBe(400);
    expect(await errorOf(differ)).toMatch(/newPassword is given in the query and in the body/);
    const same = await call('PATCH', `/api/user?id=${userId}&newPassword=Same-value-6`, root, { newPassword: 'Same-value-6' });
    expect(same.status, await same.clone().text()).toBe(204);
  });

  it('validates the body with the same schema as the query', async () => {
    const long = await call('PATCH', '/api/user', root, { id: userId, newPassword: 'x'.repeat(1025) });
    expect(long.status).toBe(400);
    const wrongType = await call('PATCH', '/api/Account', root, { currentPassword: 'Root-body-pw-1', newPassword: { text: 'Not-a-string-1' } });
    expect(wrongType.status).toBe(400);
    const missing = await call('PATCH', '/api/user', root, { newPassword: 'Fine-pass-7' });
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatch(/id/);
  });

  it('the body form leaves no password in any logged request line', async () => {
    expect(hw.output()).not.toMatch(/Temp-in-body-1|Chosen-in-body-2|Reset-in-body-3|Body-value-5/);
  });
});
