// Issue 39 item 10: what a LiveShare visitor hears follows what its link shares now, per
// account. (1) A target removed from a shared summary: the open visitor that registered for
// its samples and comments hears no more HostUpdated or CommentChanged of it (it still
// hears the targets that stay shared). (2) Hosted flavour: a visitor of account A's Local
// Machine link (AGT--1) hears SummaryHostUpdated of A's Local Machine targets, never of
// account B's. Before, (1) went on until the visitor disconnected and (2) reached every
// account's visitors.
//
// No waiting for something not to happen: every event goes to all its group's connections in
// one turn, so once a control connection of the owner heard an event, a round trip on the
// visitor's (ordered) connection shows whether the visitor was sent it too.
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccount } from '../../server/contract/accounts.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { caller, q } from '../security/support.js';

type Heard = { event: string; args: unknown[] };

/** A WebSocket connection that keeps every event it hears. */
async function listening(hw: Appliance, cookie: string): Promise<{ connection: HubConnection; heard: Heard[] }> {
  const connection = new HubConnectionBuilder()
    .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
    .configureLogging(LogLevel.None)
    .build();
  const heard: Heard[] = [];
  for (const event of ['HostUpdated', 'CommentChanged', 'SummaryHostUpdated']) connection.on(event, (...args: unknown[]) => heard.push({ event, args }));
  await connection.start();
  return { connection, heard };
}

/** Waits (polling the list the connection fills) until an event passes the test; returns its index. */
async function hears(heard: Heard[], test: (h: Heard) => boolean, what: string, from = 0): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const at = heard.findIndex((h, k) => k >= from && test(h));
    if (at >= 0) return at;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never heard ${what}`);
}

const json = async <T>(r: Response): Promise<T> => {
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return JSON.parse(text) as T;
};

describe('a LiveShare visitor after a target leaves the shared summary', () => {
  let hw: Appliance;
  let admin: string;
  let call: ReturnType<typeof caller>;
  const open: HubConnection[] = [];
  beforeAll(async () => {
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw', HOPWATCH_ENGINE: 'simulated' } });
    admin = await signIn(hw.url, 'admin', 'root-pw');
    call = caller(hw);
  });
  afterAll(async () => {
    for (const c of open) await c.stop();
    await hw?.dispose();
  });

  it('hears nothing more of it, and still hears the targets that stay', async () => {
    const removed = (await json<{ ID: number }>(await call('/cmd/newtarget?target=127.0.0.1&traceInterval=1', admin))).ID;
    const kept = (await json<{ ID: number }>(await call(`/cmd/newtarget?target=${q('::1')}&traceInterval=1`, admin))).ID;
    const summary = (await json<{ UniqueID: string }>(await call('/cmd/createsummary?name=shared', admin))).UniqueID;
    for (const t of [removed, kept]) await json(await call(`/cmd/addhost?host=${t}&ID=${summary}`, admin));
    const link = await json<{ ShareId: string; SecurePW: string }>(await call('/api/liveshare', admin, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summary}` }) }));
    const visitor = await listening(hw, `liveshareid=${q(`${link.ShareId}/${link.SecurePW}`)}`);
    const owner = await listening(hw, admin);
    open.push(visitor.connection, owner.connection);
    for (const c of [visitor.connection, owner.connection]) {
      for (const t of [removed, kept]) await c.invoke('RegisterForNewSamples', t);
      await c.invoke('RegisterForComments', removed);
      await c.invoke('RegisterForChangesToSummary', summary);
    }
    const hostUpdated = (t: number) => (h: Heard) => h.event === 'HostUpdated' && h.args[0] === String(t);
    const commentChanged = (t: number) => (h: Heard) => h.event === 'CommentChanged' && h.args[0] === String(t);
    const summaryHostUpdated = (t: number) => (h: Heard) => h.event === 'SummaryHostUpdated' && h.args[0] === summary && h.args[1] === String(t);
    // While shared, the visitor hears the target.
    await hears(visitor.heard, hostUpdated(removed), 'HostUpdated of the shared target');

    await json(await call(`/cmd/removefromsummary?host=${removed}&ID=${summary}`, admin));
    // Whatever was sent before the removal arrives before this answer.
    await visitor.connection.invoke('GetSampleCountForSession', kept);
    const since = visitor.heard.length;
    const ownerSince = owner.heard.length;

    const comment = await call('/cmd/createcomment', admin, {
      method: 'PUT',
      body: JSON.stringify({ SessionWebId: String(removed), Text: 'after the removal', When: new Date().toISOString(), Type: 0 }),
    });
    expect(comment.status, await comment.clone().text()).toBe(200);
    await hears(owner.heard, commentChanged(removed), 'CommentChanged (owner)', ownerSince);
    await hears(owner.heard, hostUpdated(removed), 'HostUpdated of the removed target (owner)', ownerSince);
    // The targets that stay shared are still heard, in the summary too.
    await hears(visitor.heard, hostUpdated(kept), 'HostUpdated of the kept target', since);
    await hears(owner.heard, summaryHostUpdated(kept), 'SummaryHostUpdated of the kept target (owner)', ownerSince);
    await visitor.connection.invoke('GetSampleCountForSession', kept);
    const after = visitor.heard.slice(since);
    expect(after.filter(hostUpdated(removed))).toEqual([]);
    expect(after.filter(commentChanged(removed))).toEqual([]);
    expect(after.filter(summaryHostUpdated(removed))).toEqual([]);
    expect(after.filter(summaryHostUpdated(kept)).length).toBeGreaterThan(0);
    // And registering for it again is refused: it is no longer shared.
    await expect(visitor.connection.invoke('RegisterForNewSamples', removed)).rejects.toThrow();
  }, 60_000);
});

describe("hosted: a visitor of one account's Local Machine link", () => {
  const staff = { user: 'ops@provider.example', password: 'Staff-pw-groups-1' };
  let hw: Appliance;
  let call: ReturnType<typeof caller>;
  const open: HubConnection[] = [];

  /** A customer account the provider lets trace from the Local Machine (issue 39 item 15). */
  async function account(name: string, email: string): Promise<string> {
    const made = await json<CreatedAccount>(await call('/api/staff/accounts', await signIn(hw.url, staff.user, staff.password), { method: 'POST', body: JSON.stringify({ Name: name, UserEmail: email, EntitledTraces: 5, LocalMachine: true }) }));
    const temp = await signIn(hw.url, email, made.TemporaryPassword);
    const password = `Own-pw-${made.Account.Id}-groups`;
    await json(await call(`/api/Account?newPassword=${q(password)}`, temp, { method: 'PATCH' }));
    return signIn(hw.url, email, password);
  }

  beforeAll(async () => {
    hw = await startAppliance({
      env: { HOPWATCH_DEPLOYMENT: '1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_ROOT_PASSWORD: 'root-pw-groups', HOPWATCH_STAFF_USER: staff.user, HOPWATCH_STAFF_PASSWORD: staff.password },
    });
    call = caller(hw);
  });
  afterAll(async () => {
    for (const c of open) await c.stop();
    await hw?.dispose();
  });

  it("hears its account's Local Machine targets and not another account's", async () => {
    const a = await account('Account A', 'amy@a.example');
    const b = await account('Account B', 'bea@b.example');
    const mine = (await json<{ ID: number }>(await call('/cmd/newtarget?target=127.0.0.1&traceInterval=1', a))).ID;
    const theirs = (await json<{ ID: number }>(await call('/cmd/newtarget?target=127.0.0.1&traceInterval=1', b))).ID;
    const link = await json<{ ShareId: string; SecurePW: string }>(await call('/api/liveshare', a, { method: 'POST', body: JSON.stringify({ SummaryID: 'AGT--1' }) }));
    const visitor = await listening(hw, `liveshareid=${q(`${link.ShareId}/${link.SecurePW}`)}`);
    const bOwner = await listening(hw, b);
    open.push(visitor.connection, bOwner.connection);
    await visitor.connection.invoke('RegisterForChangesToSummary', 0);
    // B's All Targets summary hears B's target in the same turn as any agent link's visitors would.
    const bAll = (await json<{ UniqueID: string; IsAllTargets: boolean }[]>(await call('/cmd/getsummaries', b))).find((s) => s.IsAllTargets)!.UniqueID;
    await bOwner.connection.invoke('RegisterForChangesToSummary', bAll);
    const summaryHostUpdated = (t: number) => (h: Heard) => h.event === 'SummaryHostUpdated' && h.args[1] === String(t);

    await hears(visitor.heard, summaryHostUpdated(mine), "SummaryHostUpdated of A's Local Machine target");
    await hears(bOwner.heard, summaryHostUpdated(theirs), "SummaryHostUpdated of B's target (B)", bOwner.heard.length);
    await visitor.connection.invoke('GetSampleCountForSession', mine);
    expect(visitor.heard.filter(summaryHostUpdated(theirs))).toEqual([]);
  }, 60_000);
});
