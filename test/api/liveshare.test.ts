// LiveShare over real HTTP and /mainHub (issue 20): the eight calls with their entities,
// the visitor signed in by its liveshareid cookie and kept to its link's targets, the
// history of visits and management actions, switching a link off (the visitor's hub
// connection closes, its next call answers 401), deleting, wrong-password limits, and no
// link password in the log.
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';
import { connectHub } from '../security/support.js';
import { seedSessions, type SeededSession } from './seed-sessions.js';

const RootPassword = 'liveshare-root-pw';
let hw: Appliance;
let admin: string;
let viewerOnly: string;
let targetA: SeededSession;
let targetB: SeededSession;
let summaryId: string;

interface Link {
  DbId: number;
  ShareId: string;
  SecurePW: string;
  Description: string;
  Notes: string;
  Active: boolean;
  CreationDate: string;
  ExpirationDate: string | null;
  SummaryID: string;
  TargetID: string;
  Account: number;
  CreatedByUser: string;
  LiveShareURL: string;
}
interface History {
  DbId: number;
  LinkId: number;
  Link: string;
  Date: string;
  IPAddress: string;
  Action: string;
  LogText: string;
}

const q = encodeURIComponent;
const call = (path: string, cookie: string | undefined = admin, init: RequestInit = {}) =>
  fetch(`${hw.url}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), 'content-type': 'application/json', ...(init.headers ?? {}) } });
async function ok<T>(path: string, cookie: string | undefined = admin, init: RequestInit = {}): Promise<T> {
  const r = await call(path, cookie, init);
  const text = await r.text();
  expect(r.status, `${path}: ${text}`).toBe(200);
  return JSON.parse(text) as T;
}
async function refused(path: string, status: number, cookie: string | undefined = admin, init: RequestInit = {}): Promise<string> {
  const r = await call(path, cookie, init);
  const body = (await r.json()) as { Error: string };
  expect(r.status, `${path}: ${JSON.stringify(body)}`).toBe(status);
  expect(typeof body.Error).toBe('string');
  return body.Error;
}
const create = (body: object) => ok<Link>('/api/liveshare', admin, { method: 'POST', body: JSON.stringify(body) });
const visitorOf = (l: Link) => `liveshareid=${q(`${l.ShareId}/${l.SecurePW}`)}`;
const historyOf = (l: Link) => ok<History[]>(`/api/liveshare/GetHistoryForLink?shareId=${q(l.ShareId)}`);

beforeAll(async () => {
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  await first.stop();
  // Paused sessions: open targets no engine resumes, so the suite needs no probing.
  [targetA, targetB] = await seedSessions(first.dataDir, [
    { target: '127.0.0.1', state: 1 },
    { target: '127.0.0.2', state: 1 },
  ]);
  // Debug logging: every request line is written, so the log check below sees the viewer URL.
  hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: RootPassword, HOPWATCH_LOG_LEVEL: 'debug', ...engineEnv() } });
  admin = await signIn(hw.url, 'admin', RootPassword);
  const s = await ok<{ UniqueID: string }>(`/cmd/createsummary?name=${q('Shared with the ISP')}`);
  summaryId = s.UniqueID;
  await ok(`/cmd/addhost?host=${targetA.id}&ID=${summaryId}`);
  // A user without SummaryManagement: may view summaries, may not manage links.
  await ok('/api/user?password=Shared-pw-91', admin, { method: 'POST', body: JSON.stringify({ EmailAddress: 'viewer@example.org', Roles: ['TargetManagement'] }) });
  viewerOnly = await signIn(hw.url, 'viewer@example.org', 'Shared-pw-91');
}, 180_000);
afterAll(async () => {
  await hw?.dispose();
});

describe('LiveShare link management', () => {
  it('creates a link with every field of the entity, a random id and password of 128 bits each, and its viewer URL', async () => {
    const before = Date.now();
    const l = await create({ SummaryID: `SUM-${summaryId}`, Description: 'For the ISP', Notes: 'ticket 42' });
    expect(Object.keys(l).sort()).toEqual(
      ['Account', 'Active', 'CreatedByUser', 'CreationDate', 'DbId', 'Description', 'ExpirationDate', 'LiveShareURL', 'Notes', 'SecurePW', 'ShareId', 'SummaryID', 'TargetID'].sort(),
    );
    expect(l).toMatchObject({ Description: 'For the ISP', Notes: 'ticket 42', Active: true, ExpirationDate: null, SummaryID: `SUM-${summaryId}`, CreatedByUser: 'admin' });
    // 16 random bytes each, base64url: 22 characters.
    expect(l.ShareId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(l.SecurePW).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(l.LiveShareURL).toBe(`${hw.url}/LiveShare/${l.ShareId}/${l.SecurePW}`);
    expect(Date.parse(l.CreationDate)).toBeGreaterThanOrEqual(before - 1000);
    const other = await create({ SummaryID: `SUM-${summaryId}` });
    expect(other.ShareId).not.toBe(l.ShareId);
    expect(other.SecurePW).not.toBe(l.SecurePW);
    // The spec's fallback name.
    expect(other.Description).toMatch(/^Created /);
  });

  it('lists all links, the links of one summary, and one link; an unknown summary is "not a valid summary"', async () => {
    const l = await create({ SummaryID: `sum-${summaryId}`, Description: 'listed' });
    expect(l.SummaryID).toBe(`SUM-${summaryId}`);
    const all = await ok<Link[]>('/api/liveshare');
    expect(all.map((x) => x.ShareId)).toContain(l.ShareId);
    const forSummary = await ok<Link[]>(`/api/liveshare/GetLinksForSummary?summaryID=SUM-${summaryId}`);
    expect(forSummary.every((x) => x.SummaryID === `SUM-${summaryId}`)).toBe(true);
    expect(forSummary.map((x) => x.ShareId)).toContain(l.ShareId);
    expect(await ok<Link>(`/api/liveshare/${l.ShareId}`)).toEqual(l);
    expect(await refused('/api/liveshare/GetLinksForSummary?summaryID=SUM-999999', 404)).toBe('Summary SUM-999999 not a valid summary');
    expect(await refused('/api/liveshare/GetLinksForSummary?summaryID=AGT-no-such-agent', 404)).toBe('Summary AGT-no-such-agent not a valid summary');
    await refused('/api/liveshare', 404, admin, { method: 'POST', body: JSON.stringify({ SummaryID: 'SUM-999999' }) });
    await refused('/api/liveshare/not-a-link', 404);
  });

  it('links an agent\'s targets (AGT-{uniqueId}): the Local Machine here', async () => {
    const l = await create({ SummaryID: 'AGT--1' });
    expect(l.SummaryID).toBe('AGT--1');
    const visitor = visitorOf(l);
    const sums = await ok<{ UniqueID: string; Name: string; TargetCount: number }[]>('/cmd/getsummaries', visitor);
    expect(sums).toEqual([expect.objectContaining({ UniqueID: '0', Name: 'Local Machine', TargetCount: 2 })]);
    const rows = await ok<{ Rows: { UniqueID: string }[] }>(`/api/data/TraceGraphRows?listType=Summary&uniqueID=0&${q('requests[0].ID')}=0`, visitor);
    expect(rows.Rows.map((r) => r.UniqueID.split('_')[0]).sort()).toEqual([String(targetA.id), String(targetB.id)].sort());
  });

  it('edits a link: empty fields keep their old values, Active switches it, the expiration can be set and cleared', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}`, Description: 'to edit', Notes: 'old notes' });
    const put = (body: object) => ok<Link>(`/api/liveshare/${l.ShareId}`, admin, { method: 'PUT', body: JSON.stringify(body) });
    const kept = await put({ Description: '', Notes: '' });
    expect(kept).toMatchObject({ Description: 'to edit', Notes: 'old notes', Active: true });
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const changed = await put({ Description: 'renamed', ExpirationDate: expires, Active: false });
    expect(changed).toMatchObject({ Description: 'renamed', Notes: 'old notes', Active: false, ExpirationDate: expires });
    expect(await put({ ExpirationDate: null, Active: true })).toMatchObject({ ExpirationDate: null, Active: true });
    await refused(`/api/liveshare/${l.ShareId}`, 400, admin, { method: 'PUT', body: JSON.stringify({ ExpirationDate: '2001-01-01T00:00:00Z' }) });
    const actions = (await historyOf(l)).map((h) => h.Action);
    expect(actions).toEqual(['Created', 'Updated', 'Disabled', 'Updated', 'Enabled']);
  });

  it('needs SummaryManagement: a user without it is refused every call', async () => {
    await refused('/api/liveshare', 403, viewerOnly);
    await refused('/api/liveshare', 403, viewerOnly, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${summaryId}` }) });
    await refused('/api/liveshare', 401, '');
  });

  it('deletes an active link by switching it off, an inactive one for good; its history stays', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}`, Description: 'to delete' });
    const del = () => call(`/api/liveshare/DeleteLink?shareId=${l.ShareId}`, admin, { method: 'DELETE' });
    expect((await del()).status).toBe(204);
    expect((await ok<Link>(`/api/liveshare/${l.ShareId}`)).Active).toBe(false);
    expect((await del()).status).toBe(204);
    await refused(`/api/liveshare/${l.ShareId}`, 404);
    expect((await historyOf(l)).map((h) => h.Action)).toEqual(['Created', 'Disabled', 'Deleted']);
  });

  it('AddLinkHistory writes a note with the caller\'s address and the time', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}` });
    const h = await ok<History>('/api/liveshare/AddLinkHistory', admin, { method: 'PUT', body: JSON.stringify({ ShareId: l.ShareId, Action: 'Note', LogText: 'sent to the ISP' }) });
    expect(h).toMatchObject({ LinkId: l.DbId, Link: l.ShareId, Action: 'Note', LogText: 'sent to the ISP', IPAddress: '127.0.0.1' });
    expect((await historyOf(l)).at(-1)).toEqual(h);
  });
});

describe('a LiveShare visitor', () => {
  it('is signed in by the liveshareid cookie and sees only the linked summary and its targets', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}`, Description: 'visit me' });
    const visitor = visitorOf(l);
    const me = await ok<{ IsLiveshare: boolean; IsUser: boolean; Claims: string[] }>('/api/Account/GetCurrentUser', visitor);
    expect(me).toMatchObject({ IsLiveshare: true, IsUser: false, Claims: [] });
    const sums = await ok<{ UniqueID: string; Name: string; Editable: boolean }[]>('/cmd/getsummaries', visitor);
    expect(sums).toEqual([expect.objectContaining({ UniqueID: summaryId, Name: 'Shared with the ISP', Editable: false })]);
    const rows = await ok<{ Rows: { UniqueID: string; Editable: boolean }[] }>(`/api/data/TraceGraphRows?listType=Summary&uniqueID=${summaryId}&${q('requests[0].ID')}=${summaryId}`, visitor);
    expect(rows.Rows.map((r) => r.UniqueID.split('_')[0])).toEqual([String(targetA.id)]);
    expect(rows.Rows.every((r) => !r.Editable)).toBe(true);
    await ok(`/api/data/TraceGraphRows?listType=Target&uniqueID=${targetA.id}&${q('requests[0].ID')}=${targetA.id}`, visitor);
    // Target B is not in the link: not found, as another account's target.
    await refused(`/api/data/TraceGraphRows?listType=Target&uniqueID=${targetB.id}&${q('requests[0].ID')}=${targetB.id}`, 404, visitor);
    await refused(`/api/data/ColumnDefs?uniqueID=${targetB.id}`, 404, visitor);
    const t = Date.now();
    await refused(`/cmd/getcomments?sessionWebId=${targetB.id}&startDate=${t - 60_000}&endDate=${t}`, 404, visitor);
    await refused(`/api/data/TraceGraphRows?listType=Summary&uniqueID=1&${q('requests[0].ID')}=1`, 404, visitor);
    // Nothing that changes anything, nor the management calls.
    const text = await refused(`/cmd/newtarget?target=127.0.0.9&traceInterval=1`, 403, visitor);
    expect(text).toMatch(/^This needs the /);
    await refused(`/cmd/stoptrace?ID=${targetA.id}`, 403, visitor);
    await refused('/api/liveshare', 403, visitor);
    await refused('/api/user', 403, visitor);
  });

  it('reaches the linked targets over /mainHub and nothing else', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}` });
    const hub = await connectHub(hw, visitorOf(l), HttpTransportType.WebSockets);
    try {
      await hub.connection.invoke('RegisterForChangesToSummary', summaryId);
      await hub.connection.invoke('RegisterForNewSamples', targetA.id);
      await expect(hub.connection.invoke('RegisterForNewSamples', targetB.id)).rejects.toThrow(/not found/);
      await expect(hub.connection.invoke('ResetAndRestart', targetA.id)).rejects.toThrow(/This needs the /);
      await expect(hub.connection.invoke('CreateSummary', 'nope')).rejects.toThrow(/This needs the /);
    } finally {
      await hub.connection.stop();
    }
  });

  it('is in the link\'s history with its address and time', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}` });
    const t = Date.now();
    await ok('/api/Account/GetCurrentUser', visitorOf(l));
    await ok('/api/Account/GetCurrentUser', visitorOf(l));
    const visits = (await historyOf(l)).filter((h) => h.Action === 'Visit');
    // Once per address (and half hour), not once per request.
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ IPAddress: '127.0.0.1', LinkId: l.DbId, Link: l.ShareId });
    expect(Date.parse(visits[0].Date)).toBeGreaterThanOrEqual(t - 1000);
  });

  it('loses the view when the link is switched off: its hub connection closes and the next call answers 401', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}` });
    const visitor = visitorOf(l);
    const hub = await connectHub(hw, visitor, HttpTransportType.WebSockets);
    await hub.connection.invoke('RegisterForNewSamples', targetA.id);
    await ok<Link>(`/api/liveshare/${l.ShareId}`, admin, { method: 'PUT', body: JSON.stringify({ Active: false }) });
    const err = await hub.closed;
    expect(String(err)).toMatch(/switched off/);
    await refused('/api/Account/GetCurrentUser', 401, visitor);
    await refused(`/api/data/ColumnDefs?uniqueID=${targetA.id}`, 401, visitor);
    // Switched on again, the same URL works again.
    await ok<Link>(`/api/liveshare/${l.ShareId}`, admin, { method: 'PUT', body: JSON.stringify({ Active: true }) });
    await ok('/api/Account/GetCurrentUser', visitor);
  });

  it('is refused with an expired link, a wrong password, or a deleted link', async () => {
    const l = await create({ SummaryID: `SUM-${summaryId}`, ExpirationDate: new Date(Date.now() + 1500).toISOString() });
    await ok('/api/Account/GetCurrentUser', visitorOf(l));
    await new Promise((r) => setTimeout(r, 1600));
    await refused('/api/Account/GetCurrentUser', 401, visitorOf(l));
    const m = await create({ SummaryID: `SUM-${summaryId}` });
    await refused('/api/Account/GetCurrentUser', 401, `liveshareid=${q(`${m.ShareId}/wrong-password`)}`);
    expect((await historyOf(m)).some((h) => h.Action === 'WrongPassword')).toBe(true);
  });

  it('wrong passwords are limited per address (429), and the link password never reaches the log', async () => {
    // The console's viewer route: the request line (debug) must not carry the password.
    const l = await create({ SummaryID: `SUM-${summaryId}` });
    await call(`/LiveShare/${l.ShareId}/${l.SecurePW}`, '');
    await ok('/api/Account/GetCurrentUser', visitorOf(l));
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) {
      status = (await call('/api/Account/GetCurrentUser', `liveshareid=${q(`${l.ShareId}/guess-${i}`)}`)).status;
    }
    expect(status).toBe(429);
    // While limited, even the right password is not checked from this address.
    expect((await call('/api/Account/GetCurrentUser', visitorOf(l))).status).toBe(429);
    // Signed-in users are not affected.
    await ok('/api/Account/GetCurrentUser', admin);
    expect(hw.output()).toContain(`/LiveShare/${l.ShareId}/***`);
    expect(hw.output()).not.toContain(l.SecurePW);
  });
});
