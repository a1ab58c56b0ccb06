// Security findings 2 and 6 (issue 14): a /mainHub connection keeps only the rights its user
// has now. A role taken away, a sign-out, a password reset by an admin, and a deleted user
// each close that user's open connections and no later invocation acts; an admin's reset
// also ends the user's REST sessions. Runs over both transports with the real SignalR client.
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { caller, connectHub, createUser, q, transports } from './support.js';

let hw: Appliance;
let admin: string;
let call: ReturnType<typeof caller>;
const roles = ['TargetManagement', 'SummaryManagement'];

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw' } });
  admin = await signIn(hw.url, 'admin', 'root-pw');
  call = caller(hw);
});
afterAll(async () => {
  await hw?.dispose();
});

const summaryNames = async () =>
  ((await (await call('/cmd/getsummaries', admin)).json()) as { Name: string }[]).map((s) => s.Name);

/** A fresh user with the roles, signed in; its cookie and id. */
async function freshUser(tag: string) {
  const email = `${tag}@example.org`;
  const id = await createUser(hw, admin, email, 'user-pw-1', roles);
  return { id, email, cookie: await signIn(hw.url, email, 'user-pw-1') };
}

/**
 * The close a signed-out user's connection gets. Over WebSockets the server's close message
 * ("You were signed out."). Over long polling the client's next poll may reach the server
 * between the session's end and the close, and is then refused with 401 "You are not signed
 * in.", which the client reports as the close: either way the connection is closed for the
 * right reason, and the lines after each check prove that nothing acts for the user.
 */
const signedOutClose = (transport: HttpTransportType) =>
  transport === HttpTransportType.WebSockets ? /You were signed out/ : /You were signed out|You are not signed in/;

for (const [name, transport] of transports) {
  describe(`/mainHub rights follow the user (${name})`, () => {
    it('a role taken away closes the connection, and no new connection may use it', async () => {
      const u = await freshUser(`roles-${name}`);
      const hub = await connectHub(hw, u.cookie, transport);
      // The right works while it is held.
      await hub.connection.invoke('CreateSummary', `before-${name}`);
      const r = await call(`/api/user/${u.id}`, admin, { method: 'PATCH', body: JSON.stringify({ EmailAddress: u.email, Roles: ['TargetManagement'] }) });
      expect(r.status).toBe(200);
      expect((await hub.closed)?.message).toMatch(/permissions changed/);
      await expect(hub.connection.invoke('CreateSummary', `after-${name}`)).rejects.toThrow();
      // Connecting again gives the rights the user has now.
      const again = await connectHub(hw, u.cookie, transport);
      await expect(again.connection.invoke('CreateSummary', `again-${name}`)).rejects.toThrow(/SummaryManagement/);
      await again.connection.stop();
      const names = await summaryNames();
      expect(names).toContain(`before-${name}`);
      expect(names).not.toContain(`after-${name}`);
      expect(names).not.toContain(`again-${name}`);
    });

    it('a role given does not close the connection', async () => {
      const u = await freshUser(`grant-${name}`);
      const hub = await connectHub(hw, u.cookie, transport);
      const r = await call(`/api/user/${u.id}`, admin, { method: 'PATCH', body: JSON.stringify({ EmailAddress: u.email, Roles: [...roles, 'SettingsManagement'] }) });
      expect(r.status).toBe(200);
      // Invocations keep working on the same connection, with the new rights.
      await hub.connection.invoke('CreateSummary', `granted-${name}`);
      expect(await summaryNames()).toContain(`granted-${name}`);
      await hub.connection.stop();
      expect(await hub.closed).toBeUndefined();
    });

    it('signing out closes the connections of that session', async () => {
      const u = await freshUser(`signout-${name}`);
      const otherDevice = await signIn(hw.url, u.email, 'user-pw-1');
      const hub = await connectHub(hw, u.cookie, transport);
      const other = await connectHub(hw, otherDevice, transport);
      expect((await call('/api/Account/Logout', u.cookie, { method: 'POST' })).status).toBe(204);
      expect((await hub.closed)?.message).toMatch(signedOutClose(transport));
      await expect(hub.connection.invoke('CreateSummary', `signed-out-${name}`)).rejects.toThrow();
      // The session on the other device stays signed in.
      await other.connection.invoke('CreateSummary', `other-device-${name}`);
      await other.connection.stop();
      expect(await summaryNames()).not.toContain(`signed-out-${name}`);
    });

    it("an admin's password reset ends the user's sessions, REST and hub", async () => {
      const u = await freshUser(`reset-${name}`);
      const hub = await connectHub(hw, u.cookie, transport);
      const r = await call(`/api/user?id=${u.id}&newPassword=${q('reset-pw-2')}`, admin, { method: 'PATCH' });
      expect(r.status).toBe(204);
      expect((await hub.closed)?.message).toMatch(signedOutClose(transport));
      expect((await call('/api/Account/GetCurrentUser', u.cookie)).status).toBe(401);
      // The admin's own session is untouched, and the user signs in with the new password.
      expect((await call('/api/Account/GetCurrentUser', admin)).status).toBe(200);
      expect((await call('/api/Account/GetCurrentUser', await signIn(hw.url, u.email, 'reset-pw-2'))).status).toBe(200);
    });

    it('a password change by the user closes their other sessions but keeps the current one', async () => {
      const u = await freshUser(`change-${name}`);
      const otherDevice = await signIn(hw.url, u.email, 'user-pw-1');
      const here = await connectHub(hw, u.cookie, transport);
      const there = await connectHub(hw, otherDevice, transport);
      const r = await call(`/api/Account?currentPassword=${q('user-pw-1')}&newPassword=${q('user-pw-2')}`, u.cookie, { method: 'PATCH' });
      expect(r.status).toBe(200);
      expect((await there.closed)?.message).toMatch(signedOutClose(transport));
      await here.connection.invoke('CreateSummary', `kept-${name}`);
      await here.connection.stop();
      expect((await call('/api/Account/GetCurrentUser', otherDevice)).status).toBe(401);
    });

    it('deleting the user closes their connections; nothing acts for them afterwards', async () => {
      const u = await freshUser(`deleted-${name}`);
      const hub = await connectHub(hw, u.cookie, transport);
      expect((await call(`/api/user/${u.id}`, admin, { method: 'DELETE' })).status).toBe(204);
      expect((await hub.closed)?.message).toMatch(signedOutClose(transport));
      await expect(hub.connection.invoke('CreateSummary', `deleted-${name}`)).rejects.toThrow();
      await expect(connectHub(hw, u.cookie, transport)).rejects.toThrow(/401/);
      expect(await summaryNames()).not.toContain(`deleted-${name}`);
    });
  });
}
