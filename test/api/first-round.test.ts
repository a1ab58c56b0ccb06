// Issue 40 item 8 through the API, on the simulated engine (any user): a new trace whose first
// round lost the probe at the target's own TTL (the next TTL reached the target) showed a
// phantom hop past the target in the grid's first rows, and 100% loss at the target's hop.
// Now the grid's first rows end at the target, and the target's hop is not 100% loss.
// test/sim/first-round.test.ts has the engine side.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimScenario } from '../../engine/index.js';
import type { GraphRowsResult, TargetRow } from '../../server/contract/targets.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';

// Topology id 142 (addresses only). Seed 7: the first round loses the probe at TTL 3 and the
// one at TTL 4 reaches the target (test/sim/first-round.test.ts, same seed and settings).
const scenario: SimScenario = {
  name: 'first-round-142',
  seed: 7,
  hops: [{ v4: '10.251.142.2', rttMs: 0.4 }, { v4: '10.251.142.6', rttMs: 0.8 }],
  target: { v4: '10.251.142.10', rttMs: 1, lossPercent: 30 },
};

describe("a new trace's first rows in TraceGraphRows", () => {
  let dir: string;
  let hw: Appliance;
  let cookie: string;
  /** Every answer of TraceGraphRows from the trace's start until its target hop has 3 samples. */
  const snapshots: TargetRow[][] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-first-round-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const dataDir = await dataDirWithEngineSettings({ timeoutMs: 1000, maxTtl: 8, reverseDns: false });
    hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: 'first-round-pw-1', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file } });
    cookie = await signIn(hw.url, 'admin', 'first-round-pw-1');
    const get = async (path: string) => {
      const r = await fetch(`${hw.url}${path}`, { headers: { cookie } });
      return { status: r.status, body: r.status === 204 ? null : await r.json() };
    };
    const started = await get(`/cmd/newtarget?target=${scenario.target.v4}&traceInterval=1`);
    expect(started.status).toBe(200);
    const id = started.body.ID;
    // What the grid shows from the first stored round on (read every 50 ms).
    const deadline = Date.now() + 60_000;
    for (;;) {
      const rows = ((await get(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`)).body as GraphRowsResult).Rows;
      if (rows.some((r) => r.HopNum > 0 && r.TotalCount > 0)) snapshots.push(rows);
      if ((rows.find((r) => r.HopNum === 3)?.TotalCount ?? 0) >= 3 && rows.some((r) => r.Columns.IPAddress === scenario.target.v4)) break;
      if (Date.now() > deadline) throw new Error(`no rounds: ${JSON.stringify(rows.map((r) => [r.HopNum, r.TotalCount]))}`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }, 120_000);

  afterAll(async () => {
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('end at the target from the first round on: no hop past it, and no 100% loss at its hop', () => {
    expect(snapshots.length).toBeGreaterThan(0);
    for (const rows of snapshots) {
      expect(rows.filter((r) => r.HopNum > 3).map((r) => [r.HopNum, r.Columns.IPAddress, r.PL])).toEqual([]);
      const target = rows.find((r) => r.HopNum === 3);
      if (target && target.TotalCount > 0) expect(target.PL).not.toBe(100);
    }
    const last = snapshots[snapshots.length - 1].filter((r) => r.HopNum > 0);
    expect(last.map((r) => [r.HopNum, r.Columns.IPAddress])).toEqual([[1, '10.251.142.2'], [2, '10.251.142.6'], [3, '10.251.142.10']]);
  });
});
