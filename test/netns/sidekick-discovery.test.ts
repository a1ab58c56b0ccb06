// Sidekick discovery on a real network (issue 24, root only): the server runs inside the
// test's machine namespace (its own routes; its own resolv.conf through
// HOPWATCH_SIDEKICK_RESOLV_CONF) and must find the gateway, the resolver and the provider edge
// there, and trace all five through raw sockets. Traffic stays inside the namespaces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { asRoot } from './rounds.js';
import { buildSidekickNet, SidekickNet, type SidekickNetwork } from './sidekick-network.js';
import type { SidekickState } from '../../server/contract/sidekick.js';

const password = 'Sidekick-netns-pw-1';

describe.skipIf(!asRoot)('Sidekick discovery in a network namespace', () => {
  let network: SidekickNetwork;
  let hw: Appliance;
  let cookie = '';
  const state = async (): Promise<SidekickState> => {
    const r = await fetch(`${hw.url}/api/Sidekick/SidekickState`, { headers: { cookie } });
    expect(r.status).toBe(200);
    return (await r.json()) as SidekickState;
  };

  beforeAll(async () => {
    network = buildSidekickNet();
    hw = await startAppliance({
      netns: SidekickNet.machineNs,
      host: SidekickNet.serverAddress,
      env: {
        HOPWATCH_ROOT_PASSWORD: password,
        HOPWATCH_ENGINE: 'raw',
        // The namespace's own routing table (the default), the test's resolv.conf.
        HOPWATCH_SIDEKICK_ROUTE_TABLE: '/proc/net/route',
        HOPWATCH_SIDEKICK_RESOLV_CONF: network.resolvConf,
        HOPWATCH_SIDEKICK_PRIVATE_RANGES: SidekickNet.privateRanges,
        HOPWATCH_SIDEKICK_EXTERNAL_SOURCES: SidekickNet.externals.join(','),
        HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS: '60',
      },
    });
    cookie = await signIn(hw.url, 'admin', password);
  }, 120_000);

  afterAll(async () => {
    await hw?.dispose();
    network?.destroy();
  });

  it('the machine namespace has its own default route to the test gateway', () => {
    // What discovery reads: the default route's gateway 10.251.130.1 is 0182FB0A little-endian.
    expect(network.routeTable()).toMatch(/\t00000000\t0182FB0A\t0003\t/);
  });

  it('finds the gateway, the resolver and the provider edge, and traces all five', async () => {
    expect((await state()).Stage).toBe(1);
    const r = await fetch(`${hw.url}/api/Sidekick/StartDiscovery`, { headers: { cookie } });
    expect(r.status, await r.text()).toBe(204);
    await expect.poll(async () => (await state()).Stage, { timeout: 70_000, interval: 500 }).toBe(3);
    const s = await state();
    const byKind = Object.fromEntries(s.Targets.map((t) => [t.Kind, t]));
    expect(Object.fromEntries(s.Targets.map((t) => [t.Kind, t.OriginalTarget]))).toEqual({
      DefaultGateway: SidekickNet.gateway,
      DnsResolver: SidekickNet.resolver,
      ProviderEdge: SidekickNet.edge,
      External1: SidekickNet.externals[0],
      External2: SidekickNet.externals[1],
    });
    for (const t of s.Targets) expect(t.WebTargetID, `${t.Kind}: ${t.ExportDetails.NotFoundReason}`).not.toBe('');
    // Each trace reaches its target through the namespaces: the external source's route is
    // gateway, provider edge, then the external host itself.
    const ext = byKind.External1.WebTargetID;
    await expect
      .poll(
        async () => {
          const rows = await fetch(`${hw.url}/api/data/TraceGraphRows?listType=Target&uniqueID=${ext}&requests[0].ID=${ext}`, { headers: { cookie } });
          const body = (await rows.json()) as { Rows: { HopNum: number; IP: string }[] };
          return body.Rows.filter((row) => row.HopNum >= 1).map((row) => row.IP);
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toEqual([SidekickNet.gateway, SidekickNet.edge, SidekickNet.externals[0]]);
    // The Sidekick summary holds the five.
    const summary = await fetch(`${hw.url}/cmd/getsummaries`, { headers: { cookie } });
    const list = (await summary.json()) as { UniqueID: string; Name: string; TargetCount: number }[];
    expect(list.find((x) => x.UniqueID === String(s.SidekickSummaryID))).toMatchObject({ Name: 'Sidekick', TargetCount: 5 });
  }, 120_000);
});
