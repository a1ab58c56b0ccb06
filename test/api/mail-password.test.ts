// Issue 39 items 1 and 12: the stored SMTP password. It is never answered (HasPassword only),
// an update that leaves it blank or out keeps it, it is stored sealed under the data
// directory's liveshare.key (never in clear in the database) and opens again after a restart
// for SMTP AUTH against a real SMTP server; a clear one stored by an older version is sealed
// at start; ClearPassword removes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { withStore } from '../support/staff-users.js';
import { startAuthSmtp, type AuthSmtp } from '../security/auth-smtp.js';

const RootPw = 'root-pw-mail-password';
const Secret = 'smtp-secret-Zq81';
let hw: Appliance;
let smtp: AuthSmtp;
let admin: string;

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(`${hw.url}${path}`, {
    method,
    headers: { cookie: admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, text, body: text ? JSON.parse(text) : null };
}

/** Sends the test mail; answers the login the SMTP server received for it. */
async function loginOfTestMail(): Promise<string | undefined> {
  const before = smtp.logins.length;
  const sent = await call('POST', '/api/mail/test', { To: 'noc@example.org' });
  expect(sent.status, sent.text).toBe(200);
  expect(sent.body.Ok, sent.text).toBe(true);
  return smtp.logins.slice(before)[0];
}

const storedRows = (dataDir: string) =>
  withStore(dataDir, (store) => store.all<{ name: string; value: string }>('SELECT name, value FROM mail_settings ORDER BY name'));

async function restartWith(change?: (dataDir: string) => Promise<void>) {
  await hw.stop();
  if (change) await change(hw.dataDir);
  hw = await hw.restart();
  admin = await signIn(hw.url, 'admin', RootPw);
}

beforeAll(async () => {
  smtp = await startAuthSmtp();
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPw } });
  admin = await signIn(hw.url, 'admin', RootPw);
}, 120_000);

afterAll(async () => {
  await hw?.dispose();
  await smtp?.close();
});

describe('the stored SMTP password', () => {
  it('is answered as HasPassword only, and is kept by an update that leaves it blank or out', async () => {
    const put = await call('PUT', '/api/mail/settings', { Host: '127.0.0.1', Port: smtp.port, Security: 'none', User: 'relay-user', Password: Secret });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ User: 'relay-user', HasPassword: true });
    expect(put.text).not.toContain(Secret);
    const got = await call('GET', '/api/mail/settings');
    expect(got.body.HasPassword).toBe(true);
    expect(got.text).not.toContain(Secret);
    expect(await loginOfTestMail()).toBe(`relay-user:${Secret}`);

    // What the console's form sends when nobody typed a password: blank, or nothing.
    for (const body of [{ Host: '127.0.0.1', Port: smtp.port, User: 'relay-user', Password: '' }, { From: 'hopwatch@example.org' }]) {
      const kept = await call('PUT', '/api/mail/settings', body);
      expect(kept.status, kept.text).toBe(200);
      expect(kept.body.HasPassword).toBe(true);
      expect(await loginOfTestMail()).toBe(`relay-user:${Secret}`);
    }
  });

  it('is stored sealed, not in clear, and opens again after a restart', async () => {
    await hw.stop();
    const rows = await storedRows(hw.dataDir);
    expect(rows.map((r) => r.value)).not.toContain(Secret);
    expect(rows.some((r) => r.value.includes(Secret))).toBe(false);
    expect(rows.find((r) => r.name === 'PasswordSealed')?.value).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    hw = await hw.restart();
    admin = await signIn(hw.url, 'admin', RootPw);
    expect((await call('GET', '/api/mail/settings')).body.HasPassword).toBe(true);
    expect(await loginOfTestMail()).toBe(`relay-user:${Secret}`);
  });

  it('stored in clear by an older version, is sealed at start and still used', async () => {
    const Old = 'older-clear-pw-4';
    await restartWith((dataDir) =>
      withStore(dataDir, async (store) => {
        await store.run(`DELETE FROM mail_settings WHERE name IN ('Password', 'PasswordSealed')`);
        await store.run(`INSERT INTO mail_settings VALUES ('Password', $1, $2)`, [Old, Date.now()]);
      }),
    );
    expect(await loginOfTestMail()).toBe(`relay-user:${Old}`);
    await hw.stop();
    const rows = await storedRows(hw.dataDir);
    expect(rows.map((r) => r.name)).not.toContain('Password');
    expect(rows.some((r) => r.value.includes(Old))).toBe(false);
    hw = await hw.restart();
    admin = await signIn(hw.url, 'admin', RootPw);
    expect(await loginOfTestMail()).toBe(`relay-user:${Old}`);
  });

  it('is removed by ClearPassword only, and not given with a new one at once', async () => {
    const both = await call('PUT', '/api/mail/settings', { Password: 'x-new-1', ClearPassword: true });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ Error: expect.any(String) });
    const cleared = await call('PUT', '/api/mail/settings', { ClearPassword: true });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.HasPassword).toBe(false);
  });
});
