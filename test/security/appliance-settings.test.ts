// Issue 39 item 1: the cross-account takeover through the mail settings, on a hosted
// (HOPWATCH_DEPLOYMENT=1) appliance with two customer accounts. Customer B's first user holds
// every claim a web user can hold, SettingsManagement too, yet the appliance-wide settings
// (mail, disk use) are the provider's: B can neither read the provider's SMTP host and user
// nor point the mail at its own server, so A's activation link (and the provider's SMTP AUTH)
// keep going to the provider's server. The provider (a staff user, and the root user: the
// appliance operator) still reads and changes them; a stored password is never answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { caller, q } from './support.js';
import { hostedCustomer, type HostedCustomer } from './hosted-customer.js';
import { startAuthSmtp, type AuthSmtp } from './auth-smtp.js';

const staff = { user: 'ops@provider.example', password: 'Staff-pw-appliance-1' };
const RootPw = 'root-pw-appliance';
const ProviderSmtpUser = 'provider-smtp-login';
const ProviderSmtpPassword = 'provider-smtp-secret-7';
let hw: Appliance;
let call: ReturnType<typeof caller>;
let providerSmtp: AuthSmtp;
let customerSmtp: AuthSmtp;
let a: HostedCustomer;
let b: HostedCustomer;
let staffCookie: string;

const json = async (r: Response) => ({ status: r.status, text: await r.text() });

beforeAll(async () => {
  [providerSmtp, customerSmtp] = await Promise.all([startAuthSmtp(), startAuthSmtp()]);
  hw = await startAppliance({
    env: { HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: RootPw, HOPWATCH_STAFF_USER: staff.user, HOPWATCH_STAFF_PASSWORD: staff.password },
  });
  call = caller(hw);
  staffCookie = await signIn(hw.url, staff.user, staff.password);
  a = await hostedCustomer(hw, staff, 'Account A', 'amy@a.example');
  b = await hostedCustomer(hw, staff, 'Account B', 'bea@b.example');
}, 120_000);

afterAll(async () => {
  await hw?.dispose();
  await Promise.all([providerSmtp?.close(), customerSmtp?.close()]);
});

describe('appliance-wide settings in the hosted flavour', () => {
  it('the provider (staff) sets the mail settings; the stored password is never answered', async () => {
    const put = await json(
      await call('/api/mail/settings', staffCookie, {
        method: 'PUT',
        body: JSON.stringify({ Host: '127.0.0.1', Port: providerSmtp.port, Security: 'none', User: ProviderSmtpUser, Password: ProviderSmtpPassword, From: 'noc@provider.example' }),
      }),
    );
    expect(put.status, put.text).toBe(200);
    expect(JSON.parse(put.text)).toMatchObject({ Host: '127.0.0.1', Port: providerSmtp.port, User: ProviderSmtpUser, HasPassword: true });
    expect(put.text).not.toContain(ProviderSmtpPassword);
    for (const cookie of [staffCookie, await signIn(hw.url, 'admin', RootPw)]) {
      const got = await json(await call('/api/mail/settings', cookie));
      expect(got.status, got.text).toBe(200);
      expect(JSON.parse(got.text)).toMatchObject({ Host: '127.0.0.1', User: ProviderSmtpUser, HasPassword: true });
      expect(got.text).not.toContain(ProviderSmtpPassword);
    }
  });

  it("a customer's admin can neither read nor change them, nor mail through them, nor read the disk use", async () => {
    const read = await json(await call('/api/mail/settings', b.cookie));
    expect(read.status).toBe(403);
    expect(JSON.parse(read.text)).toEqual({ Error: expect.stringMatching(/^This needs the provider/) });
    expect(read.text).not.toContain(ProviderSmtpUser);
    expect(read.text).not.toContain(String(providerSmtp.port));

    const takeover = await json(
      await call('/api/mail/settings', b.cookie, {
        method: 'PUT',
        body: JSON.stringify({ Host: '127.0.0.1', Port: customerSmtp.port, Security: 'none', User: 'b-user', Password: 'b-password' }),
      }),
    );
    expect(takeover.status).toBe(403);
    expect(JSON.parse(takeover.text).Error).toMatch(/^This needs the provider/);

    const test = await json(await call('/api/mail/test', b.cookie, { method: 'POST', body: JSON.stringify({ To: 'bea@b.example' }) }));
    expect(test.status).toBe(403);
    const storage = await json(await call('/api/settings/storage', b.cookie));
    expect(storage.status).toBe(403);

    // Unchanged, as the provider sees them.
    const now = JSON.parse((await json(await call('/api/mail/settings', staffCookie))).text) as { Port: number; User: string };
    expect(now).toMatchObject({ Port: providerSmtp.port, User: ProviderSmtpUser });
  });

  it("A's activation link still goes through the provider's server, never B's", async () => {
    const created = await json(
      await call(`/api/user?password=${q('First-temp-pw-9')}`, a.cookie, {
        method: 'POST',
        body: JSON.stringify({ Id: 0, Name: '', EmailAddress: 'carl@a.example', Roles: ['TargetManagement'], IsRoot: false }),
      }),
    );
    expect(created.status, created.text).toBe(200);
    const sent = await json(await call(`/api/user/SendActivationLink?email=${q('carl@a.example')}`, a.cookie, { method: 'POST' }));
    expect(sent.status, sent.text).toBe(200);
    expect(providerSmtp.recipients).toContain('carl@a.example');
    // The sealed password opened again for SMTP AUTH.
    expect(providerSmtp.logins).toContain(`${ProviderSmtpUser}:${ProviderSmtpPassword}`);
    expect(customerSmtp.logins).toEqual([]);
    expect(customerSmtp.recipients).toEqual([]);
  });

  it("a customer's own settings stay theirs", async () => {
    const settings = await call('/api/Settings/getsettings', b.cookie);
    expect(settings.status).toBe(200);
    const traits = await call('/api/Settings/getsettingtraits', b.cookie);
    expect(traits.status).toBe(200);
  });
});
