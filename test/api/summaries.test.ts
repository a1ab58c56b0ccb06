// Summaries over real HTTP: list, create, rename, add/remove targets, delete, claims,
// licence, and a restart that keeps everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { seedSessions, type SeededSession } from './seed-sessions.js';
import { engineEnv } from '../support/trace-network.js';
import { createWebUser } from '../support/web-users.js';

const RootPassword = 'summaries-root-pw';
let hw: Appliance;
let admin: string;
let plain: string;
let targetA: SeededSession;
let targetB: SeededSession;
let closed: SeededSession;
let otherAccount: SeededSession;

const q = encodeURIComponent;
const call = (path: string, cookie = admin, init: RequestInit = {}) => fetch(`${hw.url}${path}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
async function json(path: string, cookie = admin) {
  const r = await call(path, cookie);
  expect(r.status, `${path}: ${r.status}`).toBe(200);
  return r.json();
}
async function expectError(path: string, status: number, text?: RegExp, cookie = admin) {
  const r = await call(path, cookie);
  const body = await r.json();
  expect(r.status, `${path}: ${JSON.stringify(body)}`).toBe(status);
  expect(typeof body.Error).toBe('string');
  if (text) expect(body.Error).toMatch(text);
}

beforeAll(async () => {
  // Raw sockets as root; otherwise the simulated engine, which answers for loopback.
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  await first.stop();
  // Paused sessions: open targets that no agent resumes at start, so no probing is involved.
  [targetA, targetB, closed, , otherAccount] = await seedSessions(first.dataDir, [
    { target: '127.0.0.1', state: 1 },
    { target: '127.0.0.2', state: 1 },
    { target: '127.0.0.3', state: 2 }, // Closed
    { target: '127.0.0.4', state: 3 }, // Will Delete
    { target: '127.0.0.5', state: 1, accountId: 999 },
  ]);
  hw = await first.restart();
  admin = await signIn(hw.url, 'admin', RootPassword);
  await createWebUser(hw.url, admin, { email: 'plain@example.org', password: 'no-claims-pw' });
  plain = await signIn(hw.url, 'plain@example.org', 'no-claims-pw');
});
afterAll(async () => {
  await hw?.dispose();
});

describe('summaries', () => {
  it('lists the all-targets summary first, counting the open targets of the account', async () => {
    const list = await json('/cmd/getsummaries');
    expect(list[0]).toEqual({
      UniqueID: expect.stringMatching(/^\d+$/),
      Name: 'All Targets',
      CanClose: false,
      Editable: false,
      IsAllTargets: true,
      TargetCount: 2, // A and B; closed, will-delete and the other account's are not counted
      CanChangeTargets: false,
    });
    // Asking again does not create a second one.
    expect((await json('/cmd/getsummaries')).filter((s: { IsAllTargets: boolean }) => s.IsAllTargets)).toHaveLength(1);
  });

  it('creates, renames, fills and deletes a summary', async () => {
    const made = await json(`/cmd/newsummary?name=${q('  Branch offices ')}`);
    expect(made).toMatchObject({ Name: 'Branch offices', IsAllTargets: false, TargetCount: 0, CanClose: true, Editable: true, CanChangeTargets: true });
    expect(made.UniqueID).toMatch(/^\d+$/);
    const id = made.UniqueID;

    // Adding a target, and adding it again, leaves one member; a row id names its target.
    expect((await json(`/cmd/addhost?host=${targetA.id}&ID=${id}`)).TargetCount).toBe(1);
    expect((await json(`/cmd/addhost?host=${targetA.id}_h_3&ID=${id}`)).TargetCount).toBe(1);
    expect((await json(`/cmd/addhost?host=${targetB.id}&ID=${id}`)).TargetCount).toBe(2);

    const renamed = await json(`/cmd/renamesummary?name=${q('Branches')}&ID=${id}`);
    expect(renamed).toMatchObject({ UniqueID: id, Name: 'Branches', TargetCount: 2 });

    const list = await json('/cmd/getsummaries');
    expect(list.map((s: { Name: string }) => s.Name)).toEqual(['All Targets', 'Branches']);
    expect(list[1].TargetCount).toBe(2);

    expect((await json(`/cmd/removefromsummary?host=${targetA.id}&ID=${id}`)).TargetCount).toBe(1);
    // Removing a target that is not a member changes nothing.
    expect((await json(`/cmd/removefromsummary?host=${targetA.id}&ID=${id}`)).TargetCount).toBe(1);

    const closedCall = await call(`/cmd/closesummary?ID=${id}`);
    expect(closedCall.status).toBe(204);
    await expectError(`/cmd/renamesummary?name=x&ID=${id}`, 404, /Summary \d+ not found/);
    expect((await json('/cmd/getsummaries')).map((s: { Name: string }) => s.Name)).toEqual(['All Targets']);
  });

  it('createsummary creates without a target; newsummary with addhost adds it', async () => {
    const a = await json(`/cmd/createsummary?name=${q('Created plain')}`);
    expect(a).toMatchObject({ Name: 'Created plain', TargetCount: 0 });
    const b = await json(`/cmd/newsummary?name=${q('With host')}&addhost=${targetB.id}`);
    expect(b).toMatchObject({ Name: 'With host', TargetCount: 1 });
    for (const s of [a, b]) expect((await call(`/cmd/closesummary?ID=${s.UniqueID}`)).status).toBe(204);
  });

  it('rejects bad input without writing anything', async () => {
    await expectError(`/cmd/newsummary?name=${q('   ')}`, 400, /name is required/);
    await expectError(`/cmd/newsummary`, 400);
    await expectError(`/cmd/newsummary?name=${'n'.repeat(201)}`, 400, /at most 200/);
    await expectError(`/cmd/newsummary?name=${q('all targets')}`, 409);
    // A target that does not exist, is closed, or is another account's: nothing is created.
    await expectError(`/cmd/newsummary?name=ghost&addhost=999999`, 404, /Target 999999 not found/);
    await expectError(`/cmd/newsummary?name=ghost&addhost=${closed.id}`, 400, /closed/);
    await expectError(`/cmd/newsummary?name=ghost&addhost=${otherAccount.id}`, 404);
    await expectError(`/cmd/newsummary?name=ghost&addhost=not-an-id`, 400);
    expect((await json('/cmd/getsummaries')).map((s: { Name: string }) => s.Name)).not.toContain('ghost');

    const s = await json(`/cmd/newsummary?name=Checks`);
    await expectError(`/cmd/newsummary?name=checks`, 409, /already exists/);
    await expectError(`/cmd/addhost?host=${targetA.id}&ID=987654`, 404, /Summary 987654 not found/);
    await expectError(`/cmd/addhost?host=${targetA.id}&ID=abc`, 400);
    await expectError(`/cmd/addhost?host=424242&ID=${s.UniqueID}`, 404, /Target 424242 not found/);
    await expectError(`/cmd/removefromsummary?host=424242&ID=${s.UniqueID}`, 404);
    await expectError(`/cmd/renamesummary?name=${q(' ')}&ID=${s.UniqueID}`, 400);
    await expectError(`/cmd/closesummary?ID=987654`, 404);

    const all = (await json('/cmd/getsummaries'))[0].UniqueID;
    await expectError(`/cmd/addhost?host=${targetA.id}&ID=${all}`, 400, /^Targets cannot be added to or removed from All Targets\.$/);
    await expectError(`/cmd/removefromsummary?host=${targetA.id}&ID=${all}`, 400, /^Targets cannot be added to or removed from All Targets\.$/);
    await expectError(`/cmd/renamesummary?name=x&ID=${all}`, 400);
    await expectError(`/cmd/closesummary?ID=${all}`, 400);
    expect((await call(`/cmd/closesummary?ID=${s.UniqueID}`)).status).toBe(204);
  });

  it('needs SummaryManagement to create, rename or delete and TargetManagement to add or remove', async () => {
    const s = await json(`/cmd/newsummary?name=${q('Admin owned')}`);
    const id = s.UniqueID;
    await expectError(`/cmd/newsummary?name=mine`, 403, /SummaryManagement/, plain);
    await expectError(`/cmd/createsummary?name=mine`, 403, /SummaryManagement/, plain);
    await expectError(`/cmd/renamesummary?name=mine&ID=${id}`, 403, /SummaryManagement/, plain);
    await expectError(`/cmd/closesummary?ID=${id}`, 403, /SummaryManagement/, plain);
    await expectError(`/cmd/addhost?host=${targetA.id}&ID=${id}`, 403, /TargetManagement/, plain);
    await expectError(`/cmd/removefromsummary?host=${targetA.id}&ID=${id}`, 403, /TargetManagement/, plain);

    // Reading is allowed, and the flags tell the console what this user may do.
    const seen = (await json('/cmd/getsummaries', plain)).find((x: { UniqueID: string }) => x.UniqueID === id);
    expect(seen).toMatchObject({ Name: 'Admin owned', CanClose: false, Editable: false, CanChangeTargets: false });

    const anonymous = await fetch(`${hw.url}/cmd/getsummaries`);
    expect(anonymous.status).toBe(401);
    expect((await call(`/cmd/closesummary?ID=${id}`)).status).toBe(204);
  });

  it('keeps summaries and their members across a restart', async () => {
    const s = await json(`/cmd/newsummary?name=${q('Survivor')}&addhost=${targetA.id}`);
    const before = await json('/cmd/getsummaries');
    hw = await hw.restart();
    const after = await json('/cmd/getsummaries');
    expect(after).toEqual(before);
    expect(after.find((x: { UniqueID: string }) => x.UniqueID === s.UniqueID)).toMatchObject({ Name: 'Survivor', TargetCount: 1 });
  });
});

describe('summaries licence', () => {
  it('answers 403 without the Professional licence', async () => {
    const std = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword, HOPWATCH_LICENSE_MODE: '1' } });
    try {
      const cookie = await signIn(std.url, 'admin', RootPassword);
      for (const path of ['/cmd/getsummaries', '/cmd/newsummary?name=x']) {
        const r = await fetch(`${std.url}${path}`, { headers: { cookie } });
        expect(r.status, path).toBe(403);
        expect((await r.json()).Error).toMatch(/Professional/);
      }
    } finally {
      await std.dispose();
    }
  });
});

// With the real Local Machine agent: a trace to loopback, started and closed through /cmd
// (raw sockets as root, the simulated engine otherwise: see engineEnv()).
describe('summaries with a started trace', () => {
  it('adds and removes a started target, counts it in All Targets, and records the trace history', async () => {
    const allBefore = (await json('/cmd/getsummaries'))[0].TargetCount;
    const started = await json('/cmd/newtarget?target=127.0.0.1&traceInterval=1');
    const id = String(started.ID);
    try {
      expect((await json('/cmd/getsummaries'))[0].TargetCount).toBe(allBefore + 1);
      const s = await json(`/cmd/newsummary?name=${q('Live')}&addhost=${id}`);
      expect(s.TargetCount).toBe(1);
      expect((await json(`/cmd/addhost?host=${id}_h_1&ID=${s.UniqueID}`)).TargetCount).toBe(1);
      expect((await json(`/cmd/removefromsummary?host=${id}&ID=${s.UniqueID}`)).TargetCount).toBe(0);
      expect((await json(`/cmd/addhost?host=${id}&ID=${s.UniqueID}`)).TargetCount).toBe(1);

      const history = JSON.parse(await json('/api/kvp/get?Type=AccountAndUser&KeyName=TraceTargetHistory'));
      expect(history[0]).toBe('127.0.0.1');

      // Closing the target takes it out of the counts, though it stays a member.
      expect([200, 204]).toContain((await call(`/cmd/close?ID=${id}`)).status);
      expect((await json('/cmd/getsummaries'))[0].TargetCount).toBe(allBefore);
      expect((await json('/cmd/getsummaries')).find((x: { UniqueID: string }) => x.UniqueID === s.UniqueID).TargetCount).toBe(0);
      await expectError(`/cmd/addhost?host=${id}&ID=${s.UniqueID}`, 400, /closed/);
    } finally {
      await call(`/cmd/close?ID=${id}`);
    }
  });
});
