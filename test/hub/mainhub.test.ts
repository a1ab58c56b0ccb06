// /mainHub with the real @microsoft/signalr client against a running appliance that traces
// a netns test network: methods, live HostUpdated, reconnect after a restart, and refusal
// without a session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { traceNetwork, type TraceNetwork } from '../support/trace-network.js';

const transports = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

function connect(url: string, cookie: string | undefined, transport: HttpTransportType, reconnect = false): HubConnection {
  const b = new HubConnectionBuilder()
    .withUrl(`${url}/mainHub`, { transport, headers: cookie ? { cookie } : {} })
    .configureLogging(LogLevel.None);
  // As the console does (web/src/hub/connection.ts): retry every 500 ms until stopped. A fixed
  // list of delays gave up after 7 s, less than a restart takes on a busy machine.
  if (reconnect) b.withAutomaticReconnect({ nextRetryDelayInMilliseconds: () => 500 });
  return b.build();
}

// As root the trace goes through network namespaces; otherwise through the same chain on the
// engine's simulated network (test/support/trace-network.ts).
describe('/mainHub against a live trace', () => {
  let topo: TraceNetwork;
  let hw: Appliance;
  let cookie: string;
  let targetId: number;

  beforeAll(async () => {
    topo = traceNetwork({ id: 41, routers: 2 });
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...topo.env } });
    cookie = await signIn(hw.url, 'admin', 'pw');
    const r = await fetch(`${hw.url}/cmd/newtarget?target=${topo.target.v4}&traceInterval=1`, { headers: { cookie } });
    expect(r.status).toBe(200);
    targetId = (await r.json()).ID;
  });

  afterAll(async () => {
    await hw?.dispose();
    topo?.destroy();
  });

  for (const [name, transport] of transports) {
    describe(name, () => {
      it('answers methods through the same services as REST', async () => {
        const c = connect(hw.url, cookie, transport);
        await c.start();
        try {
          expect((await c.invoke('GetAgents'))[0]).toMatchObject({ Name: 'Local Machine', ID: -1, UniqueID: '-1', IsOnline: true });
          expect(await c.invoke('GetIsMagneto')).toBe(true);
          const defs = await c.invoke('ColumnDefs', targetId);
          expect(defs.map((d: { Name: string }) => d.Name)).toContain('Graph');
          // Wait for a few rounds, then compare the hub's rows with REST's.
          await new Promise((ok) => setTimeout(ok, 2500));
          const viaHub = await c.invoke('TraceGraphRows', [{ ID: String(targetId), Start: '0' }], [], 'Target', targetId);
          expect(viaHub.Rows.slice(1).map((r: { IP: string }) => r.IP)).toEqual([1, 2, 3].map((k) => topo.hop(k).v4));
          const now = Date.now();
          const buckets = await c.invoke('DataPointBuckets', `${targetId}_h_3`, now - 60_000, now, 1, false);
          expect(buckets.Points.length).toBeGreaterThan(0);
          const summary = await c.invoke('CreateSummary', `Hub summary ${name}`);
          expect(summary.Name).toBe(`Hub summary ${name}`);
          await expect(c.invoke('NoSuchMethod')).rejects.toThrow(/Unknown hub method 'NoSuchMethod'/);
          await expect(c.invoke('ColumnDefs')).rejects.toThrow(/takes 1 argument/);
          await expect(c.invoke('RegisterForNewSamples', 987654)).rejects.toThrow(/Target 987654 not found/);
          await expect(c.invoke('CreateAgent', '%E0')).rejects.toThrow(/not valid URL-encoded text/);
        } finally {
          await c.stop();
        }
      });

      it('pushes HostUpdated within a second of a round, only after registering', async () => {
        const c = connect(hw.url, cookie, transport);
        const seen: { id: string; time: string; at: number }[] = [];
        c.on('HostUpdated', (id: string, time: string) => seen.push({ id, time, at: Date.now() }));
        await c.start();
        try {
          await new Promise((ok) => setTimeout(ok, 1500));
          expect(seen).toEqual([]);
          await c.invoke('RegisterForNewSamples', targetId);
          const deadline = Date.now() + 5000;
          while (seen.length < 2 && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 50));
          expect(seen.length).toBeGreaterThanOrEqual(2);
          for (const e of seen) {
            expect(e.id).toBe(String(targetId));
            expect(e.at - Date.parse(e.time)).toBeLessThan(1000);
          }
          await c.invoke('UnregisterForNewSamples', targetId);
        } finally {
          await c.stop();
        }
      });
    });
  }

  it('refuses a connection without a session (401)', async () => {
    const c = connect(hw.url, undefined, HttpTransportType.WebSockets);
    await expect(c.start()).rejects.toThrow(/401/);
    const stale = connect(hw.url, 'hopwatch_session=not-a-session', HttpTransportType.LongPolling);
    await expect(stale.start()).rejects.toThrow(/401/);
  });

  it('reconnects by itself after the server restarts, and the trace goes on', async () => {
    const c = connect(hw.url, cookie, HttpTransportType.WebSockets, true);
    let reconnected = false;
    c.onreconnected(() => (reconnected = true));
    const seen: string[] = [];
    c.on('HostUpdated', (id: string) => seen.push(id));
    await c.start();
    try {
      hw = await hw.restart();
      const deadline = Date.now() + 20_000;
      while (!reconnected && Date.now() < deadline) await new Promise((ok) => setTimeout(ok, 100));
      expect(reconnected).toBe(true);
      expect(c.state).toBe(HubConnectionState.Connected);
      // Registrations are per connection: register again, and rounds flow again.
      await c.invoke('RegisterForNewSamples', targetId);
      const until = Date.now() + 5000;
      while (!seen.length && Date.now() < until) await new Promise((ok) => setTimeout(ok, 50));
      expect(seen.length).toBeGreaterThan(0);
    } finally {
      await c.stop();
    }
  });
});
