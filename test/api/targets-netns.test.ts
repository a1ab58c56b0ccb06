// Targets end to end on a routed test network: a trace started through the API runs on the
// Local Machine agent, its rounds land in DuckDB, and TraceGraphRows / DataPointBuckets
// answer what the network did (hops in order, loss where it was injected).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { traceNetwork, type TraceNetwork } from '../support/trace-network.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';
import { createWebUser } from '../support/web-users.js';

const INJECTED = 30;
/** Loss percent tolerance: about 3.5 standard deviations of a binomial(140, 0.3) proportion. */
const TOLERANCE = 14;

// As root the chain is network namespaces probed with raw sockets; otherwise the same chain
// on the engine's simulated network (test/support/trace-network.ts).
describe('a trace through the API on a lossy chain', () => {
  let topo: TraceNetwork;
  let hw: Appliance;
  let cookie: string;
  let id: number;
  const get = async (path: string) => {
    const r = await fetch(`${hw.url}${path}`, { headers: { cookie } });
    const body = r.status === 204 ? null : await r.json();
    return { status: r.status, body };
  };
  const rows = async () => (await get(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`)).body;

  beforeAll(async () => {
    topo = traceNetwork({ id: 21, routers: 3, loss: [{ router: 2, percent: INJECTED }] });
    // A short probe timeout keeps rounds quick when probes are lost.
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 300 });
    hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...topo.env } });
    cookie = await signIn(hw.url, 'admin', 'pw');
    const started = await get(`/cmd/newtarget?target=${topo.target.v4}&traceInterval=0.1`);
    expect(started.status).toBe(200);
    id = started.body.ID;
    // Wait for enough rounds for a loss estimate.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await rows();
      const last = r.Rows.find((x: { HopNum: number }) => x.HopNum === 4);
      if (last && last.TotalCount >= 140) break;
      if (Date.now() > deadline) throw new Error(`not enough rounds: ${JSON.stringify(last)}`);
      await new Promise((ok) => setTimeout(ok, 500));
    }
    expect((await get(`/cmd/stoptrace?ID=${id}`)).status).toBe(204);
    // A round already in flight when the pause arrived still lands (its probes were sent):
    // wait until the counts stop moving before comparing answers taken at different moments.
    let before = '';
    for (;;) {
      const now = JSON.stringify((await rows()).Rows.map((x: { TotalCount: number }) => x.TotalCount));
      if (now === before) break;
      before = now;
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }, 120_000);

  afterAll(async () => {
    await hw?.dispose();
    topo?.destroy();
  });

  it('lists the hops in order with the addresses of the routers and the target', async () => {
    const r = await rows();
    expect(r.Rows[0].UniqueID).toBe(`${id}_h_0`);
    expect(r.Rows[0].IP).toBe(topo.target.v4);
    const hops = r.Rows.slice(1);
    expect(hops.map((h: { UniqueID: string }) => h.UniqueID)).toEqual([1, 2, 3, 4].map((h) => `${id}_h_${h}`));
    expect(hops.map((h: { IP: string }) => h.IP)).toEqual([1, 2, 3, 4].map((k) => topo.hop(k).v4));
    expect(r.Details.IsRunning).toBe(false); // paused
  });

  it('shows the injected loss at and after the lossy router, and none before it', async () => {
    const hops = (await rows()).Rows.slice(1);
    expect(hops[0].PL).toBe(0);
    for (const h of hops.slice(1)) expect(Math.abs(h.PL - INJECTED), `hop ${h.HopNum} PL ${h.PL}`).toBeLessThan(TOLERANCE);
  });

  it('answers DataPointBuckets whose counts sum to the raw samples of the grid rows', async () => {
    const r = await rows();
    const start = Date.parse(r.Details.FirstSample);
    const end = Date.parse(r.Details.LatestSample) + 1;
    for (const hop of [1, 2, 4]) {
      const b = await get(`/api/data/DataPointBuckets?targetId=${id}_h_${hop}&startTime=${start}&endTime=${end}&periodSeconds=1&includeJitter=true`);
      expect(b.status).toBe(200);
      const sent = b.body.Points.reduce((s: number, p: { LatencyCount: number }) => s + p.LatencyCount, 0);
      const lost = b.body.Points.reduce((s: number, p: { LostPacketCount: number }) => s + p.LostPacketCount, 0);
      const row = r.Rows.find((x: { HopNum: number }) => x.HopNum === hop);
      expect(sent).toBe(row.TotalCount);
      expect(lost).toBe(row.TotalCount - row.GoodCount);
      expect(b.body.Points[0].RouteHostSentCount).toHaveLength(4);
    }
  });

  it('pauses, resumes, resets and closes as the spec says', async () => {
    expect((await get(`/cmd/resumetrace?ID=${id}`)).status).toBe(204);
    expect((await rows()).Details.IsRunning).toBe(true);
    const reset = await get(`/cmd/resettrace?ID=${id}`);
    expect(reset.status).toBe(200);
    const newId = reset.body.ID;
    expect(newId).not.toBe(id);
    // The old session is closed: commands on it are refused.
    expect((await get(`/cmd/resumetrace?ID=${id}`)).status).toBe(409);
    expect((await get(`/cmd/close?ID=${newId}`)).status).toBe(204);
    expect((await get(`/cmd/resumetrace?ID=${newId}`)).status).toBe(409);
  });

  it('keeps every sample across a restart', async () => {
    const before = (await rows()).Rows.slice(1).map((h: { TotalCount: number }) => h.TotalCount);
    hw = await hw.restart();
    cookie = await signIn(hw.url, 'admin', 'pw');
    const after = (await rows()).Rows.slice(1).map((h: { TotalCount: number }) => h.TotalCount);
    expect(after).toEqual(before);
  });

  it('refuses bad input and missing claims', async () => {
    expect((await get(`/cmd/newtarget?target=not%20a%20host`)).status).toBe(400);
    expect((await get(`/cmd/newtarget?target=127.0.0.1&traceInterval=0.001`)).status).toBe(400);
    expect((await get(`/cmd/stoptrace?ID=999999`)).status).toBe(404);
    expect((await get(`/api/data/DataPointBuckets?targetId=${id}&startTime=x&endTime=1&periodSeconds=1&includeJitter=true`)).status).toBe(400);
    const admin = cookie;
    await createWebUser(hw.url, admin, { email: 'viewer@example.org', password: 'look-only-pw-2' });
    cookie = await signIn(hw.url, 'viewer@example.org', 'look-only-pw-2');
    const denied = await get(`/cmd/newtarget?target=${topo.target.v4}`);
    expect(denied.status).toBe(403);
    expect(denied.body.Error).toMatch(/TargetManagement/);
    // Reading is allowed.
    expect((await rows()).Rows.length).toBe(5);
    cookie = admin;
  });
});
