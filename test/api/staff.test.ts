// Issue 23 point 3, the staff pages' calls against seeded data: Session Audit (sign-ins with
// address and user agent; revoking one ends the user's calls and hub connection), Users and
// Events (sign-ins ok and failed, changes, errors; never a query or a password), Feedback
// (Insights feedback and tickets of every account; an answer is mailed and listed for the
// account), Lookup and Ping Server Management. Staff users and a second account are written
// into the store (the Staff claim is never given through the users API).
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountFeedbackAnswer, FeedbackItem, LookupMatch, PingServer, SignInSession, StaffUser, UserEvent } from '../../server/contract/staff.js';
import type { CurrentUser } from '../../server/contract/account.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { seedAccount, StaffRoles, withStore } from '../support/staff-users.js';
import { connectHub } from '../security/support.js';
import { startMailSink, waitFor, type MailSink } from '../alerts/support.js';

let hw: Appliance;
let mail: MailSink;
let root: string;
let staff: string;
let acme: { accountId: number; userIds: Record<string, number> };
const RootPw = 'root-pw-staff';
const StaffPw = 'Staff-pw-2026';
const AnnPw = 'Ann-pw-2026!';
const ShareId = 'LSacme12345';
const AgentUid = 'acme-agent-7f3a';
let ticketId: number;
let feedbackId: number;
let agentId: number;

beforeAll(async () => {
  mail = await startMailSink();
  const env = {
    HOPWATCH_ROOT_PASSWORD: RootPw,
    HOPWATCH_ENGINE: 'simulated',
    HOPWATCH_SMTP_HOST: '127.0.0.1',
    HOPWATCH_SMTP_PORT: String(mail.port),
    HOPWATCH_SMTP_SECURITY: 'none',
  };
  const first = await startAppliance({ env });
  await first.stop();
  await seedAccount(first.dataDir, 'Hopwatch Staff', [{ name: 'sam', email: 'sam@staff.example', password: StaffPw, roles: StaffRoles }]);
  acme = await seedAccount(first.dataDir, 'Acme Networks', [
    { name: 'ann', email: 'ann@acme.example', password: AnnPw, roles: ['TargetManagement'] },
    { name: 'bob', email: 'bob@acme.example', password: 'Bob-pw-2026!', roles: ['UserManagement', 'TargetManagement'] },
  ]);
  await withStore(first.dataDir, async (store) => {
    const a = acme.accountId;
    const now = Date.now();
    // Archived sessions: the server does not resume them.
    await store.run(
      `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
       VALUES ($1, 'acme-router.example', 'acme-router.example', '10.9.8.7', 2, 0, 2500, $2)`,
      [a, now],
    );
    agentId = (await store.one<{ id: number }>(
      `INSERT INTO agents (account_id, unique_id, name, version, last_message, created_at) VALUES ($1, $2, 'Branch office', '1.4.2', $3, $3) RETURNING id`,
      [a, AgentUid, now - 120_000],
    ))!.id;
    await store.run(
      `INSERT INTO liveshare_links (share_id, pw_digest, pw_sealed, description, created_at, summary_ref, account_id, created_by)
       VALUES ($1, 'x', 'x', 'NOC wall', $2, 'SUM-1', $3, 'ann')`,
      [ShareId, now, a],
    );
    ticketId = (await store.one<{ id: number }>(
      `INSERT INTO support_tickets (account_id, user_id, name, email, problem_statement, error_log, created_at)
       VALUES ($1, $2, 'Ann', 'ann.ticket@acme.example', 'Graphs <b>stop</b> at midnight', 'null', $3) RETURNING id`,
      [a, acme.userIds.ann, now - 60_000],
    ))!.id;
    feedbackId = (await store.one<{ id: number }>(
      `INSERT INTO insight_feedback (account_id, user_id, session_id, rating, comments, help_requested, context_json, created_at)
       VALUES ($1, $2, '1', 2, 'Which hop is it?', true, '{"testTitle":"Route Change Test"}', $3) RETURNING id`,
      [a, acme.userIds.ann, now - 30_000],
    ))!.id;
  });
  hw = await first.restart();
  root = await signIn(hw.url, 'admin', RootPw);
  staff = await signIn(hw.url, 'sam', StaffPw);
}, 180_000);

afterAll(async () => {
  await hw?.dispose();
  await mail?.close();
});

const call = (path: string, cookie: string | undefined, init: RequestInit = {}) =>
  fetch(`${hw.url}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) } });
const json = async <T>(path: string, cookie: string, init: RequestInit = {}): Promise<T> => {
  const r = await call(path, cookie, init);
  expect(r.status, `${path}: ${await r.clone().text()}`).toBe(200);
  return (await r.json()) as T;
};
const errorOf = async (r: Response) => ((await r.json()) as { Error: string }).Error;

const StaffCalls: [string, string, unknown?][] = [
  ['GET', '/api/staff/sessionaudit'],
  ['DELETE', '/api/staff/sessionaudit/1'],
  ['GET', '/api/staff/users'],
  ['GET', '/api/staff/userandevents/1'],
  ['GET', '/api/staff/feedback'],
  ['POST', '/api/staff/feedback/Ticket/1/answer', { Text: 'hello' }],
  ['GET', '/api/staff/lookup?text=acme'],
  ['GET', '/api/staff/pingservers'],
];

describe('the staff calls', () => {
  it('refuse everyone but staff: 401 signed out, 403 for root and users without the Staff claim', async () => {
    const ann = await signIn(hw.url, 'ann', AnnPw);
    for (const [method, path, body] of StaffCalls) {
      const init = { method, ...(body ? { body: JSON.stringify(body) } : {}) };
      const anonymous = await call(path, undefined, init);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      for (const cookie of [root, ann]) {
        const r = await call(path, cookie, init);
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(await errorOf(r)).toBe('This needs the Staff permission.');
      }
    }
    // Root holds every assignable claim but not Staff.
    expect((await json<CurrentUser>('/api/Account/GetCurrentUser', root)).Claims).not.toContain('Staff');
    expect((await json<CurrentUser>('/api/Account/GetCurrentUser', staff)).Claims).toContain('Staff');
  });

  it('Session Audit lists a sign-in with time, address and user agent, and revoking it ends the session and its hub connection', async () => {
    const before = Date.now();
    const r = await fetch(`${hw.url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'StaffAuditTest/1.0 (revoke me)' },
      body: JSON.stringify({ Username: 'ann', Password: AnnPw, RememberMe: true }),
    });
    expect(r.status).toBe(200);
    const ann = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const hub = await connectHub(hw, ann, HttpTransportType.WebSockets);

    const list = await json<SignInSession[]>(`/api/staff/sessionaudit?userId=${acme.userIds.ann}&activeOnly=true`, staff);
    const mine = list.find((s) => s.UserAgent === 'StaffAuditTest/1.0 (revoke me)');
    expect(mine).toMatchObject({ UserId: acme.userIds.ann, UserName: 'ann', AccountId: acme.accountId, AccountName: 'Acme Networks', Address: '127.0.0.1', Persistent: true, Active: true, RevokedAt: null });
    expect(Date.parse(mine!.SignedInAt)).toBeGreaterThanOrEqual(before - 1000);
    // No token or hash leaves the server.
    expect(JSON.stringify(list)).not.toMatch(/[0-9a-f]{64}/);
    const token = decodeURIComponent(ann.split('=')[1]);
    expect(JSON.stringify(list)).not.toContain(token);
    // By account: the staff user's own sign-in is not among Acme's.
    const acmeOnly = await json<SignInSession[]>(`/api/staff/sessionaudit?accountId=${acme.accountId}`, staff);
    expect(acmeOnly.length).toBeGreaterThan(0);
    expect(acmeOnly.every((s) => s.AccountId === acme.accountId)).toBe(true);

    expect((await call('/api/Account/GetCurrentUser', ann)).status).toBe(200);
    const revoked = await json<SignInSession>(`/api/staff/sessionaudit/${mine!.Id}`, staff, { method: 'DELETE' });
    expect(revoked).toMatchObject({ Id: mine!.Id, Active: false, RevokedBy: 'sam' });
    expect(revoked.RevokedAt).not.toBeNull();
    // The user's next call: 401; the hub connection opened with the session is closed.
    expect((await call('/api/Account/GetCurrentUser', ann)).status).toBe(401);
    expect(await hub.closed).toBeInstanceOf(Error);
    // Again: 409; unknown: 404; not an id: 400 (each with an Error body).
    const again = await call(`/api/staff/sessionaudit/${mine!.Id}`, staff, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatch(/already revoked/);
    const unknown = await call('/api/staff/sessionaudit/999999', staff, { method: 'DELETE' });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatch(/not found/);
    expect((await call('/api/staff/sessionaudit/abc', staff, { method: 'DELETE' })).status).toBe(400);
    expect((await call('/api/staff/sessionaudit?limit=0', staff)).status).toBe(400);
    expect((await call('/api/staff/sessionaudit?userId=-3', staff)).status).toBe(400);
  });

  it('Users and Events finds users of every account and shows their sign-ins, failed sign-ins, changes and errors, without queries or secrets', async () => {
    const found = await json<StaffUser[]>('/api/staff/users?search=ACME.example', staff);
    expect(found.map((u) => u.Name).sort()).toEqual(['ann', 'bob']);
    expect(found[0]).toMatchObject({ AccountId: acme.accountId, AccountName: 'Acme Networks' });

    const wrong = await fetch(`${hw.url}/api/Account/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'bob', Password: 'not-Bobs-password' }),
    });
    expect(wrong.status).toBe(401);
    const bob = await signIn(hw.url, 'bob', 'Bob-pw-2026!');
    // A change (its query carries a password), a refused call, and a read that answered (not an event).
    const secret = 'Brand-new-secret-77';
    const changed = await call(`/api/Account?${new URLSearchParams({ currentPassword: 'Bob-pw-2026!', newPassword: secret })}`, bob, { method: 'PATCH' });
    expect(changed.status).toBe(200);
    expect((await call('/api/Settings/getsettingtraits', bob)).status).toBe(403);
    expect((await call('/api/user', bob)).status).toBe(200);

    const events = await json<UserEvent[]>(`/api/staff/userandevents/${acme.userIds.bob}`, staff);
    const brief = events.map((e) => `${e.Kind} ${e.Method} ${e.Route} ${e.Status}`);
    expect(brief).toEqual([
      'Error GET /api/Settings/getsettingtraits 403',
      'Change PATCH /api/Account 200',
      'SignIn POST /api/Account/Login 200',
      'SignInFailed POST /api/Account/Login 401',
    ]);
    expect(events.every((e) => e.Address === '127.0.0.1')).toBe(true);
    const text = JSON.stringify(events);
    for (const s of [secret, 'Bob-pw-2026!', 'not-Bobs-password', 'newPassword']) expect(text).not.toContain(s);

    const onlyFailed = await json<UserEvent[]>(`/api/staff/userandevents/${acme.userIds.bob}?kind=SignInFailed`, staff);
    expect(onlyFailed.map((e) => e.Kind)).toEqual(['SignInFailed']);
    expect((await call('/api/staff/userandevents/999999', staff)).status).toBe(404);
    expect((await call(`/api/staff/userandevents/${acme.userIds.bob}?kind=Nope`, staff)).status).toBe(400);
    expect((await call('/api/staff/users?search=' + 'x'.repeat(400), staff)).status).toBe(400);
  });

  it('Feedback lists Insights feedback and tickets of every account; an answer is mailed and listed for the account', async () => {
    const items = await json<FeedbackItem[]>('/api/staff/feedback', staff);
    const ticket = items.find((i) => i.Kind === 'Ticket' && i.Id === ticketId);
    const feedback = items.find((i) => i.Kind === 'Insight' && i.Id === feedbackId);
    expect(ticket).toMatchObject({ AccountName: 'Acme Networks', UserId: acme.userIds.ann, EmailAddress: 'ann.ticket@acme.example', Text: 'Graphs <b>stop</b> at midnight', Answers: [] });
    expect(feedback).toMatchObject({ AccountName: 'Acme Networks', UserName: 'ann', EmailAddress: 'ann@acme.example', Rating: 2, Text: 'Which hop is it?', HelpRequested: true, Context: 'session 1, Route Change Test' });

    const answered = await json<FeedbackItem>(`/api/staff/feedback/Ticket/${ticketId}/answer`, staff, {
      method: 'POST',
      body: JSON.stringify({ Text: 'Fixed in 1.5: the day bucket closed early.' }),
    });
    expect(answered.Answers).toHaveLength(1);
    expect(answered.Answers[0]).toMatchObject({ StaffName: 'sam', Text: 'Fixed in 1.5: the day bucket closed early.', Mailed: true, MailProblem: '' });
    const got = await waitFor('the answer mail', () => mail.mails.find((m) => m.to.includes('ann.ticket@acme.example')));
    expect(got.raw).toContain('Fixed in 1.5: the day bucket closed early.');
    expect(got.raw).toMatch(/Subject: Re: support request #\d+/);

    const unanswered = await json<FeedbackItem[]>('/api/staff/feedback?unansweredOnly=true', staff);
    expect(unanswered.some((i) => i.Kind === 'Ticket' && i.Id === ticketId)).toBe(false);
    expect(unanswered.some((i) => i.Kind === 'Insight' && i.Id === feedbackId)).toBe(true);
    expect((await json<FeedbackItem[]>('/api/staff/feedback?kind=Insight', staff)).every((i) => i.Kind === 'Insight')).toBe(true);

    // The account reads it (any of its users); another account does not.
    const ann = await signIn(hw.url, 'ann', AnnPw);
    const answers = await json<AccountFeedbackAnswer[]>('/api/support/Answers', ann);
    expect(answers).toEqual([{ Kind: 'Ticket', ItemId: ticketId, About: 'Graphs <b>stop</b> at midnight', Time: expect.any(String), Text: 'Fixed in 1.5: the day bucket closed early.' }]);
    expect(await json<AccountFeedbackAnswer[]>('/api/support/Answers', root)).toEqual([]);

    const blank = await call(`/api/staff/feedback/Insight/${feedbackId}/answer`, staff, { method: 'POST', body: JSON.stringify({ Text: '   ' }) });
    expect(blank.status).toBe(400);
    expect(await errorOf(blank)).toBe('Write an answer first.');
    expect((await call('/api/staff/feedback/Insight/999999/answer', staff, { method: 'POST', body: JSON.stringify({ Text: 'hi' }) })).status).toBe(404);
    expect((await call(`/api/staff/feedback/Bogus/${feedbackId}/answer`, staff, { method: 'POST', body: JSON.stringify({ Text: 'hi' }) })).status).toBe(400);
    expect((await call(`/api/staff/feedback/Insight/${feedbackId}/answer`, staff, { method: 'POST', body: JSON.stringify({}) })).status).toBe(400);
  });

  it('Lookup finds the account of a user name, e-mail, agent id, target and LiveShare id', async () => {
    const find = (text: string) => json<LookupMatch[]>(`/api/staff/lookup?text=${encodeURIComponent(text)}`, staff);
    const acmeMatch = (m: LookupMatch[], kind: string) => m.find((x) => x.Kind === kind && x.AccountId === acme.accountId);
    expect(acmeMatch(await find('ann'), 'UserName')).toMatchObject({ Matched: 'ann', UserId: acme.userIds.ann, AccountName: 'Acme Networks' });
    expect(acmeMatch(await find('bob@ACME.example'), 'Email')).toMatchObject({ Matched: 'bob@acme.example', UserId: acme.userIds.bob });
    expect(acmeMatch(await find(AgentUid), 'Agent')?.Matched).toContain(AgentUid);
    expect(acmeMatch(await find(String(agentId)), 'Agent')).toBeDefined();
    expect(acmeMatch(await find('acme-router'), 'Target')?.Matched).toBe('acme-router.example (10.9.8.7)');
    expect(acmeMatch(await find('10.9.8.7'), 'Target')).toBeDefined();
    expect(acmeMatch(await find(ShareId), 'LiveShare')?.Matched).toBe(`${ShareId} (NOC wall)`);
    // A match that names no user offers the account's first user (to impersonate, or read events).
    expect(acmeMatch(await find(ShareId), 'LiveShare')?.UserId).toBe(acme.userIds.ann);
    expect(await find('no-such-thing-anywhere')).toEqual([]);
    const short = await call('/api/staff/lookup?text=a', staff);
    expect(short.status).toBe(400);
    expect(await errorOf(short)).toMatch(/at least 2 characters/);
    expect((await call('/api/staff/lookup', staff)).status).toBe(400);
  });

  it('Ping Server Management lists the built-in engine and every account\'s agents with health and load', async () => {
    const list = await json<PingServer[]>('/api/staff/pingservers', staff);
    expect(list[0]).toMatchObject({ Id: -1, Engine: 'simulated', Connected: true, ActiveSessions: 0 });
    const agent = list.find((s) => s.Id === agentId);
    expect(agent).toMatchObject({ UniqueId: AgentUid, Name: 'Branch office', AccountId: acme.accountId, AccountName: 'Acme Networks', Engine: 'agent', Connected: false, Version: '1.4.2', ActiveSessions: 0, SamplesPerMinute: 0 });
    expect(Date.now() - Date.parse(agent!.LastSeen!)).toBeGreaterThanOrEqual(120_000);

    // A trace on the built-in engine (the simulated network's loopback) shows as its load.
    // Root's account: a seeded account has no display configuration of its own.
    const started = await call('/cmd/newtarget?target=127.0.0.1&traceInterval=0.1', root);
    expect(started.status).toBe(200);
    const { ID } = (await started.json()) as { ID: number };
    const busy = await waitFor('samples on the built-in engine', async () => {
      const local = (await json<PingServer[]>('/api/staff/pingservers', staff))[0];
      return local.ActiveSessions === 1 && local.SamplesPerMinute > 0 && local;
    });
    expect(busy).toMatchObject({ Id: -1, ActiveSessions: 1 });
    expect([200, 204]).toContain((await call(`/cmd/stoptrace?ID=${ID}`, root)).status);
    expect((await json<PingServer[]>('/api/staff/pingservers', staff))[0].ActiveSessions).toBe(0);
  });

  it('staff may impersonate a user of another account; a non-staff user may not', async () => {
    const refused = await call(`/api/Account/Impersonate?userId=${acme.userIds.ann}`, root, { method: 'POST' });
    expect(refused.status).toBe(404);
    const sam = await signIn(hw.url, 'sam', StaffPw);
    const as = await json<CurrentUser>(`/api/Account/Impersonate?userId=${acme.userIds.ann}`, sam, { method: 'POST' });
    expect(as.Username).toBe('ann');
    expect(as.Claims.sort()).toEqual(['IsImpersonating', 'TargetManagement']);
    // While impersonating, the staff calls are refused (the session is ann now).
    expect((await call('/api/staff/pingservers', sam)).status).toBe(403);
    expect((await json<CurrentUser>('/api/Account/ClearImpersonation', sam, { method: 'POST' })).Claims).toContain('Staff');
  });
});
