// HopDetails through the API (issue 16), on the simulated engine (any user): a label switch
// router, two hosts balanced at one hop, a translating device, a router that clears DSCP.
// The rows carry HopDetails and the Hosts/MPLS/AS/Country/NAT/DSCP column texts, from the
// open minute in memory while the trace runs, from the store after the target is closed and
// after a restart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimScenario } from '../../engine/index.js';
import type { GraphRowsResult, TargetRow } from '../../server/contract/targets.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { dataDirWithEngineSettings } from '../support/engine-settings.js';

// Topology id 115 (addresses only: nothing is sent on the simulated network).
const scenario: SimScenario = {
  name: 'hop-details-115',
  hops: [
    { v4: '10.251.115.2', rttMs: 0.4, mpls: [{ label: 24001, exp: 0, ttl: 1 }] },
    { v4: '10.251.115.10', rttMs: 0.8, balancedWith: [{ v4: '10.251.115.14' }], nat: true },
    { v4: '10.251.115.18', rttMs: 1.2, setsDscp: 0 },
  ],
  target: { v4: '10.251.115.26', rttMs: 1.6 },
};

describe('HopDetails in TraceGraphRows', () => {
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
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-hop-details-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify(scenario));
    const dataDir = await dataDirWithEngineSettings({ packetType: 'UDP', dscp: 46, timeoutMs: 300, reverseDns: false });
    hw = await startAppliance({ dataDir, env: { HOPWATCH_ROOT_PASSWORD: 'hop-details-pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: file } });
    cookie = await signIn(hw.url, 'admin', 'hop-details-pw');
    const started = await get(`/cmd/newtarget?target=${scenario.target.v4}&traceInterval=0.1`);
    expect(started.status).toBe(200);
    id = started.body.ID;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const target = (await rows()).find((r) => r.HopNum === 4);
      if (target && target.TotalCount >= 60) break;
      if (Date.now() > deadline) throw new Error(`not enough rounds: ${JSON.stringify(target)}`);
      await new Promise((ok) => setTimeout(ok, 300));
    }
  }, 120_000);

  afterAll(async () => {
    await hw?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function expectDetails(all: TargetRow[]) {
    const [header, hop1, hop2, hop3, target] = all;
    expect(all.map((r) => r.HopNum)).toEqual([0, 1, 2, 3, 4]);
    // An MPLS label switch router: its stack, top first, S at the bottom of the stack.
    expect(hop1.HopDetails!.Hosts).toHaveLength(1);
    expect(hop1.HopDetails!.Hosts[0]).toMatchObject({ Address: '10.251.115.2', SharePercent: 100, Mpls: [{ Label: 24001, Exp: 0, BottomOfStack: true, Ttl: 1 }] });
    expect(hop1.Columns.MPLS).toBe('24001 exp 0 ttl 1 S');
    expect(hop2.Columns.MPLS).toBe('');
    // Two hosts at hop 2, each with its share of the answers (per-packet balancing: about half).
    const hosts = hop2.HopDetails!.Hosts;
    expect(hosts.map((h) => h.Address).sort()).toEqual(['10.251.115.10', '10.251.115.14']);
    expect(hosts[0].Samples).toBeGreaterThanOrEqual(hosts[1].Samples);
    for (const h of hosts) expect(h.SharePercent).toBeGreaterThan(30);
    expect(hosts[0].SharePercent + hosts[1].SharePercent).toBeCloseTo(100, 0);
    expect(hosts.reduce((n, h) => n + h.Samples, 0)).toBe(hop2.GoodCount);
    expect(hop2.Columns.Hosts).toMatch(/^10\.251\.115\.1[04] \d+(\.\d)?%, 10\.251\.115\.1[04] \d+(\.\d)?%$/);
    expect(hop1.Columns.Hosts).toBe('');
    // Private addresses are named as such, never looked up.
    for (const r of [hop1, hop2, hop3, target]) {
      expect(r.Columns.AS, `hop ${r.HopNum}`).toBe('Private');
      expect(r.Columns.Country).toBe('');
    }
    // The translation after hop 2 shows on the hops after it.
    expect([hop1, hop2, hop3, target].map((r) => r.Columns.NAT)).toEqual(['', '', 'NAT', 'NAT']);
    // DSCP 46 set on the probes, quoted back as sent until hop 3 clears it.
    expect([hop1, hop2, hop3, target].map((r) => r.Columns.DSCP)).toEqual(['46', '46', '46', '0']);
    // The header row (the target) carries the target's details.
    expect(header.HopDetails).toEqual(target.HopDetails);
  }

  it('shows each hop\'s details while the trace runs', async () => {
    expectDetails(await rows());
  });

  it('keeps them in the store once the target is closed, and after a restart', async () => {
    const before = (await rows()).find((r) => r.HopNum === 2)!;
    expect((await get(`/cmd/close?ID=${id}`)).status).toBe(204);
    const closed = await rows();
    expectDetails(closed);
    // Closing stopped the trace: the stored answers are those the samples counted.
    const hop2 = closed.find((r) => r.HopNum === 2)!;
    expect(hop2.HopDetails!.Hosts.reduce((n, h) => n + h.Samples, 0)).toBe(hop2.GoodCount);
    expect(hop2.GoodCount).toBeGreaterThanOrEqual(before.GoodCount);
    hw = await hw.restart();
    cookie = await signIn(hw.url, 'admin', 'hop-details-pw');
    const again = await rows();
    expectDetails(again);
    expect(again.map((r) => r.HopDetails)).toEqual(closed.map((r) => r.HopDetails));
  }, 120_000);

  it('offers the columns in the column menu, hidden by default', async () => {
    const defs = (await get(`/api/data/ColumnDefs?uniqueID=${id}`)).body as { Name: string; Visible: boolean; CanChangeVisible: boolean }[];
    for (const name of ['Hosts', 'MPLS', 'AS', 'Country', 'NAT', 'DSCP']) {
      expect(defs.find((d) => d.Name === name), name).toMatchObject({ Visible: false, CanChangeVisible: true });
    }
  });
});
