// The sessions page's calls (issue 18 item 3): GET /api/Sessions, PATCH / (open), DELETE /
// (delete), PATCH /PerformSessionListCommand and the hub's PerformSessionListCommand (one
// service), SessionsChanged, the refusal to delete an open session, deletion of everything
// a session had, and the retention setting. Histories are seeded through the ingest
// pipeline (no probing, no root).
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { Store } from '../support/built.js';
import { createUser, expectAlive } from '../security/support.js';
import { seedHistories } from './seed-history.js';
import { openTestStore } from '../../server/store/testing/test-store.js';
import { countRollupRows, countSamples } from '../../server/store/testing/stored-rows.js';

const H = 3_600_000;
const DAY = 24 * H;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

interface Session {
  SessionID: number;
  State: number;
  StateString: string;
  SampleCount: number;
  EndTime: string | null;
  AgentName: string;
  TargetName: string;
}

// The seeded histories (January 2026) must outlive the expiry every start runs (30 raw days by
// default): PostgreSQL drops their day partitions at once, DuckDB deletes them in 10-minute
// slices and had not reached them when the suite read them back.
const KeepHistory = { HOPWATCH_RETENTION_RAW_DAYS: '3650', HOPWATCH_RETENTION_MINUTE_DAYS: '3650' };

async function applianceWith(env: Record<string, string>, seed: (dataDir: string) => Promise<number[]>) {
  const first = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...KeepHistory, ...env } });
  await first.stop();
  const ids = await seed(first.dataDir);
  const hw = await startAppliance({ dataDir: first.dataDir, port: first.port, env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...KeepHistory, ...env } });
  return { hw, ids };
}

describe('sessions', () => {
  let hw: Appliance;
  let cookie: string;
  let hub: HubConnection;
  let closedA: number;
  let closedB: number;
  let paused: number;
  let closedC: number;
  const changed: number[] = [];

  const call = async (method: string, path: string, body?: unknown, as = cookie) => {
    const r = await fetch(`${hw.url}${path}`, {
      method,
      headers: { cookie: as, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & { Error?: string } };
  };
  const list = async () => (await call('GET', '/api/Sessions')).body as unknown as Session[];

  beforeAll(async () => {
    ({ hw, ids: [closedA, closedB, paused, closedC] } = await applianceWith({}, (dir) =>
      seedHistories(dir, [
        { target: 'a.example.test', state: 2, hops: 3, from: T0, to: T0 + H, intervalMs: 10_000, comments: [{ when: T0 + 60_000, text: 'note' }] },
        { target: 'b.example.test', state: 2, hops: 2, from: T0, to: T0 + H / 2, intervalMs: 10_000 },
        { target: 'paused.example.test', state: 1, hops: 2, from: T0, to: T0 + H / 2, intervalMs: 10_000 },
        { target: 'c.example.test', state: 2, hops: 2, from: T0, to: T0 + H / 4, intervalMs: 10_000 },
      ]),
    ));
    cookie = await signIn(hw.url, 'admin', 'pw');
    hub = new HubConnectionBuilder()
      .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    hub.on('SessionsChanged', () => changed.push(Date.now()));
    await hub.start();
  }, 120_000);
  afterAll(async () => {
    await hub?.stop();
    await hw?.dispose();
  });

  it('lists the sessions with their states, agent and sample counts', async () => {
    const sessions = await list();
    const a = sessions.find((s) => s.SessionID === closedA)!;
    expect(a).toMatchObject({ State: 2, StateString: 'Closed', AgentName: 'Local Machine', TargetName: 'a.example.test', EndTime: new Date(T0 + H).toISOString() });
    expect(a.SampleCount).toBe(360 * 3);
    expect(await hub.invoke('GetSampleCountForSession', closedA, -1)).toBe(a.SampleCount);
    expect(sessions.find((s) => s.SessionID === paused)).toMatchObject({ State: 1, StateString: 'Paused' });
  });

  it('needs the SessionManagement claim', async () => {
    const id = await createUser(hw, cookie, 'viewer@example.org', 'Sessions-reader-pw-1', ['TargetManagement']);
    expect(id).toBeGreaterThan(0);
    const viewer = await signIn(hw.url, 'viewer@example.org', 'Sessions-reader-pw-1');
    const r = await call('GET', '/api/Sessions', undefined, viewer);
    expect(r.status).toBe(403);
    expect(r.body.Error).toMatch(/SessionManagement/);
    expect((await call('DELETE', '/api/Sessions', { IDs: [closedC] }, viewer)).status).toBe(403);
  });

  it('refuses to delete an open session, and then deletes nothing of the command', async () => {
    const r = await call('DELETE', '/api/Sessions', { Type: 1, IDs: [closedC, paused], PingServerId: -1 });
    expect(r.status).toBe(409);
    expect(r.body.Error).toBe(
      `Session ${paused} is still open (running or paused). Close the target (Close (and Stop)) first, then delete the session. Nothing was deleted.`,
    );
    const ids = (await list()).map((s) => s.SessionID);
    expect(ids).toContain(closedC);
    expect(ids).toContain(paused);
  });

  it('DELETE / deletes closed sessions with their samples, rollups, hosts and comments, and says SessionsChanged', async () => {
    const before = changed.length;
    const r = await call('DELETE', '/api/Sessions', { Type: 1, IDs: [closedA], PingServerId: -1 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ Type: 1, IDs: [closedA], DownloadUrls: [] });
    expect((await list()).map((s) => s.SessionID)).not.toContain(closedA);
    for (let i = 0; i < 50 && changed.length === before; i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(changed.length).toBeGreaterThan(before);
    const gone = await call('GET', `/api/data/DataPointBuckets?targetId=${closedA}&startTime=${T0}&endTime=${T0 + H}&periodSeconds=60&includeJitter=false`);
    expect(gone.status).toBe(404);
    // Nothing of it is left in any table (read after a stop: one writer per database file).
    await hw.stop();
    const store = await openTestStore(hw.dataDir);
    try {
      // Samples and rollup rows in the backend's layout (server/store/sample-tables.ts).
      expect(await countSamples(store, { sessionId: closedA }), 'samples').toBe(0);
      expect(await countRollupRows(store, 'all', { sessionId: closedA }), 'rollups').toBe(0);
      for (const table of ['rollup_marks', 'sample_tallies', 'hosts', 'route_changes', 'comments', 'summary_members']) {
        expect((await store.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table} WHERE session_id = $1`, [closedA]))!.n, table).toBe(0);
      }
      // The other sessions keep theirs.
      expect(await countSamples(store, { sessionId: closedB })).toBe(180 * 2);
    } finally {
      await store.close();
    }
    hw = await startAppliance({ dataDir: hw.dataDir, port: hw.port, env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...KeepHistory } });
    cookie = await signIn(hw.url, 'admin', 'pw');
    await hub.stop();
    hub = new HubConnectionBuilder()
      .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    await hub.start();
  }, 60_000);

  it('PATCH / opens a closed session as a paused target', async () => {
    const r = await call('PATCH', '/api/Sessions', { IDs: [closedB] });
    expect(r.status).toBe(200);
    expect((await list()).find((s) => s.SessionID === closedB)).toMatchObject({ State: 1, StateString: 'Paused' });
    // A route does one command: another Type is refused.
    const wrong = await call('PATCH', '/api/Sessions', { Type: 1, IDs: [closedC] });
    expect(wrong.status).toBe(400);
  });

  it('the hub and REST run the same command: EXPORT names the downloads', async () => {
    const viaRest = await call('PATCH', '/api/Sessions/PerformSessionListCommand', { Type: 2, IDs: [closedC], PingServerId: -1 });
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual({ Type: 2, IDs: [closedC], DownloadUrls: [`/api/data/DownloadPP2File?ID=${closedC}`] });
    expect(await hub.invoke('PerformSessionListCommand', [closedC], -1, 2)).toEqual(viaRest.body);
    const [url] = viaRest.body.DownloadUrls as unknown as string[];
    const file = await fetch(`${hw.url}${url}`, { headers: { cookie } });
    expect(file.status).toBe(200);
  });

  it('refuses bad commands alike on both doors', async () => {
    const unknown = await call('PATCH', '/api/Sessions/PerformSessionListCommand', { Type: 1, IDs: [999_999], PingServerId: -1 });
    expect(unknown.status).toBe(404);
    await expect(hub.invoke('PerformSessionListCommand', [999_999], -1, 1)).rejects.toThrow(unknown.body.Error!);
    expect((await call('PATCH', '/api/Sessions/PerformSessionListCommand', { Type: 7, IDs: [closedC] })).status).toBe(400);
    await expect(hub.invoke('PerformSessionListCommand', [closedC], -1, 7)).rejects.toThrow();
    expect((await call('PATCH', '/api/Sessions/PerformSessionListCommand', { Type: 0, IDs: [] })).status).toBe(400);
    expect((await call('PATCH', '/api/Sessions/PerformSessionListCommand', { Type: 0, IDs: [closedC], PingServerId: 5 })).status).toBe(404);
    // An open session over the hub: the same 409 text.
    await expect(hub.invoke('PerformSessionListCommand', [paused], -1, 1)).rejects.toThrow(/still open/);
    await expectAlive(hw);
  });

  it('the hub deletes too', async () => {
    expect(await hub.invoke('PerformSessionListCommand', [closedC], -1, 1)).toEqual({ Type: 1, IDs: [closedC], DownloadUrls: [] });
    expect((await list()).map((s) => s.SessionID)).not.toContain(closedC);
  });
});

describe('retention: HOPWATCH_RETENTION_SESSIONS_DAYS', () => {
  let hw: Appliance;
  afterAll(async () => hw?.dispose());

  it('deletes closed sessions that ended longer ago than the setting, at start; keeps newer and open ones', async () => {
    const now = Date.now();
    const made = await applianceWith({ HOPWATCH_RETENTION_SESSIONS_DAYS: '2' }, (dir) =>
      seedHistories(dir, [
        { target: 'old.example.test', state: 2, hops: 1, from: now - 5 * DAY, to: now - 5 * DAY + H, intervalMs: 60_000 },
        { target: 'recent.example.test', state: 2, hops: 1, from: now - DAY, to: now - DAY + H, intervalMs: 60_000 },
        { target: 'old-open.example.test', state: 1, hops: 1, from: now - 5 * DAY, to: now - 5 * DAY + H, intervalMs: 60_000 },
      ]),
    );
    hw = made.hw;
    const [old, recent, oldOpen] = made.ids;
    const cookie = await signIn(hw.url, 'admin', 'pw');
    const ids = ((await (await fetch(`${hw.url}/api/Sessions`, { headers: { cookie } })).json()) as Session[]).map((s) => s.SessionID);
    expect(ids).not.toContain(old);
    expect(ids).toContain(recent);
    expect(ids).toContain(oldOpen);
    expect(hw.output()).toMatch(/retention deleted closed sessions/);
  }, 120_000);
});
