// The Path view's call through real HTTP and /mainHub (issue 44 item 5): a LiveShare visitor
// gets the view of its link's summary and targets and nothing else (404 like another account's
// target, on both doors); bad input is refused with { Error } and the right status.
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PathView } from '../../server/contract/path-view.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';
import { connectHub } from '../security/support.js';
import { seedSessions, type SeededSession } from './seed-sessions.js';

const RootPassword = 'path-view-root-pw';
let hw: Appliance;
let admin: string;
let targetA: SeededSession;
let targetB: SeededSession;
let shared: string;
let other: string;
const q = encodeURIComponent;
const call = async (path: string, cookie: string, init: RequestInit = {}) => {
  const r = await fetch(`${hw.url}${path}`, { ...init, headers: { cookie, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const now = Date.now();
const view = (kind: string, id: string | number, cookie: string, start = now - 3600_000, end = now) => call(`/api/path/PathView?kind=${kind}&id=${q(String(id))}&start=${start}&end=${end}`, cookie);

beforeAll(async () => {
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  await first.stop();
  // Paused sessions: no engine resumes them, so the suite needs no probing.
  [targetA, targetB] = await seedSessions(first.dataDir, [
    { target: '127.0.0.1', state: 1 },
    { target: '127.0.0.2', state: 1 },
  ]);
  hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: RootPassword, ...engineEnv() } });
  admin = await signIn(hw.url, 'admin', RootPassword);
  shared = ((await call(`/cmd/createsummary?name=${q('Shared')}`, admin)).body as { UniqueID: string }).UniqueID;
  other = ((await call(`/cmd/createsummary?name=${q('Not shared')}`, admin)).body as { UniqueID: string }).UniqueID;
  expect((await call(`/cmd/addhost?host=${targetA.id}&ID=${shared}`, admin)).status).toBe(200);
  expect((await call(`/cmd/addhost?host=${targetB.id}&ID=${other}`, admin)).status).toBe(200);
}, 180_000);
afterAll(async () => {
  await hw?.dispose();
});

describe('the Path view call', () => {
  it('answers a summary with its targets, and a target alone', async () => {
    const s = await view('Summary', shared, admin);
    expect(s.status).toBe(200);
    expect((s.body as unknown as PathView).Sessions.map((x) => x.SessionId)).toEqual([targetA.id]);
    expect((await view('Summary', `SUM-${other}`, admin)).status).toBe(200);
    const t = (await view('Target', targetB.id, admin)).body as unknown as PathView;
    expect(t.Sessions.map((x) => x.SessionId)).toEqual([targetB.id]);
    expect(t.Kind).toBe('Target');
  });

  it('refuses bad input with { Error } and 400, an unknown target with 404', async () => {
    for (const [path, status] of [
      [`/api/path/PathView?kind=Target&id=${targetA.id}&start=${now}&end=${now - 1000}`, 400],
      [`/api/path/PathView?kind=Target&id=${targetA.id}&start=${now - 40 * 86400_000}&end=${now}`, 400],
      [`/api/path/PathView?kind=Target&id=${targetA.id}&start=yesterday&end=${now}`, 400],
      [`/api/path/PathView?kind=Route&id=${targetA.id}&start=${now - 1000}&end=${now}`, 400],
      [`/api/path/PathView?kind=Summary&id=1e23&start=${now - 1000}&end=${now}`, 400],
      [`/api/path/PathView?kind=Target&id=999999&start=${now - 1000}&end=${now}`, 404],
    ] as const) {
      const r = await call(path, admin);
      expect(r.status, path).toBe(status);
      expect(typeof r.body.Error, path).toBe('string');
    }
  });

  it("keeps a LiveShare visitor to its link's summary and targets, on REST and the hub", async () => {
    const link = await call('/api/liveshare', admin, { method: 'POST', body: JSON.stringify({ SummaryID: `SUM-${shared}` }) });
    expect(link.status).toBe(200);
    const visitor = `liveshareid=${q(`${link.body.ShareId}/${link.body.SecurePW}`)}`;
    const mine = await view('Summary', shared, visitor);
    expect(mine.status).toBe(200);
    expect((mine.body as unknown as PathView).Sessions.map((x) => x.SessionId)).toEqual([targetA.id]);
    expect((await view('Target', targetA.id, visitor)).status).toBe(200);
    expect((await view('Target', targetB.id, visitor)).status).toBe(404);
    expect((await view('Summary', other, visitor)).status).toBe(404);
    const hub = await connectHub(hw, visitor, HttpTransportType.WebSockets);
    try {
      const answer = (await hub.connection.invoke('PathView', 'Summary', shared, now - 3600_000, now)) as PathView;
      expect(answer.Sessions.map((x) => x.SessionId)).toEqual([targetA.id]);
      await expect(hub.connection.invoke('PathView', 'Target', String(targetB.id), now - 3600_000, now)).rejects.toThrow(/not found/);
      await expect(hub.connection.invoke('PathView', 'Summary', other, now - 3600_000, now)).rejects.toThrow(/not found/);
    } finally {
      await hub.connection.stop();
    }
  });
});
