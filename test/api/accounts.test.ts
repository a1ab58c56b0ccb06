// Accounts of the cloud flavour (issue 23): the first staff user from the environment, the
// staff calls (good and bad input), per-account entitlements refusing a trace start and an
// agent, the subscription's figures, suspension, and one account reaching nothing of another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Claim } from '../../server/contract/account.js';
import { SuspendedAccountText, agentCapacityText, type CreatedAccount, type StaffAccount, type Subscription } from '../../server/contract/accounts.js';
import { capacityFullText } from '../../server/contract/agents.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { caller, q } from '../security/support.js';

const staffUser = 'ops@provider.example';
const staffPassword = 'Staff-pw-accounts-1';
let hw: Appliance;
let call: ReturnType<typeof caller>;
let staff: string;
let root: string;

const json = async <T>(r: Response, status = 200): Promise<T> => {
  const text = await r.text();
  expect(r.status, text).toBe(status);
  return JSON.parse(text) as T;
};

beforeAll(async () => {
  hw = await startAppliance({
    env: {
      HOPWATCH_DEPLOYMENT: '1',
      HOPWATCH_ENGINE: 'simulated',
      HOPWATCH_ROOT_PASSWORD: 'root-pw-accounts',
      HOPWATCH_STAFF_USER: staffUser,
      HOPWATCH_STAFF_PASSWORD: staffPassword,
    },
  });
  call = caller(hw);
  staff = await signIn(hw.url, staffUser, staffPassword);
  root = await signIn(hw.url, 'admin', 'root-pw-accounts');
}, 90_000);

afterAll(async () => {
  await hw?.dispose();
});

/** A new account with its first user signed in (temporary password replaced). */
async function newAccount(name: string, email: string, extra: Record<string, unknown> = {}) {
  const made = await json<CreatedAccount>(await call('/api/staff/accounts', staff, { method: 'POST', body: JSON.stringify({ Name: name, UserEmail: email, ...extra }) }));
  const temp = await signIn(hw.url, email, made.TemporaryPassword);
  // Cloud mode asks no current password; every other call is refused until it is replaced.
  expect((await call('/cmd/getsummaries', temp)).status).toBe(403);
  const newPassword = `Own-pw-${made.Account.Id}-x`;
  await json(await call(`/api/Account?newPassword=${q(newPassword)}`, temp, { method: 'PATCH' }));
  return { made, cookie: await signIn(hw.url, email, newPassword), password: newPassword };
}

describe('the first staff user', () => {
  it('signs in with Staff and ImpersonateUser, in the provider account, apart from root', async () => {
    const me = await json<{ Claims: string[]; IsRoot: boolean }>(await call('/api/Account/GetCurrentUser', staff));
    expect(me.Claims).toEqual(expect.arrayContaining([Claim.Staff, Claim.ImpersonateUser]));
    expect(me.IsRoot).toBe(false);
    const rootMe = await json<{ Claims: string[] }>(await call('/api/Account/GetCurrentUser', root));
    expect(rootMe.Claims).not.toContain(Claim.Staff);
    const list = await json<StaffAccount[]>(await call('/api/staff/accounts', staff));
    expect(list.find((a) => a.IsProvider)).toMatchObject({ Name: 'Provider', Users: 1 });
    expect(list.find((a) => a.Name === 'Default')).toMatchObject({ IsProvider: false, Users: 1 });
    expect(hw.output()).toContain(`Staff user "${staffUser}" created with the password from HOPWATCH_STAFF_PASSWORD.`);
    expect(hw.output()).not.toContain(staffPassword);
  });

  it('Staff cannot be given through web-user management, and others are refused the staff calls', async () => {
    const r = await call('/api/user?password=Someone-pw-1', root, { method: 'POST', body: JSON.stringify({ EmailAddress: 'x@example.org', Roles: [Claim.Staff] }) });
    expect(r.status).toBe(400);
    expect((await call('/api/staff/accounts', root)).status).toBe(403);
    expect((await call('/api/staff/accounts', root, { method: 'POST', body: JSON.stringify({ Name: 'Sneaky', UserEmail: 'sneaky@example.org' }) })).status).toBe(403);
    expect((await call('/api/staff/accounts', undefined)).status).toBe(401);
  });
});

describe('staff account calls', () => {
  it('refuses bad input with a 400 that says what is wrong', async () => {
    const post = (body: unknown) => call('/api/staff/accounts', staff, { method: 'POST', body: JSON.stringify(body) });
    const cases: [unknown, RegExp][] = [
      [{ UserEmail: 'a@example.org' }, /Name/],
      [{ Name: '   ', UserEmail: 'a@example.org' }, /account name is required/],
      [{ Name: 'Acme', UserEmail: 'not an address' }, /valid e-mail/],
      [{ Name: 'Acme', UserEmail: 'a@example.org', EntitledTraces: -1 }, /EntitledTraces/],
      [{ Name: 'Acme', UserEmail: 'a@example.org', EntitledAgents: 1.5 }, /EntitledAgents/],
      [{ Name: 'x'.repeat(101), UserEmail: 'a@example.org' }, /Name/],
      [{ Name: 'Acme\u0007', UserEmail: 'a@example.org' }, /control characters/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      const text = await r.text();
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(text).Error, JSON.stringify(body)).toMatch(message);
    }
    expect((await call('/api/staff/accounts/2147480000', staff, { method: 'PATCH', body: '{}' })).status).toBe(404);
    expect((await call('/api/staff/accounts/2147480000/suspend', staff, { method: 'POST', body: '{"Suspended":true}' })).status).toBe(404);
  });

  it('creates an account with its first user, refuses a taken name, sets entitlements', async () => {
    const { made, cookie } = await newAccount('Acme Networks', 'alice@acme.example', { Plan: 'Team', EntitledTraces: 5, EntitledAgents: 2 });
    expect(made.Account).toMatchObject({ Name: 'Acme Networks', Plan: 'Team', EntitledTraces: 5, EntitledAgents: 2, Users: 1, Suspended: false, IsProvider: false });
    expect(made.TemporaryPassword.length).toBeGreaterThanOrEqual(12);
    const me = await json<{ Claims: string[]; IsRoot: boolean }>(await call('/api/Account/GetCurrentUser', cookie));
    expect(me.IsRoot).toBe(false);
    expect(me.Claims).toEqual(expect.arrayContaining([Claim.UserManagement, Claim.TargetManagement, Claim.CloudConnectManagement]));
    expect(me.Claims).not.toContain(Claim.Staff);

    const again = await call('/api/staff/accounts', staff, { method: 'POST', body: JSON.stringify({ Name: 'acme networks', UserEmail: 'bob@acme.example' }) });
    expect(again.status).toBe(409);
    const sameUser = await call('/api/staff/accounts', staff, { method: 'POST', body: JSON.stringify({ Name: 'Other', UserEmail: 'ALICE@acme.example' }) });
    expect(sameUser.status).toBe(409);

    const set = await json<StaffAccount>(await call(`/api/staff/accounts/${made.Account.Id}`, staff, { method: 'PATCH', body: JSON.stringify({ Plan: 'Business', EntitledTraces: 7, EntitledAgents: null }) }));
    expect(set).toMatchObject({ Plan: 'Business', EntitledTraces: 7, EntitledAgents: null });
    const sub = await json<Subscription>(await call('/api/subscription', cookie));
    expect(sub).toMatchObject({ AccountName: 'Acme Networks', Plan: 'Business', EntitledTraces: 7, EntitledAgents: null, ActiveTraces: 0 });
  });
});

describe('entitlements', () => {
  it('refuses a trace past the entitled traces (spec 1 capacity text, cloud wording) and an agent past the entitled agents', async () => {
    const { made, cookie } = await newAccount('Tiny Co', 'tina@tiny.example', { EntitledTraces: 0, EntitledAgents: 1 });
    const agent = await json<{ ID: number }>(await call('/cmd/createAgent?name=Branch', cookie));
    const second = await call('/cmd/createAgent?name=Second', cookie);
    expect(second.status).toBe(409);
    expect((await second.json()).Error).toBe(agentCapacityText(1));

    const start = await call(`/cmd/newtarget?target=10.251.0.1&agentID=${agent.ID}`, cookie);
    expect(start.status).toBe(409);
    expect((await start.json()).Error).toBe(capacityFullText(0, false));
    expect(capacityFullText(0, false)).toContain('of your Cloud traces');

    const ent = await json<{ ActiveTraces: number; EntitledTraces: number }>(await call('/cmd/cloudconnect-entitlement', cookie));
    expect(ent).toEqual({ ActiveTraces: 0, EntitledTraces: 0, UncountedLocalMachineTraces: 0 });
    const sub = await json<Subscription>(await call('/api/subscription', cookie));
    expect(sub).toMatchObject({ EntitledTraces: 0, EntitledAgents: 1, PendingAgents: 1, OnlineAgents: 0, OfflineAgents: 0 });

    // Raised by staff: the agent's count is no longer the limit.
    await json(await call(`/api/staff/accounts/${made.Account.Id}`, staff, { method: 'PATCH', body: JSON.stringify({ EntitledAgents: 2 }) }));
    await json(await call('/cmd/createAgent?name=Second', cookie));

    // One trace entitled: it starts (the agent is offline: it waits for it), a Reset of it is
    // no second trace, and another start is refused.
    await json(await call(`/api/staff/accounts/${made.Account.Id}`, staff, { method: 'PATCH', body: JSON.stringify({ EntitledTraces: 1 }) }));
    const first = await json<{ ID: number }>(await call(`/cmd/newtarget?target=10.251.0.1&agentID=${agent.ID}`, cookie));
    const reset = await call(`/cmd/resettrace?ID=${first.ID}`, cookie);
    expect(reset.status, await reset.clone().text()).toBe(200);
    const more = await call(`/cmd/newtarget?target=10.251.0.2&agentID=${agent.ID}`, cookie);
    expect(more.status).toBe(409);
    expect((await more.json()).Error).toBe(capacityFullText(1, false));
    expect(await json(await call('/cmd/cloudconnect-entitlement', cookie))).toEqual({ ActiveTraces: 1, EntitledTraces: 1, UncountedLocalMachineTraces: 0 });
  });

  it('the subscription needs UserManagement', async () => {
    expect((await call('/api/subscription', staff)).status).toBe(403);
  });
});

describe('accounts kept apart', () => {
  it("a user of one account sees and reaches nothing of another's summaries, agents and links", async () => {
    const a = await newAccount('Apart A', 'ann@a.example');
    const b = await newAccount('Apart B', 'ben@b.example');
    const summary = await json<{ UniqueID: string }>(await call('/cmd/createsummary?name=A-only', a.cookie));
    const agent = await json<{ ID: number }>(await call('/cmd/createAgent?name=A-agent', a.cookie));
    const link = await json<{ ShareId: string }>(await call('/api/liveshare', a.cookie, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summary.UniqueID}` }) }));

    const summaries = await json<{ Name: string }[]>(await call('/cmd/getsummaries', b.cookie));
    expect(summaries.map((s) => s.Name)).not.toContain('A-only');
    const agents = await json<{ ID: number }[]>(await call('/cmd/getAgentsListWithDetails', b.cookie));
    expect(agents.map((g) => g.ID)).not.toContain(agent.ID);
    const links = await json<{ ShareId: string }[]>(await call('/api/liveshare', b.cookie));
    expect(links.map((l) => l.ShareId)).not.toContain(link.ShareId);

    // By id: unknown to the other account (404), never a 200 with the other's data.
    expect((await call(`/cmd/updateSentinelName?agentId=${agent.ID}&newName=stolen`, b.cookie)).status).toBe(404);
    expect((await call(`/cmd/agentTargets?agentId=${agent.ID}`, b.cookie)).status).toBe(404);
    expect((await call(`/cmd/renamesummary?ID=${summary.UniqueID}&name=stolen`, b.cookie)).status).not.toBe(200);
    expect((await call(`/api/liveshare/DeleteLink?shareId=${q(link.ShareId)}`, b.cookie, { method: 'DELETE' })).status).not.toBe(204);
    expect((await call(`/cmd/newtarget?target=10.251.0.1&agentID=${agent.ID}`, b.cookie)).status).toBe(404);
    // Still A's, unchanged.
    const still = await json<{ Name: string }[]>(await call('/cmd/getsummaries', a.cookie));
    expect(still.map((s) => s.Name)).toContain('A-only');
    const aAgents = await json<{ ID: number; Name: string }[]>(await call('/cmd/getAgentsListWithDetails', a.cookie));
    expect(aAgents.find((g) => g.ID === agent.ID)?.Name).toBe('A-agent');
  });
});

describe('suspension', () => {
  it("signs the account's users out, refuses their sign-in with a clear error, and lifts", async () => {
    const { made, cookie, password } = await newAccount('Suspend Me', 'sam@suspend.example');
    expect((await call('/cmd/getsummaries', cookie)).status).toBe(200);
    const s = await json<StaffAccount>(await call(`/api/staff/accounts/${made.Account.Id}/suspend`, staff, { method: 'POST', body: JSON.stringify({ Suspended: true, Reason: 'unpaid' }) }));
    expect(s).toMatchObject({ Suspended: true, SuspendedReason: 'unpaid' });
    expect((await call('/cmd/getsummaries', cookie)).status).toBe(401);
    const login = await call('/api/Account/Login', undefined, { method: 'POST', body: JSON.stringify({ Username: 'sam@suspend.example', Password: password, RememberMe: false }) });
    expect(login.status).toBe(403);
    expect((await login.json()).Error).toBe(SuspendedAccountText);
    // A wrong password still says only that the sign-in failed (nothing about the account).
    const wrong = await call('/api/Account/Login', undefined, { method: 'POST', body: JSON.stringify({ Username: 'sam@suspend.example', Password: 'wrong-pw-123', RememberMe: false }) });
    expect(wrong.status).toBe(401);

    await json(await call(`/api/staff/accounts/${made.Account.Id}/suspend`, staff, { method: 'POST', body: JSON.stringify({ Suspended: false }) }));
    const back = await signIn(hw.url, 'sam@suspend.example', password);
    expect((await call('/cmd/getsummaries', back)).status).toBe(200);
  });

  it("the provider account and the root user's account cannot be suspended", async () => {
    const list = await json<StaffAccount[]>(await call('/api/staff/accounts', staff));
    const provider = list.find((a) => a.IsProvider)!;
    expect((await call(`/api/staff/accounts/${provider.Id}/suspend`, staff, { method: 'POST', body: JSON.stringify({ Suspended: true }) })).status).toBe(409);
    const rootAccount = list.find((a) => a.Name === 'Default')!;
    const r = await call(`/api/staff/accounts/${rootAccount.Id}/suspend`, staff, { method: 'POST', body: JSON.stringify({ Suspended: true }) });
    expect(r.status).toBe(409);
    expect((await r.json()).Error).toMatch(/root user/);
    expect((await call('/cmd/getsummaries', root)).status).toBe(200);
  });
});
