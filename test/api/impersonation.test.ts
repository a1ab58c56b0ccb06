// Issue 26 item 3: impersonation. A user with ImpersonateUser acts as another user of the
// account (IsImpersonating), never as root or as someone holding claims they lack; start,
// end and every state-changing call meanwhile (REST and hub) land in the audit root reads.
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CurrentUser, ImpersonationAuditEntry, ImpersonationCandidate } from '../../server/contract/account.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';
import { connectHub } from '../security/support.js';

let hw: Appliance;
let root: string;
const ids: Record<string, number> = {};
const pw = (name: string) => `Secret-${name.length}${name.charCodeAt(0)}-pw`;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-imp' } });
  root = await signIn(hw.url, 'admin', 'root-pw-imp');
  const make = async (name: string, roles: string[], temporary = false) => {
    ids[name] = (await createWebUser(hw.url, root, { email: `${name}@example.org`, password: pw(name), roles, temporary })).Id;
  };
  await make('ivy', ['ImpersonateUser', 'TargetManagement', 'SummaryManagement']);
  await make('jack', ['TargetManagement']);
  await make('kim', ['TargetManagement', 'UserManagement']);
  await make('leo', [], true);
  const list = (await (await call('/api/user', root)).json()) as { Id: number; IsRoot: boolean }[];
  ids.root = list.find((u) => u.IsRoot)!.Id;
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
});

const call = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
const post = (path: string, cookie: string) => call(path, cookie, { method: 'POST' });
const me = async (cookie: string) => (await (await call('/api/Account/GetCurrentUser', cookie)).json()) as CurrentUser;
const audit = async () => (await (await call('/api/user/ImpersonationAudit', root)).json()) as ImpersonationAuditEntry[];

describe('impersonation', () => {
  it('root holds ImpersonateUser and can grant it', async () => {
    expect((await me(root)).Claims).toContain('ImpersonateUser');
    const roles = await (await call('/api/user/api/roles', root)).json();
    expect(roles).toContainEqual({ DisplayString: 'Impersonate User', StorageString: 'ImpersonateUser' });
  });

  it('offers only users it cannot climb through, and refuses the others', async () => {
    const ivy = await signIn(hw.url, 'ivy@example.org', pw('ivy'));
    const offered = (await (await call('/api/Account/Impersonate', ivy)).json()) as ImpersonationCandidate[];
    expect(offered.map((u) => u.EmailAddress).sort()).toEqual(['jack@example.org', 'leo@example.org']);

    const refused = async (id: number, status: number, text: RegExp) => {
      const r = await post(`/api/Account/Impersonate?userId=${id}`, ivy);
      expect(r.status, String(id)).toBe(status);
      expect((await r.json()).Error).toMatch(text);
    };
    await refused(ids.root, 403, /^The root user cannot be impersonated\.$/);
    await refused(ids.kim, 403, /permissions you do not have \(UserManagement\)/);
    await refused(ids.ivy, 403, /cannot impersonate yourself/);
    await refused(2_000_000, 404, /not found/);
    expect((await me(ivy)).Username).toBe('ivy@example.org');

    // Without the claim: 403 on both calls.
    const jack = await signIn(hw.url, 'jack@example.org', pw('jack'));
    expect((await call('/api/Account/Impersonate', jack)).status).toBe(403);
    expect((await post(`/api/Account/Impersonate?userId=${ids.leo}`, jack)).status).toBe(403);
  });

  it('acts as the user, records what changed, and clears back to the original user', async () => {
    const ivy = await signIn(hw.url, 'ivy@example.org', pw('ivy'));
    // A hub connection opened before: it is closed when the session becomes someone else.
    const before = await connectHub(hw, ivy, HttpTransportType.WebSockets);

    const started = await post(`/api/Account/Impersonate?userId=${ids.jack}`, ivy);
    expect(started.status).toBe(200);
    const asJack = (await started.json()) as CurrentUser;
    expect(asJack.Username).toBe('jack@example.org');
    expect([...asJack.Claims].sort()).toEqual(['IsImpersonating', 'TargetManagement']);
    expect(asJack.Message).toBe('Signed in as ivy@example.org, impersonating jack@example.org.');
    expect(await me(ivy)).toEqual(asJack);
    expect(await before.closed).toBeInstanceOf(Error);

    // Jack's rights, not Ivy's: no SummaryManagement (refused, and recorded as an attempt).
    expect((await call('/cmd/createsummary?name=From-ivy', ivy)).status).toBe(403);
    // A state change Jack may make, and a read (not recorded).
    expect((await call('/api/kvp/set?Type=User&KeyName=Note&Value=by-ivy', ivy, { method: 'PUT' })).status).toBe(204);
    expect((await call('/cmd/getsummaries', ivy)).status).toBe(200);
    // No password change as someone else, no second impersonation, no audit for non-root.
    expect((await call(`/api/Account?currentPassword=${pw('jack')}&newPassword=Taken-over-1`, ivy, { method: 'PATCH' })).status).toBe(403);
    // Jack cannot impersonate (a target holding ImpersonateUser would get 409: clear first).
    expect((await post(`/api/Account/Impersonate?userId=${ids.leo}`, ivy)).status).toBe(403);
    expect((await call('/api/user/ImpersonationAudit', ivy)).status).toBe(403);

    // The hub acts as Jack too, and its state-changing methods are recorded.
    const hub = await connectHub(hw, ivy, HttpTransportType.LongPolling);
    await expect(hub.connection.invoke('ResetAndRestart', 2_000_000)).rejects.toThrow();
    await expect(hub.connection.invoke('CreateSummary', 'hub-summary')).rejects.toThrow(/SummaryManagement/);
    expect(await hub.connection.invoke('GetIsMagneto')).toEqual(expect.any(Boolean));
    await hub.connection.stop();

    const cleared = await post('/api/Account/ClearImpersonation', ivy);
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as CurrentUser).Username).toBe('ivy@example.org');
    expect((await me(ivy)).Claims).not.toContain('IsImpersonating');
    expect((await post('/api/Account/ClearImpersonation', ivy)).status).toBe(409);
    // Jack's own value was written as Jack.
    const jack = await signIn(hw.url, 'jack@example.org', pw('jack'));
    expect(await (await call('/api/kvp/get?Type=User&KeyName=Note', jack)).json()).toBe('by-ivy');

    const rows = (await audit()).filter((r) => r.ActorId === ids.ivy && r.AsUserId === ids.jack).reverse();
    expect(rows.map((r) => [r.Action, r.Detail, r.Status])).toEqual([
      ['start', '', 0],
      ['call', 'GET /cmd/createsummary', 403],
      ['call', 'PUT /api/kvp/set', 204],
      ['call', 'PATCH /api/Account', 403],
      // Refused, so written like any other call (issue 39 item 14; a started one writes 'start').
      ['call', 'POST /api/Account/Impersonate', 403],
      ['call', 'hub ResetAndRestart', 0],
      ['end', '', 0],
    ]);
    for (const r of rows) {
      expect(r).toMatchObject({ Actor: 'ivy@example.org', AsUser: 'jack@example.org', Address: '127.0.0.1' });
      expect(Date.parse(r.Time)).toBeGreaterThan(Date.now() - 10 * 60_000);
    }
    // Queries (which may carry passwords) are never written.
    expect(rows.some((r) => r.Detail.includes('?'))).toBe(false);
  });

  it('ends by itself when the user impersonated gains a claim the impersonator lacks', async () => {
    const ivy = await signIn(hw.url, 'ivy@example.org', pw('ivy'));
    expect((await post(`/api/Account/Impersonate?userId=${ids.jack}`, ivy)).status).toBe(200);
    const patched = await call(`/api/user/${ids.jack}`, root, {
      method: 'PATCH',
      body: JSON.stringify({ EmailAddress: 'jack@example.org', Roles: ['TargetManagement', 'UserManagement'] }),
    });
    expect(patched.status).toBe(200);
    const now = await me(ivy);
    expect(now.Username).toBe('ivy@example.org');
    expect(now.Claims).not.toContain('IsImpersonating');
    expect((await call('/api/user', ivy)).status).toBe(403);
  });

  it('acts as a user who still has a temporary password without being held by it', async () => {
    const ivy = await signIn(hw.url, 'ivy@example.org', pw('ivy'));
    await post('/api/Account/ClearImpersonation', ivy);
    const started = await post(`/api/Account/Impersonate?userId=${ids.leo}`, ivy);
    expect(started.status).toBe(200);
    expect(((await started.json()) as CurrentUser).Claims).toEqual(['IsImpersonating']);
    expect((await call('/cmd/getsummaries', ivy)).status).toBe(200);
    expect((await post('/api/Account/ClearImpersonation', ivy)).status).toBe(200);
  });

  it("belongs to the impersonator: their sessions ending closes its hub connection, the target's do not", async () => {
    const ivy = await signIn(hw.url, 'ivy@example.org', pw('ivy'));
    expect((await post(`/api/Account/Impersonate?userId=${ids.leo}`, ivy)).status).toBe(200);
    const hub = await connectHub(hw, ivy, HttpTransportType.WebSockets);
    // Leo's password reset ends Leo's sessions, not Ivy's.
    expect((await call(`/api/user?id=${ids.leo}&newPassword=Reset-for-l-42`, root, { method: 'PATCH' })).status).toBe(204);
    expect(await hub.connection.invoke('GetIsMagneto')).toEqual(expect.any(Boolean));
    expect((await me(ivy)).Username).toBe('leo@example.org');
    // Ivy's password reset ends Ivy's session, and the connection with it.
    expect((await call(`/api/user?id=${ids.ivy}&newPassword=Reset-for-i-42`, root, { method: 'PATCH' })).status).toBe(204);
    expect(await hub.closed).toBeInstanceOf(Error);
    expect((await call('/api/Account/GetCurrentUser', ivy)).status).toBe(401);
  });
});
