// Issue 39 item 13: a web user's e-mail address is one mailbox, checked at every door that
// sets one (user creation, an account's first user) and again before an activation mail
// leaves, which goes to that one address only. Before, "x@example.org, evil@evil.example"
// was stored and the activation mail went to both; a CR LF form reached a Bcc. Driven on the
// hosted flavour (it has every door) with a real SMTP server on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailSink, waitFor, type MailSink, type ReceivedMail } from '../alerts/support.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Store } from '../support/built.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

const staffUser = 'staff-mail@example.org';
const staffPassword = 'Staff-mail-pw-1';
const rootPassword = 'Root-mail-pw-1';
let hw: Appliance;
let env: Record<string, string>;
let sink: MailSink;
const mails: ReceivedMail[] = [];
let admin: string;
let staff: string;

beforeAll(async () => {
  sink = await startMailSink(0, mails);
  env = {
    HOPWATCH_DEPLOYMENT: '1',
    HOPWATCH_ENGINE: 'simulated',
    HOPWATCH_ROOT_PASSWORD: rootPassword,
    HOPWATCH_STAFF_USER: staffUser,
    HOPWATCH_STAFF_PASSWORD: staffPassword,
    HOPWATCH_SMTP_HOST: '127.0.0.1',
    HOPWATCH_SMTP_PORT: String(sink.port),
    HOPWATCH_SMTP_SECURITY: 'none',
    HOPWATCH_SMTP_FROM: 'hopwatch@example.org',
  };
  hw = await startAppliance({ env });
  admin = await signIn(hw.url, 'admin', rootPassword);
  staff = await signIn(hw.url, staffUser, staffPassword);
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
  await sink?.close();
});

const q = encodeURIComponent;
async function call(method: string, path: string, cookie: string, body?: unknown) {
  const r = await fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as { Error?: string } & Record<string, unknown> };
}
const createUser = (email: string) =>
  call('POST', `/api/user?password=${q('Temp-pw-mail-1')}`, admin, { Id: 0, Name: '', EmailAddress: email, Roles: ['TargetManagement'], IsRoot: false });

const hostile = [
  'x@example.org, evil@evil.example',
  'x@example.org,evil@evil.example',
  'x@example.org; evil@evil.example',
  // No space and one @: the accounts door's old pattern took it; a mailer reads two recipients.
  'bob,evil@evil.example',
  'x@example.org\r\nBcc: evil@evil.example',
  'Ann <x@example.org>',
  'x@example',
];

describe('a user e-mail address is one valid mailbox', () => {
  for (const email of hostile) {
    it(`user creation refuses ${JSON.stringify(email)} with 400 and no user`, async () => {
      const r = await createUser(email);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.Error).toMatch(/e-mail address/);
      const users = (await call('GET', '/api/user', admin)).body as unknown as { EmailAddress: string }[];
      expect(users.map((u) => u.EmailAddress)).not.toContain(email);
    });
  }

  it("an account's first user: the list form is refused (staff creating an account)", async () => {
    for (const email of hostile) {
      const r = await call('POST', '/api/staff/accounts', staff, { Name: `Mail ${hostile.indexOf(email)}`, UserEmail: email });
      expect(r.status, `${JSON.stringify(email)}: ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.Error).toMatch(/e-mail address/);
    }
  });

  it('SendActivationLink refuses a list as the address asked for', async () => {
    expect((await createUser('listed@example.org')).status).toBe(200);
    const r = await call('POST', `/api/user/SendActivationLink?email=${q('listed@example.org, evil@evil.example')}`, admin);
    expect(r.status).toBe(400);
    expect(r.body.Error).toMatch(/one e-mail address/);
  });

  it('a valid address is accepted and its activation mail goes to it alone', async () => {
    expect((await createUser(' solo@example.org ')).status).toBe(200);
    const r = await call('POST', `/api/user/SendActivationLink?email=${q('solo@example.org')}`, admin);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const mail = await waitFor('the activation mail', () => mails.find((m) => m.to.includes('solo@example.org')), 20_000);
    expect(mail.to).toEqual(['solo@example.org']);
    expect(mail.raw).not.toMatch(/^Bcc:/im);
  });

  it('a list stored before addresses were checked is never mailed (409, nothing sent)', async () => {
    expect((await createUser('legacy@example.org')).status).toBe(200);
    await hw.stop();
    const store = await openTestStore(hw.dataDir);
    try {
      await store.run("UPDATE users SET email = 'legacy@example.org, evil@evil.example' WHERE name = 'legacy@example.org'");
    } finally {
      await store.close();
    }
    hw = await startAppliance({ dataDir: hw.dataDir, port: hw.port, env });
    admin = await signIn(hw.url, 'admin', rootPassword);
    const before = mails.length;
    const r = await call('POST', `/api/user/SendActivationLink?email=${q('legacy@example.org, evil@evil.example')}`, admin);
    // The address asked for is refused first (a list); the stored one is checked too.
    expect(r.status).toBe(400);
    expect(mails.length).toBe(before);
    expect(mails.flatMap((m) => m.to)).not.toContain('evil@evil.example');
  });
});
