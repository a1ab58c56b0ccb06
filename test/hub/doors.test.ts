// One operation, two doors (issue 15 item 1): for every /mainHub data method with a REST twin
// (DataPointBuckets, TraceGraphRows, ColumnDefs, GetComments), the same input gives the same
// answer (equal JSON) on a live trace, and the same Error text for bad input. Before, the
// hub read times with its own parser ("1700000000000" was refused), refused "SUM-n" in
// ColumnDefs, and never saw the in-memory data of open sessions.
// The trace goes to 127.0.0.1: raw sockets as root, the simulated engine's loopback otherwise.
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { engineEnv } from '../support/trace-network.js';

describe('the hub and REST answer a data call alike', () => {
  let hw: Appliance;
  let cookie: string;
  let hub: HubConnection;
  let targetId: number;
  /** A range that ended before the trace was stopped: its answer no longer changes. */
  let start: number;
  let end: number;

  const rest = async (path: string) => {
    const r = await fetch(`${hw.url}${path}`, { headers: { cookie } });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : undefined) as unknown };
  };
  const restError = async (path: string) => {
    const { status, body } = await rest(path);
    expect(status).toBeGreaterThanOrEqual(400);
    return (body as { Error: string }).Error;
  };
  const hubError = (method: string, ...args: unknown[]) =>
    hub.invoke(method, ...args).then(
      () => {
        throw new Error(`${method} succeeded`);
      },
      (e: Error) => e.message,
    );
  const q = encodeURIComponent;

  beforeAll(async () => {
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'pw', ...engineEnv() } });
    cookie = await signIn(hw.url, 'admin', 'pw');
    const r = await rest('/cmd/newtarget?target=127.0.0.1&traceInterval=1');
    expect(r.status).toBe(200);
    targetId = (r.body as { ID: number }).ID;
    hub = new HubConnectionBuilder()
      .withUrl(`${hw.url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .configureLogging(LogLevel.None)
      .build();
    await hub.start();
    start = Date.now();
    for (let i = 0; i < 80 && (await hub.invoke<number>('GetSampleCountForSession', targetId)) < 4; i++) await new Promise((ok) => setTimeout(ok, 250));
    expect(await hub.invoke('GetSampleCountForSession', targetId)).toBeGreaterThanOrEqual(4);
    end = Date.now();
    expect((await rest(`/cmd/stoptrace?ID=${targetId}`)).status).toBeLessThan(300);
    // Let the last round land.
    await new Promise((ok) => setTimeout(ok, 2500));
  }, 60_000);
  afterAll(async () => {
    await hub?.stop();
    await hw?.dispose();
  });

  it('DataPointBuckets: epoch ms as numbers and as digits, ISO texts, a row id', async () => {
    const viaRest = await rest(`/api/data/DataPointBuckets?targetId=${targetId}&startTime=${start}&endTime=${end}&periodSeconds=1&includeJitter=true`);
    expect(viaRest.status).toBe(200);
    expect((viaRest.body as { Points: unknown[] }).Points.length).toBeGreaterThan(0);
    expect(await hub.invoke('DataPointBuckets', String(targetId), start, end, 1, true)).toEqual(viaRest.body);
    expect(await hub.invoke('DataPointBuckets', String(targetId), String(start), String(end), 1, true)).toEqual(viaRest.body);
    const [a, b] = [new Date(start).toISOString(), new Date(end).toISOString()];
    const iso = await rest(`/api/data/DataPointBuckets?targetId=${targetId}_h_1&startTime=${q(a)}&endTime=${q(b)}&periodSeconds=2&includeJitter=false`);
    expect(await hub.invoke('DataPointBuckets', `${targetId}_h_1`, a, b, 2, false)).toEqual(iso.body);
  });

  it('TraceGraphRows for a range', async () => {
    const viaRest = await rest(`/api/data/TraceGraphRows?listType=Target&uniqueID=${targetId}&requests[0].ID=${targetId}&requests[0].Start=${start}&requests[0].End=${end}`);
    expect(viaRest.status).toBe(200);
    const viaHub = await hub.invoke('TraceGraphRows', [{ ID: String(targetId), Start: String(start), End: String(end) }], [], 'Target', String(targetId));
    expect(viaHub).toEqual(viaRest.body);
  });

  it('ColumnDefs for a target and for a summary ("SUM-n")', async () => {
    const summary = (await rest('/cmd/createsummary?name=Doors')).body as { UniqueID: string };
    for (const id of [String(targetId), `SUM-${summary.UniqueID}`]) {
      const viaRest = await rest(`/api/data/ColumnDefs?uniqueID=${q(id)}`);
      expect(viaRest.status).toBe(200);
      expect(await hub.invoke('ColumnDefs', id)).toEqual(viaRest.body);
    }
  });

  it('GetComments for a range', async () => {
    const viaRest = await rest(`/cmd/getcomments?sessionWebId=${targetId}&startDate=${start}&endDate=${end}`);
    expect(viaRest.status).toBe(200);
    expect(await hub.invoke('GetComments', String(targetId), String(start), String(end))).toEqual(viaRest.body);
  });

  it('the same Error text for the same bad input', async () => {
    const cases: [string, string, unknown[]][] = [
      [`/api/data/DataPointBuckets?targetId=${targetId}&startTime=${end}&endTime=${start}&periodSeconds=1&includeJitter=true`, 'DataPointBuckets', [String(targetId), end, start, 1, true]],
      [`/api/data/DataPointBuckets?targetId=987654&startTime=${start}&endTime=${end}&periodSeconds=1&includeJitter=true`, 'DataPointBuckets', ['987654', start, end, 1, true]],
      [`/api/data/DataPointBuckets?targetId=${targetId}&startTime=soon&endTime=${end}&periodSeconds=1&includeJitter=true`, 'DataPointBuckets', [String(targetId), 'soon', end, 1, true]],
      [`/api/data/TraceGraphRows?listType=Target&uniqueID=${targetId}&requests[0].ID=${targetId}&requests[0].Start=later`, 'TraceGraphRows', [[{ ID: String(targetId), Start: 'later' }], [], 'Target', String(targetId)]],
      [`/api/data/ColumnDefs?uniqueID=987654`, 'ColumnDefs', ['987654']],
      [`/cmd/getcomments?sessionWebId=987654&startDate=${start}&endDate=${end}`, 'GetComments', ['987654', String(start), String(end)]],
    ];
    for (const [path, method, args] of cases) {
      const text = await restError(path);
      expect(text.length).toBeGreaterThan(0);
      expect(await hubError(method, ...args)).toContain(text);
    }
  });
});
