// The Pending code (spec 2, issue 16) through the API, on the simulated engine (any user):
// at a 1 s interval with a 3 s timeout the silent hop's newest probe is always still out, so
// its row reads Pending ('?') as its current value while its delivered probes count as loss;
// hops that answered read their latency. Once the trace is paused nothing is out any more.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LatencyCode, type SimScenario } from '../../engine/index.js';
import type { GraphRowsResult, TargetRow } from '../../server/contract/targets.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';

// Topology id 118 (addresses only: nothing is sent on the simulated network).
const scenario: SimScenario = {
  name: 'pending-118',
  hops: [{ v4: '10.251.118.2', rttMs: 1 }, { silent: true, rttMs: 2 }, { v4: '10.251.118.18', rttMs: 3 }],
  target: { v4: '10.251.118.26', rttMs: 4 },
};

describe('Pending in TraceGraphRows', () => {
  let dir: string;
  let hw: Appliance;
  let cookie: string;
  let id: number;
  const get = async (path: string) => {
    const r = await fetch(`${hw.url}${path}`, { headers: { cookie } });
    return { status: r.status, body: r.status === 204 ? null : await r.json() };
  };
  const rows = async (): Promise<TargetRow[]> =>
    ((await get(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`)).body as GraphRowsResult).Rows;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-pending-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 3000, reverseDns: false });
    hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: 'pending-pw-1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file } });
    cookie = await signIn(hw.url, 'admin', 'pending-pw-1');
    const started = await get(`/cmd/newtarget?target=${scenario.target.v4}&traceInterval=1`);
    expect(started.status).toBe(200);
    id = started.body.ID;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const target = (await rows()).find((r) => r.HopNum === 4);
      if (target && target.TotalCount >= 3) break;
      if (Date.now() > deadline) throw new Error(`no rounds: ${JSON.stringify(target)}`);
      await new Promise((ok) => setTimeout(ok, 300));
    }
  }, 120_000);

  afterAll(async () => {
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the silent hop as Pending while its newest probe is out; its timed-out probes count as loss', async () => {
    const r = await rows();
    const hop2 = r.find((x) => x.HopNum === 2)!;
    expect(hop2.Current).toBe(LatencyCode.Pending);
    expect(hop2.Columns.Cur).toBe('?');
    expect(hop2.PL).toBe(100);
    expect(hop2.TotalCount).toBeGreaterThanOrEqual(3);
    // The hops that answered the newest round read a latency (their probes are back within ms).
    for (const hop of [1, 3, 4]) {
      const row = r.find((x) => x.HopNum === hop)!;
      expect(row.Current, `hop ${hop}`).toBeGreaterThan(0);
      expect(row.PL).toBe(0);
    }
  });

  it('shows the last outcome, not Pending, once the trace is paused and its rounds are in', async () => {
    expect((await get(`/cmd/stoptrace?ID=${id}`)).status).toBe(204);
    // Paused: no round starts, so nothing is asked of the engine; the rounds in flight land.
    await expect.poll(async () => (await rows()).find((x) => x.HopNum === 2)!.Columns.Cur, { timeout: 20_000, interval: 300 }).toBe('*');
    expect((await rows()).find((x) => x.HopNum === 2)!.Current).toBe(LatencyCode.Timeout);
  });
});
