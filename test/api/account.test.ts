// Account calls over real HTTP against a started appliance with a temporary DuckDB file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';

let hw: Appliance;
beforeAll(async () => {
  // The test client stands for a reverse proxy on loopback, so X-Forwarded-For names the
  // "client" of each case (test/security checks that no address is believed by default).
  hw = await startAppliance({ env: { HOPWATCH_TRUSTED_PROXIES: '127.0.0.1' } });
});
afterAll(async () => {
  await hw?.dispose();
});

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const login = (Username: string, Password: string, RememberMe = false, headers: Record<string, string> = {}) =>
  fetch(`${hw.url}/api/Account/Login`, { ...json({ Username, Password, RememberMe }), headers: { 'content-type': 'application/json', ...headers } });

describe('first start', () => {
  it('prints a generated temporary password once and flags it', async () => {
    expect(hw.rootPassword).toMatch(/^\S{16}$/);
    const r = await login('admin', hw.rootPassword!);
    expect(r.status).toBe(200);
    const user = await r.json();
    expect(user).toMatchObject({ Username: 'admin', IsRoot: true, IsUser: true, IsLiveshare: false, LicenseMode: 3, Flags: ['pp2import', 'insight-detail'] });
    expect(user.Claims).toContain('temppassword');
    expect(user.Claims).toContain('UserManagement');
  });

  it('never writes the password to the log', () => {
    const logLines = hw.output().split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(hw.rootPassword!);
  });
});

describe('sign-in', () => {
  it('sets an httpOnly SameSite=Lax browser-session cookie, persistent with RememberMe', async () => {
    const plain = (await login('admin', hw.rootPassword!)).headers.getSetCookie()[0];
    expect(plain).toMatch(/HttpOnly/i);
    expect(plain).toMatch(/SameSite=Lax/i);
    expect(plain).not.toMatch(/Max-Age|Expires/i);
    const remembered = (await login('admin', hw.rootPassword!, true)).headers.getSetCookie()[0];
    expect(remembered).toMatch(/Max-Age=\d+/i);
  });

  it('answers the same for an unknown user and a wrong password', async () => {
    const a = await login('nobody-here', 'x', false, { 'x-forwarded-for': '203.0.113.1' });
    const b = await login('admin', 'wrong', false, { 'x-forwarded-for': '203.0.113.2' });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(await a.json()).toEqual(await b.json());
  });

  it('rate limits failed sign-ins per user and address with 429', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 5; i++) expect((await login('admin', `bad${i}`, false, headers)).status).toBe(401);
    const limited = await login('admin', hw.rootPassword!, false, headers);
    expect(limited.status).toBe(429);
    expect((await limited.json()).Error).toMatch(/Too many failed sign-in attempts/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await login('admin', hw.rootPassword!, false, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
  });

  it('rejects blank fields with the console texts', async () => {
    const r1 = await login('', 'x');
    expect(r1.status).toBe(400);
    expect((await r1.json()).Error).toBe('Your username cannot be blank');
    const r2 = await login('admin', '');
    expect((await r2.json()).Error).toBe('Password cannot be blank');
  });
});

describe('session calls', () => {
  it('gates private calls with 401 and answers public ones', async () => {
    expect((await fetch(`${hw.url}/api/Account/TestPublic`)).status).toBe(200);
    const r = await fetch(`${hw.url}/api/Account/TestPrivate`);
    expect(r.status).toBe(401);
    expect((await r.json()).Error).toBeTruthy();
    expect((await fetch(`${hw.url}/api/Account/GetCurrentUser`)).status).toBe(401);
    const cookie = await signIn(hw.url, 'admin', hw.rootPassword!);
    expect((await fetch(`${hw.url}/api/Account/TestPrivate`, { headers: { cookie } })).status).toBe(200);
  });

  it('logout ends the session (POST and GET)', async () => {
    for (const method of ['POST', 'GET']) {
      const cookie = await signIn(hw.url, 'admin', hw.rootPassword!);
      const out = await fetch(`${hw.url}/api/Account/Logout`, { method, headers: { cookie } });
      expect(out.status).toBe(204);
      expect(out.headers.getSetCookie()[0]).toMatch(/hopwatch_session=;/);
      expect((await fetch(`${hw.url}/api/Account/GetCurrentUser`, { headers: { cookie } })).status).toBe(401);
    }
  });
});

describe('bad input never crashes the server', () => {
  it('answers 4xx with an Error text', async () => {
    const cases: [RequestInit & { path: string }, number][] = [
      [{ path: '/api/Account/Login', ...json({ Username: 'a' }) }, 400],
      [{ path: '/api/Account/Login', ...json({ Username: 5, Password: [] }) }, 400],
      [{ path: '/api/Account/Login', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Username":' }, 400],
      [{ path: '/api/Account/Login', method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }, 415],
      [{ path: '/api/Account/Login', ...json({ Username: 'a', Password: 'x'.repeat(1024 * 1024) }) }, 413],
      [{ path: '/api/no/such/call', method: 'GET' }, 404],
      [{ path: '/cmd/nosuchcommand', method: 'GET' }, 404],
      [{ path: '/api/Account/Login', method: 'DELETE' }, 404],
    ];
    for (const [{ path, ...init }, status] of cases) {
      const r = await fetch(`${hw.url}${path}`, init);
      expect(r.status, `${init.method} ${path}`).toBe(status);
      const body = await r.json();
      expect(typeof body.Error, `${init.method} ${path}`).toBe('string');
      expect(body.Error.length).toBeGreaterThan(0);
    }
    expect((await fetch(`${hw.url}/healthz`)).status).toBe(200);
  });
});

describe('console serving', () => {
  it('returns the app for deep links and JSON 404 for unknown API paths', async () => {
    for (const path of ['/', '/targets/5', '/LiveShare/a/b', '/login?expired=true', '/no/such/page']) {
      const r = await fetch(`${hw.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/text\/html/);
      expect(await r.text()).toMatch(/<div id="root">/);
    }
    const api = await fetch(`${hw.url}/api/whatever`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/json/);
  });
});
