// Key-value store, trace history defaults and display settings over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';

const RootPassword = 'kvp-root-pw';
let hw: Appliance;
let admin: string;
let plain: string;

const q = encodeURIComponent;
const send = (method: string, path: string, cookie = admin, body?: unknown) =>
  fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
async function get(type: string | number, key: string, cookie = admin) {
  const r = await send('GET', `/api/kvp/get?Type=${q(String(type))}&KeyName=${q(key)}`, cookie);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/application\/json/);
  return r.json();
}
async function set(type: string | number, key: string, value: string, cookie = admin) {
  return send('PUT', `/api/kvp/set?Type=${q(String(type))}&KeyName=${q(key)}&Value=${q(value)}`, cookie);
}
async function expectError(r: Response, status: number, text?: RegExp) {
  const body = await r.json();
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(typeof body.Error).toBe('string');
  if (text) expect(body.Error).toMatch(text);
}

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword } });
  admin = await signIn(hw.url, 'admin', RootPassword);
  await createWebUser(hw.url, admin, { email: 'kv@example.org', password: 'plain-pw' });
  plain = await signIn(hw.url, 'kv@example.org', 'plain-pw');
});
afterAll(async () => {
  await hw?.dispose();
});

describe('key-value store', () => {
  it('stores text per scope: Account is shared, User and AccountAndUser are per user', async () => {
    expect(await get('AccountAndUser', 'Panel-State')).toBeNull();
    expect((await set('AccountAndUser', 'Panel-State', '{"open":true}')).status).toBe(204);
    expect(await get('AccountAndUser', 'Panel-State')).toBe('{"open":true}');
    expect(await get(2, 'Panel-State')).toBe('{"open":true}'); // numeric scope, same row
    expect(await get('accountanduser', 'Panel-State')).toBe('{"open":true}');
    expect(await get('User', 'Panel-State')).toBeNull(); // another scope, another row
    expect(await get('AccountAndUser', 'Panel-State', plain)).toBeNull(); // another user

    expect((await set(1, 'Panel-State', 'user-wide')).status).toBe(204);
    expect(await get('User', 'Panel-State')).toBe('user-wide');
    expect((await set('AccountAndUser', 'Panel-State', 'replaced')).status).toBe(204);
    expect(await get('AccountAndUser', 'Panel-State')).toBe('replaced');

    expect((await set('Account', 'Shared-Note', 'for everyone')).status).toBe(204);
    expect(await get('Account', 'Shared-Note', plain)).toBe('for everyone');
    expect((await set('AccountAndUser', 'Empty', '')).status).toBe(204);
    expect(await get('AccountAndUser', 'Empty')).toBe('');
  });

  it('takes a long value in the body and enforces the limits', async () => {
    const long = 'v'.repeat(60 * 1024);
    const r = await send('PUT', `/api/kvp/set?Type=AccountAndUser&KeyName=Long`, admin, long);
    expect(r.status).toBe(204);
    expect(await get('AccountAndUser', 'Long')).toBe(long);
    const wrapped = await send('PUT', `/api/kvp/set?Type=AccountAndUser&KeyName=Wrapped`, admin, { Value: 'in an object' });
    expect(wrapped.status).toBe(204);
    expect(await get('AccountAndUser', 'Wrapped')).toBe('in an object');

    await expectError(await send('PUT', `/api/kvp/set?Type=AccountAndUser&KeyName=Long`, admin, 'é'.repeat(33 * 1024)), 413);
    expect(await get('AccountAndUser', 'Long')).toBe(long); // unchanged
    await expectError(await send('PUT', `/api/kvp/set?Type=AccountAndUser&KeyName=x`, admin, { Other: 1 }), 400);
    await expectError(await send('PUT', `/api/kvp/set?Type=AccountAndUser&KeyName=x`), 400, /Value is required/);
    await expectError(await set('AccountAndUser', 'k'.repeat(201), 'v'), 400, /at most 200/);
    await expectError(await set('AccountAndUser', '  ', 'v'), 400, /KeyName/);
    await expectError(await send('GET', `/api/kvp/get?KeyName=x`), 400, /Type/);
    await expectError(await send('PUT', `/api/kvp/set?KeyName=x&Value=y`), 400, /Type/);
    await expectError(await send('GET', `/api/kvp/get?Type=Team&KeyName=x`), 400, /Account, User or AccountAndUser/);
    await expectError(await send('GET', `/api/kvp/get?Type=3&KeyName=x`), 400);
    expect((await fetch(`${hw.url}/api/kvp/get?Type=0&KeyName=x`)).status).toBe(401);
  });

  it('needs UserManagement to write Account scope, except onboarding progress', async () => {
    await expectError(await set('Account', 'Shared-Note', 'overwritten', plain), 403, /UserManagement/);
    expect(await get('Account', 'Shared-Note')).toBe('for everyone');
    expect((await set('Account', 'CloudConnect-OnboardingProgressV2', '{"stage":3,"minimized":false,"dismissed":false}', plain)).status).toBe(204);
    expect(JSON.parse(await get('Account', 'CloudConnect-OnboardingProgressV2'))).toEqual({ stage: 3, minimized: false, dismissed: false });
    // The user's own scopes need nothing.
    expect((await set('AccountAndUser', 'Mine', 'ok', plain)).status).toBe(204);
  });

  it('GET /api/kvp resets onboarding to an empty object (SettingsManagement)', async () => {
    await expectError(await send('GET', '/api/kvp', plain), 403, /SettingsManagement/);
    expect((await send('GET', '/api/kvp')).status).toBe(204);
    expect(await get('Account', 'CloudConnect-OnboardingProgressV2')).toBe('{}');
  });
});

describe('trace history', () => {
  it('falls back from the user to the account default to the server default', async () => {
    const serverDefault: string[] = await (await send('GET', '/api/data/GetDefaultTraceHistory')).json();
    expect(serverDefault.length).toBeGreaterThan(0);
    expect(serverDefault.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
    // No history of one's own: the default is what the user sees.
    expect(JSON.parse(await get('AccountAndUser', 'TraceTargetHistory', plain))).toEqual(serverDefault);
    expect(await get('Account', 'TraceTargetHistory')).toBeNull();

    // "Set as account default..." needs UserManagement.
    const accountDefault = ['gateway.example', '10.0.0.1'];
    await expectError(await set('Account', 'TraceTargetHistory', JSON.stringify(accountDefault), plain), 403);
    expect((await set('Account', 'TraceTargetHistory', JSON.stringify(accountDefault))).status).toBe(204);
    expect(await (await send('GET', '/api/data/GetDefaultTraceHistory', plain)).json()).toEqual(accountDefault);
    expect(JSON.parse(await get('AccountAndUser', 'TraceTargetHistory', plain))).toEqual(accountDefault);

    // A history of one's own wins; an empty list is a list.
    expect((await set('AccountAndUser', 'TraceTargetHistory', '["mine.example"]', plain)).status).toBe(204);
    expect(JSON.parse(await get('AccountAndUser', 'TraceTargetHistory', plain))).toEqual(['mine.example']);
    expect((await set('AccountAndUser', 'TraceTargetHistory', '[]', plain)).status).toBe(204);
    expect(JSON.parse(await get('AccountAndUser', 'TraceTargetHistory', plain))).toEqual([]);

    await expectError(await set('AccountAndUser', 'TraceTargetHistory', 'not json'), 400, /JSON array/);
    await expectError(await set('AccountAndUser', 'TraceTargetHistory', '[1,2]'), 400, /JSON array/);
    await expectError(await set('AccountAndUser', 'TraceTargetHistory', JSON.stringify(Array.from({ length: 51 }, (_, i) => `h${i}`))), 400, /at most 50/);
    expect((await fetch(`${hw.url}/api/data/GetDefaultTraceHistory`)).status).toBe(401);
  });

  it('keeps values across a restart', async () => {
    hw = await hw.restart();
    expect(await get('Account', 'Shared-Note')).toBe('for everyone');
    expect(JSON.parse(await get('AccountAndUser', 'TraceTargetHistory', plain))).toEqual([]);
  });
});

describe('display settings', () => {
  it('answers the default configuration and 404 for an unknown one', async () => {
    const r = await send('GET', '/api/data/DisplaySettings?configId=1');
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ id: 1, name: 'Default', Warn: 100, Bad: 250, Scale: 100 });
    await expectError(await send('GET', '/api/data/DisplaySettings?configId=4242'), 404, /Configuration 4242 not found/);
    await expectError(await send('GET', '/api/data/DisplaySettings'), 400);
    expect((await fetch(`${hw.url}/api/data/DisplaySettings?configId=1`)).status).toBe(401);
  });
});
