// Issue 26 item 1: a web user signed in with a password an admin set may only change it.
// Every other call, REST or /mainHub, answers 403 with the spec's warning and what to do;
// sign-in, sign-out, the current user and the password change itself answer. Root's
// generated password only warns (docs/decisions.md).
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaryPasswordHeader, TemporaryPasswordText } from '../../server/contract/account.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';
import { connectHub, transports } from '../security/support.js';

let hw: Appliance;
let root: string;
const temp = 'Temporary-pw-1';
const own = 'Own-choice-pw-2';
const email = 'tess@example.org';

beforeAll(async () => {
  // No HOPWATCH_ROOT_PASSWORD: root's password is generated, and temporary too.
  hw = await startAppliance();
  root = await signIn(hw.url, 'admin', hw.rootPassword!);
  await createWebUser(hw.url, root, { email, password: temp, roles: ['UserManagement', 'TargetManagement', 'SessionManagement'], temporary: true });
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

const call = (path: string, cookie: string, init: RequestInit = {}) => fetch(`${hw.url}${path}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } });

/** The status a raw WebSocket upgrade of /mainHub gets (101 when it opens). */
function upgradeStatus(cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${hw.url.replace('http', 'ws')}/mainHub`, { headers: { cookie } });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.on('error', (err) => (err.message.includes('Unexpected server response') ? undefined : reject(err)));
  });
}

describe('a temporary password', () => {
  it('allows only the change-password calls until it is replaced, on REST and the hub', async () => {
    const cookie = await signIn(hw.url, email, temp);
    const me = await call('/api/Account/GetCurrentUser', cookie);
    expect(me.status).toBe(200);
    expect((await me.json()).Claims).toContain('temppassword');

    // Calls the user's claims allow, calls any signed-in user may make, and a state change.
    for (const [method, path] of [
      ['GET', '/api/user'],
      ['GET', '/cmd/getsummaries'],
      ['GET', '/api/Account/TestPrivate'],
      ['GET', '/api/Sessions'],
      ['PUT', '/api/kvp/set?Type=User&KeyName=K&Value=V'],
    ]) {
      const r = await call(path, cookie, { method });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.headers.get(TemporaryPasswordHeader)).toBe('True');
      expect(await r.json()).toEqual({ Error: TemporaryPasswordText });
    }

    // No live connection either: negotiation and a direct WebSocket upgrade are refused.
    const negotiate = await call('/mainHub/negotiate?negotiateVersion=1', cookie, { method: 'POST' });
    expect(negotiate.status).toBe(403);
    expect(await negotiate.json()).toEqual({ Error: TemporaryPasswordText });
    expect(await upgradeStatus(cookie)).toBe(403);

    // Sign-out and sign-in still answer.
    expect((await call('/api/Account/Logout', cookie, { method: 'POST' })).status).toBe(204);
    const again = await signIn(hw.url, email, temp);

    // The change itself answers, and from then on the user calls as their claims allow.
    const changed = await call(`/api/Account?currentPassword=${temp}&newPassword=${own}`, again, { method: 'PATCH' });
    expect(changed.status).toBe(200);
    expect((await changed.json()).Claims).not.toContain('temppassword');
    expect((await call('/api/user', again)).status).toBe(200);
    expect((await call('/cmd/getsummaries', again)).status).toBe(200);
    // The refused write stored nothing.
    const stored = await call('/api/kvp/get?Type=User&KeyName=K', again);
    expect(stored.status).toBe(200);
    expect(await stored.json()).toBeNull();
    for (const [, transport] of transports) {
      const hub = await connectHub(hw, again, transport);
      expect(await hub.connection.invoke('GetIsMagneto')).toEqual(expect.any(Boolean));
      await hub.connection.stop();
    }
    expect(await upgradeStatus(again)).toBe(101);
  });

  it('set again by an admin (a reset) is temporary again', async () => {
    const list = (await (await call(`/api/user?filter=${email}`, root)).json()) as { Id: number }[];
    expect((await call(`/api/user?id=${list[0].Id}&newPassword=Reset-by-admin-3`, root, { method: 'PATCH' })).status).toBe(204);
    const cookie = await signIn(hw.url, email, 'Reset-by-admin-3');
    const r = await call('/api/user', cookie);
    expect(r.status).toBe(403);
    expect(await r.json()).toEqual({ Error: TemporaryPasswordText });
  });

  it("only warns root about the generated password: root's calls answer", async () => {
    const me = await (await call('/api/Account/GetCurrentUser', root)).json();
    expect(me.Claims).toContain('temppassword');
    expect((await call('/api/user', root)).status).toBe(200);
    const negotiate = await call('/mainHub/negotiate?negotiateVersion=1', root, { method: 'POST' });
    expect(negotiate.status).toBe(200);
  });

  it('limits wrong current passwords like failed sign-ins (429 with Retry-After)', async () => {
    await createWebUser(hw.url, root, { email: 'pat@example.org', password: 'Guessed-never-1' });
    const cookie = await signIn(hw.url, 'pat@example.org', 'Guessed-never-1');
    const attempt = (current: string) => call(`/api/Account?currentPassword=${current}&newPassword=Another-pw-77`, cookie, { method: 'PATCH' });
    for (let i = 0; i < 5; i++) expect((await attempt(`wrong-guess-${i}`)).status).toBe(400);
    const limited = await attempt('wrong-guess-5');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).Error).toMatch(/^Too many wrong passwords/);
    // Even the right one waits now.
    expect((await attempt('Guessed-never-1')).status).toBe(429);
  });
});
