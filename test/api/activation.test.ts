// Activation links (issue 26): POST /api/user/SendActivationLink mails a one-time link through
// a real SMTP server on loopback; the link's token sets the user's own password (the public
// /api/Account/ActivationLink and /api/Account/Activate calls of the console's /activate
// page), after which the user signs in with it. Reuse, a replaced link and an expired link are
// refused; no SMTP server, an unknown address, root and a caller without UserManagement get
// clear errors; bad links are rate limited; no token appears in the server's output.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMailSink, waitFor, type MailSink, type ReceivedMail } from '../alerts/support.js';
import { freePort, signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Store } from '../support/built.js';
import { createWebUser } from '../support/web-users.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

let hw: Appliance;
let admin: string;
let sink: MailSink;
const mails: ReceivedMail[] = [];
const tokens: string[] = [];
let env: Record<string, string>;
/** What the appliance printed before a restart. */
let earlierOutput = '';

beforeAll(async () => {
  sink = await startMailSink(0, mails);
  env = {
    HOPWATCH_ROOT_PASSWORD: 'activation-root-pw',
    HOPWATCH_SMTP_HOST: '127.0.0.1',
    HOPWATCH_SMTP_PORT: String(sink.port),
    HOPWATCH_SMTP_SECURITY: 'none',
    HOPWATCH_SMTP_FROM: 'hopwatch@example.org',
    // Every request is a log line at debug: none may carry a token.
    HOPWATCH_LOG_LEVEL: 'debug',
  };
  hw = await startAppliance({ env });
  admin = await signIn(hw.url, 'admin', 'activation-root-pw');
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
  await sink?.close();
});

const q = encodeURIComponent;
async function call(method: string, path: string, opts: { cookie?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${hw.url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : null };
}
const sendLink = (email: string, cookie = admin) => call('POST', `/api/user/SendActivationLink?email=${q(email)}`, { cookie });
const describeLink = (token: string) => call('POST', '/api/Account/ActivationLink', { body: { Token: token } });
const activate = (token: string, password: string) => call('POST', '/api/Account/Activate', { body: { Token: token, NewPassword: password } });

async function createUser(email: string, tempPassword: string) {
  const r = await call('POST', `/api/user?password=${q(tempPassword)}`, { cookie: admin, body: { Id: 0, Name: '', EmailAddress: email, Roles: ['TargetManagement'], IsRoot: false } });
  expect(r.status).toBe(200);
  return r.body as { Id: number };
}

/** The raw message without quoted-printable soft breaks and escapes (nodemailer may use them). */
const decoded = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Waits for the n-th mail to `to` and returns the token of its link. */
async function tokenOfMail(to: string, n = 1): Promise<{ token: string; text: string }> {
  const mail = await waitFor(`activation mail ${n} to ${to}`, () => mails.filter((m) => m.to.includes(to))[n - 1], 20_000);
  const text = decoded(mail.raw);
  expect(text).toMatch(/^Subject: Set your Hopwatch password$/m);
  const links = [...text.matchAll(/(https?:\/\/[^\s"<>]+)\/activate#([A-Za-z0-9_-]+)/g)];
  expect(links.length).toBeGreaterThan(0);
  // The same link in the text and the HTML part; the link opens this server's console.
  expect(new Set(links.map((l) => l[2])).size).toBe(1);
  expect(links[0][1]).toBe(hw.url);
  const token = links[0][2];
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  tokens.push(token);
  return { token, text };
}

describe('an activation link', () => {
  it('is mailed, names the user, sets their own password once, and the user signs in with it', async () => {
    await createUser('erin@example.org', 'first-temp-pw1');
    // Signed in with the temporary password before the link is used: that session ends.
    const before = await signIn(hw.url, 'erin@example.org', 'first-temp-pw1');

    const sent = await sendLink('Erin@Example.org');
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.EmailAddress).toBe('erin@example.org');
    const expiresIn = Date.parse(sent.body.ExpiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);
    expect(sent.body.Message).toMatch(/mailed to erin@example\.org/);

    const { token, text } = await tokenOfMail('erin@example.org');
    expect(text).toMatch(/^From: hopwatch@example\.org$/m);
    expect(text).toContain('sign in as erin@example.org');

    const info = await describeLink(token);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ Username: 'erin@example.org', EmailAddress: 'erin@example.org', ExpiresAt: sent.body.ExpiresAt });

    // The password policy applies, and a refused password leaves the link working.
    const short = await activate(token, 'short');
    expect(short.status).toBe(400);
    expect(short.body.Error).toBe('A password needs at least 8 characters.');
    const named = await activate(token, 'my-erin-password');
    expect(named.body.Error).toBe('A password cannot be or contain the user name.');
    expect((await describeLink(token)).status).toBe(200);

    const done = await activate(token, 'chosen by me 42');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.Username).toBe('erin@example.org');

    // Signed in with the new password, not temporary: ordinary calls answer.
    const erin = await signIn(hw.url, 'erin@example.org', 'chosen by me 42');
    const me = await call('GET', '/api/Account/GetCurrentUser', { cookie: erin });
    expect(me.body.Claims).toEqual(['TargetManagement']);
    expect((await call('GET', '/cmd/getsummaries', { cookie: erin })).status).toBe(200);
    await expect(signIn(hw.url, 'erin@example.org', 'first-temp-pw1')).rejects.toThrow(/401/);
    expect((await call('GET', '/api/Account/GetCurrentUser', { cookie: before })).status).toBe(401);

    // Used up: the link cannot set a password again.
    const again = await activate(token, 'another one 43');
    expect(again.status).toBe(410);
    expect(again.body.Error).toMatch(/already used/);
    expect((await describeLink(token)).status).toBe(410);
    await signIn(hw.url, 'erin@example.org', 'chosen by me 42');
  });

  it('is replaced by a newer one, and refused once expired', async () => {
    await createUser('frank@example.org', 'first-temp-pw2');
    expect((await sendLink('frank@example.org')).status).toBe(200);
    const first = (await tokenOfMail('frank@example.org', 1)).token;
    expect((await sendLink('frank@example.org')).status).toBe(200);
    const second = (await tokenOfMail('frank@example.org', 2)).token;
    expect(second).not.toBe(first);
    const replaced = await activate(first, 'frank chose 1');
    expect(replaced.status).toBe(410);
    expect(replaced.body.Error).toMatch(/newer activation link/);
    expect((await describeLink(second)).status).toBe(200);

    // Expiry: move the link's end into the past (read and written after a stop: one process
    // per database file), and start again on the same data.
    await hw.stop();
    earlierOutput += hw.output();
    const store = await openTestStore(hw.dataDir);
    try {
      const hash = createHash('sha256').update(second).digest('hex');
      const row = await store.one<{ n: number }>('SELECT count(*)::INTEGER AS n FROM activation_links WHERE token_hash = $1', [hash]);
      expect(row!.n).toBe(1);
      // Only hashes are stored, never a token.
      const leaked = await store.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM activation_links WHERE token_hash IN (${tokens.map((_, i) => `$${i + 1}`).join(', ')})`, tokens);
      expect(leaked!.n).toBe(0);
      await store.run('UPDATE activation_links SET expires_at = created_at - 1 WHERE token_hash = $1', [hash]);
    } finally {
      await store.close();
    }
    hw = await startAppliance({ dataDir: hw.dataDir, port: hw.port, env });
    admin = await signIn(hw.url, 'admin', 'activation-root-pw');
    const expired = await activate(second, 'frank chose 1');
    expect(expired.status).toBe(410);
    expect(expired.body.Error).toMatch(/^This activation link expired at .*Ask your administrator for a new one\.$/);
    expect((await describeLink(second)).status).toBe(410);
    await expect(signIn(hw.url, 'frank@example.org', 'frank chose 1')).rejects.toThrow(/401/);
  });
});

describe('sending a link refuses', () => {
  it('an unknown address, the root user and a caller without UserManagement', async () => {
    const unknown = await sendLink('nobody@example.org');
    expect(unknown.status).toBe(404);
    expect(unknown.body.Error).toBe('No web user has the e-mail address nobody@example.org.');
    // The root user's address here is its name, 'admin', which is no mailbox: refused as an
    // address (issue 39 item 13) before any look-up. A root named by an address gets 403.
    const root = await sendLink('admin');
    expect(root.status).toBe(400);
    expect(root.body.Error).toMatch(/e-mail address/);
    await createWebUser(hw.url, admin, { email: 'gus@example.org', password: 'plain words 77', roles: ['TargetManagement'] });
    const gus = await signIn(hw.url, 'gus@example.org', 'plain words 77');
    expect((await sendLink('gus@example.org', gus)).status).toBe(403);
  });

  it('with a clear error when no SMTP server is set or it cannot be reached', async () => {
    await createUser('hana@example.org', 'first-temp-pw3');
    const before = mails.length;
    const put = (body: unknown) => call('PUT', '/api/mail/settings', { cookie: admin, body });
    // A stored empty host wins over HOPWATCH_SMTP_HOST: no SMTP server.
    expect((await put({ Host: '' })).status).toBe(200);
    const none = await sendLink('hana@example.org');
    expect(none.status).toBe(409);
    expect(none.body.Error).toMatch(/^No SMTP server is set, so no activation link can be mailed to hana@example\.org\. Set one in Settings > General > Mail/);

    const closed = await freePort();
    expect((await put({ Host: '127.0.0.1', Port: closed })).status).toBe(200);
    const down = await sendLink('hana@example.org');
    expect(down.status).toBe(502);
    expect(down.body.Error).toMatch(/^The activation link could not be mailed\. Mail to hana@example\.org via 127\.0\.0\.1:\d+ failed/);
    expect(mails.length).toBe(before);

    expect((await put({ Host: '127.0.0.1', Port: sink.port })).status).toBe(200);
    expect((await sendLink('hana@example.org')).status).toBe(200);
    await tokenOfMail('hana@example.org');
  });

  it('more than 5 links an hour to one user', async () => {
    await createUser('ida@example.org', 'first-temp-pw4');
    for (let i = 0; i < 5; i++) expect((await sendLink('ida@example.org')).status).toBe(200);
    const sixth = await sendLink('ida@example.org');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sixth.body.Error).toMatch(/^At most 5 activation links an hour to one user can be sent\./);
    for (let i = 1; i <= 5; i++) await tokenOfMail('ida@example.org', i);
  });
});

describe('bad links', () => {
  it('are rate limited per address, and no token reaches the server output', async () => {
    // Ten links that do not work per address in 15 minutes (the expired link above counted).
    const statuses: number[] = [];
    for (let i = 0; i < 11 && !statuses.includes(429); i++) {
      const r = await describeLink(randomBytes(32).toString('base64url'));
      statuses.push(r.status);
      if (r.status === 404) expect(r.body.Error).toMatch(/^This activation link is not valid\./);
    }
    expect(statuses[0]).toBe(404);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    const limited = await activate(randomBytes(32).toString('base64url'), 'whatever pw 1');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.Error).toMatch(/Too many activation links/);

    expect(tokens.length).toBeGreaterThan(5);
    const output = earlierOutput + hw.output();
    expect(output).toContain('activation link mailed');
    expect(output).toContain('/api/Account/Activate');
    for (const token of tokens) expect(output).not.toContain(token);
  });
});

describe('the public URL', () => {
  // Last in this file: the links above open hw.url, the address the admin used.
  it('set in Settings > General, is where an activation link opens', async () => {
    type SettingsNode = { Name: string; Type: number; ComplexType: string; Children: SettingsNode[]; Value: unknown };
    const leaf = (Name: string, Value: unknown): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children: [], Value });
    const node = (Name: string, Children: SettingsNode[]): SettingsNode => ({ Name, Type: 0, ComplexType: '', Children, Value: null });
    const settings = (await call('GET', '/api/Settings/getsettings', { cookie: admin })).body as { Settings: { Version: number } };
    const save = await call('POST', '/api/Settings/savesettings', {
      cookie: admin,
      body: { Version: settings.Settings.Version, Root: node('Root', [node('ClientSettings', [node('General', [leaf('PublicUrl', 'https://hopwatch.example.org/')])])]) },
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    await createUser('jules@example.org', 'temporary-pw-77');
    expect((await sendLink('jules@example.org')).status).toBe(200);
    const mail = await waitFor('activation mail to jules', () => mails.find((m) => m.to.includes('jules@example.org')), 20_000);
    const links = [...decoded(mail.raw).matchAll(/(https?:\/\/[^\s"<>]+)\/activate#([A-Za-z0-9_-]+)/g)];
    expect(links.length).toBeGreaterThan(0);
    expect(new Set(links.map((l) => l[1]))).toEqual(new Set(['https://hopwatch.example.org']));
  });
});
