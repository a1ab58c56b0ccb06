// Support tickets (spec 1 section 7; issue 41 item 11): POST /cmd/sendsupportticket stores the
// ticket and the console's error log, mails it on a self-hosted appliance to the operator's
// address (Settings > General "Support e-mail address", else the root user's) through the
// mail settings, to a real SMTP server on loopback here, and lists it for the root user only
// (GET /api/support/tickets), with what became of the mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createWebUser } from '../support/web-users.js';
import { startMailSink, type MailSink } from '../alerts/support.js';
import type { SupportTicketItem } from '../../server/contract/support.js';

let hw: Appliance;
let cookie: string;
let sink: MailSink;
beforeAll(async () => {
  sink = await startMailSink();
  hw = await startAppliance({
    env: { HOPWATCH_ROOT_PASSWORD: 'pw', HOPWATCH_SMTP_HOST: '127.0.0.1', HOPWATCH_SMTP_PORT: String(sink.port), HOPWATCH_SMTP_SECURITY: 'none', HOPWATCH_SMTP_FROM: 'hopwatch@appliance.example' },
  });
  cookie = await signIn(hw.url, 'admin', 'pw');
}, 120_000);
afterAll(async () => {
  await hw?.dispose();
  await sink?.close();
});

const send = (query: string, body: string, c = cookie) =>
  fetch(`${hw.url}/cmd/sendsupportticket?${query}`, { method: 'POST', headers: { cookie: c, 'content-type': 'application/json' }, body });
const tickets = async (c = cookie) => {
  const r = await fetch(`${hw.url}/api/support/tickets`, { headers: { cookie: c } });
  return { status: r.status, body: (await r.json()) as SupportTicketItem[] & { Error?: string } };
};
async function waitFor<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
async function saveSupportEmail(value: string) {
  const s = await (await fetch(`${hw.url}/api/Settings/getsettings`, { headers: { cookie } })).json();
  const leaf = { Name: 'SupportEmail', Type: 0, ComplexType: '', Children: [], Value: value };
  const tree = { Name: 'Root', Type: 0, ComplexType: '', Value: null, Children: [{ Name: 'ClientSettings', Type: 0, ComplexType: '', Value: null, Children: [{ Name: 'General', Type: 0, ComplexType: '', Value: null, Children: [leaf] }] }] };
  return fetch(`${hw.url}/api/Settings/savesettings`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ Version: s.Settings.Version, Root: tree }) });
}

describe('support tickets', () => {
  it('stores a ticket with a large error log', async () => {
    const log = JSON.stringify([{ Time: '2026-11-22T00:00:00Z', Message: 'x'.repeat(1_000_000) }]);
    const r = await send('name=Ann&email=ann%40example.org&problemStatement=Graphs%20are%20empty', log);
    expect(r.status).toBe(200);
    expect((await r.json()).Id).toBeGreaterThan(0);
  });

  it('refuses a bad e-mail in self-hosted mode (one address only), a blank problem, and guests', async () => {
    const bad = await send('name=Ann&email=nope&problemStatement=x', '[]');
    expect(bad.status).toBe(400);
    expect((await bad.json()).Error).toBe('An e-mail address has exactly one @ (name@example.org).');
    // The looser pattern this replaced took a list, which a mailer sends to every address in it.
    const list = await send(`email=${encodeURIComponent('ann@example.org,eve@evil.example')}&problemStatement=x`, '[]');
    expect(list.status).toBe(400);
    expect((await list.json()).Error).toBe('Give one e-mail address only (no commas or semicolons).');
    expect((await send('email=ann%40example.org&problemStatement=%20', '[]')).status).toBe(400);
    expect((await send('email=ann%40example.org&problemStatement=x', '[]', '')).status).toBe(401);
  });

  it('mails a ticket to the support address of Settings > General, and lists it for root with the mail result', async () => {
    expect((await saveSupportEmail('ops@appliance.example')).status).toBe(200);
    const before = sink.mails.length;
    const problem = 'Graph <b>empty</b>\nsince 10:00';
    const r = await send(`name=Bob&email=bob%40example.org&problemStatement=${encodeURIComponent(problem)}`, JSON.stringify([{ Message: 'boom' }]));
    expect(r.status).toBe(200);
    const { Id } = await r.json();
    const mail = await waitFor('the ticket mail', async () => sink.mails.slice(before).find((m) => m.raw.includes(`#${Id}`)));
    expect(mail.to).toEqual(['ops@appliance.example']);
    expect(mail.raw).toMatch(/^Reply-To: bob@example\.org/m);
    // One header line: the newline of the problem does not start a header.
    expect(mail.raw).toMatch(new RegExp(`^Subject: Hopwatch support ticket #${Id}: Graph <b>empty</b> since 10:00\\r?$`, 'm'));
    expect(mail.raw).toContain(`support-ticket-${Id}-error-log.json`);
    expect(mail.raw).not.toMatch(/text\/html/);

    const listed = await waitFor('the mail result', async () => {
      const t = (await tickets()).body.find((x) => x.Id === Id);
      return t?.Mail ? t : undefined;
    });
    expect(listed).toMatchObject({ Name: 'Bob', EmailAddress: 'bob@example.org', ProblemStatement: problem, UserName: 'admin', Mail: { To: 'ops@appliance.example', Problem: '' } });
    expect(listed.ErrorLogChars).toBe(JSON.stringify([{ Message: 'boom' }]).length);
    const log = await fetch(`${hw.url}/api/support/tickets/${Id}/errorlog`, { headers: { cookie } });
    expect(log.status).toBe(200);
    expect(await log.json()).toEqual([{ Message: 'boom' }]);
    expect((await fetch(`${hw.url}/api/support/tickets/999999/errorlog`, { headers: { cookie } })).status).toBe(404);
  });

  it('says why a ticket was not mailed when no address is set', async () => {
    expect((await saveSupportEmail('')).status).toBe(200);
    // The root user of a fresh appliance has no e-mail address.
    const r = await send('email=carol%40example.org&problemStatement=no%20address', '[]');
    const { Id } = await r.json();
    const listed = await waitFor('the mail result', async () => {
      const t = (await tickets()).body.find((x) => x.Id === Id);
      return t?.Mail ? t : undefined;
    });
    expect(listed.Mail).toMatchObject({ To: '', Problem: expect.stringContaining('No support e-mail address is set') });
  });

  it('refuses a support address that is not one address, and lists tickets for root only', async () => {
    const bad = await saveSupportEmail('a@example.org, b@example.org');
    expect(bad.status).toBe(400);
    expect((await bad.json()).Error).toContain('SupportEmail');
    await createWebUser(hw.url, cookie, { email: 'manager@example.org', password: 'Settings-pw-4821', roles: ['SettingsManagement', 'UserManagement'] });
    const manager = await signIn(hw.url, 'manager@example.org', 'Settings-pw-4821');
    const r = await tickets(manager);
    expect(r.status).toBe(403);
    expect(r.body.Error).toBe('Only the root user can make this call.');
  });
});
