// Issue 26 item 2: a change to a user's roles reaches that user's open consoles at once, as
// the hub event UserUpdated (the console then re-reads the current user and its sidebar).
// Asserted: the event arrives (waiting at most 1 s for it), only on that user's
// connections, and the current user read afterwards carries the new claim.
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';

let hw: Appliance;
let admin: string;
const q = encodeURIComponent;

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw-updated' } });
  admin = await signIn(hw.url, 'admin', 'root-pw-updated');
});
afterAll(async () => {
  await hw?.dispose();
});

const call = (path: string, cookie: string, init: RequestInit = {}) =>
  fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });

/** A user who has replaced the admin's temporary password (or holds no hub connection before). */
const createUser = (email: string, password: string, roles: string[]) => createWebUser(hw.url, admin, { email, password, roles });

async function hubOf(cookie: string, transport: HttpTransportType): Promise<HubConnection> {
  const c = new HubConnectionBuilder().withUrl(`${hw.url}/mainHub`, { transport, headers: { cookie } }).configureLogging(LogLevel.None).build();
  await c.start();
  return c;
}

/** Resolves true when the event arrives, false when 1 s passed without it. */
function arrival(c: HubConnection, event: string): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 1000);
    c.on(event, () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('UserUpdated', () => {
  for (const [name, transport] of [
    ['WebSockets', HttpTransportType.WebSockets],
    ['LongPolling', HttpTransportType.LongPolling],
  ] as const) {
    it(`reaches the user's consoles within 1 s of a role change, and no one else's (${name})`, async () => {
      const grace = await createUser(`grace-${name}@example.org`, 'grace-pw-long', ['TargetManagement']);
      const other = await createUser(`henry-${name}@example.org`, 'henry-pw-long', ['TargetManagement']);
      const graceCookie = await signIn(hw.url, grace.EmailAddress, 'grace-pw-long');
      const otherCookie = await signIn(hw.url, other.EmailAddress, 'henry-pw-long');
      const graceHub = await hubOf(graceCookie, transport);
      const otherHub = await hubOf(otherCookie, transport);
      try {
        const graceGot = arrival(graceHub, 'UserUpdated');
        const otherGot = arrival(otherHub, 'UserUpdated');
        const r = await call(`/api/user/${grace.Id}`, admin, {
          method: 'PATCH',
          body: JSON.stringify({ ...grace, Roles: ['TargetManagement', 'SummaryManagement'] }),
        });
        expect(r.status).toBe(200);
        expect(await graceGot).toBe(true);
        expect(await otherGot).toBe(false);
        // What the console reads on the event: the user as they are now.
        const me = await (await call('/api/Account/GetCurrentUser', graceCookie)).json();
        expect(me.Claims).toContain('SummaryManagement');
        // A gained right keeps the connection open and usable with it.
        await graceHub.invoke('CreateSummary', `granted-${name}`);
      } finally {
        await graceHub.stop();
        await otherHub.stop();
      }
    });
  }
});
