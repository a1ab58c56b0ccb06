// RemoteServerTrace against a stand-in for another Hopwatch's public calls (node:http on
// loopback): samples grouped by time into rounds in TTL order, the latency codes, the other
// side's stop/start marks left out, a new address at a hop as a route change, the commands
// sent there, and the trace ending when the target there is gone. The stand-in is on loopback,
// which the outbound address policy refuses: these tests open it as an operator would
// (HOPWATCH_WEBHOOK_ALLOW, server/http/outbound-address.ts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatencyCode, type RouteChange, type TraceRound } from '../../engine/index.js';
import { LoopbackWebhooks } from '../../test/alerts/support.js';
import { RemoteServerAccessKey } from './settings.js';
import { startWithRemoteServers } from './trace.js';
import type { RemoteSample } from './client.js';

interface Stand {
  url: string;
  calls: string[];
  samples: RemoteSample[];
  gone: boolean;
  close: () => Promise<void>;
}

async function standIn(): Promise<Stand> {
  const stand = { calls: [] as string[], samples: [] as RemoteSample[], gone: false } as Stand;
  const body = (req: IncomingMessage) => new Promise<string>((ok) => {
    let t = '';
    req.on('data', (d) => (t += d));
    req.on('end', () => ok(t));
  });
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    stand.calls.push(`${req.method} ${url.pathname}${url.pathname === '/api/data/SamplesReport' ? '' : url.search}`);
    const json = (status: number, v: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(v));
    };
    if (url.pathname === '/api/Account/Login') {
      const { Password } = JSON.parse(await body(req)) as { Password: string };
      return Password === 'right-password' ? json(200, { UserName: 'admin' }, { 'set-cookie': 'hw_session=abc; Path=/' }) : json(401, { Error: 'Wrong user name or password.' });
    }
    if (req.headers.cookie !== 'hw_session=abc') return json(401, { Error: 'You are not signed in.' });
    if (url.pathname === '/cmd/newtarget') return json(200, { ID: 42 });
    if (url.pathname === '/api/data/SamplesReport') {
      if (stand.gone) return json(404, { Error: 'Target 42 not found' });
      const since = Number(url.searchParams.get('BeginTime') ?? 0);
      return json(200, { TargetID: 42, Target: '10.0.0.9', Cut: false, Samples: stand.samples.filter((s) => Date.parse(s.Time) >= since) });
    }
    if (req.method === 'POST' && url.pathname === '/api/Account/Logout') return res.writeHead(204).end();
    return res.writeHead(204).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stand.close = () => new Promise((ok) => server.close(() => ok()));
  return stand;
}

const at = (ms: number) => new Date(ms).toISOString();
const engineNotCalled = () => {
  throw new Error('the engine must not run a remote-server trace');
};
let stand: Stand | undefined;
beforeEach(() => {
  vi.stubEnv('HOPWATCH_WEBHOOK_ALLOW', LoopbackWebhooks.HOPWATCH_WEBHOOK_ALLOW);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await stand?.close();
  stand = undefined;
});

describe('RemoteServerTrace', () => {
  it('mirrors the samples there as rounds and sends pause, resume and close there', async () => {
    stand = await standIn();
    const t0 = Date.now() - 10_000;
    stand.samples = [
      { Time: at(t0), Hop: 2, IP: '10.0.0.9', LatencyMs: 5.5, Status: 'ok' },
      { Time: at(t0), Hop: 1, IP: '10.0.0.1', LatencyMs: 1.25, Status: 'ok' },
      { Time: at(t0 + 1000), Hop: 1, IP: '10.0.0.1', LatencyMs: null, Status: 'timeout' },
      { Time: at(t0 + 1000), Hop: 2, IP: '10.0.0.9', LatencyMs: 6, Status: 'ok' },
      { Time: at(t0 + 1500), Hop: 1, IP: '', LatencyMs: null, Status: 'stop/start' },
    ];
    const start = startWithRemoteServers(engineNotCalled);
    const trace = start({ target: '10.0.0.9', intervalSeconds: 1, [RemoteServerAccessKey]: { address: stand.url, userName: 'admin', password: 'right-password' } } as never);
    const rounds: TraceRound[] = [];
    const changes: RouteChange[] = [];
    trace.on('round', (r) => rounds.push(r));
    trace.on('routeChange', (c) => changes.push(c));
    await expect.poll(() => rounds.length, { timeout: 5000 }).toBe(2);
    expect(rounds[0]).toMatchObject({ time: t0, reachedTarget: true, hops: [{ ttl: 1, address: '10.0.0.1', rtt: 1.25, reply: 'timeExceeded' }, { ttl: 2, address: '10.0.0.9', rtt: 5.5, reply: 'echoReply' }] });
    expect(rounds[1].hops[0]).toMatchObject({ ttl: 1, address: null, rtt: LatencyCode.Timeout, reply: 'timeout' });

    // A new address at hop 1: a route change here.
    stand.samples.push({ Time: at(t0 + 2000), Hop: 1, IP: '10.0.0.77', LatencyMs: 1, Status: 'ok' }, { Time: at(t0 + 2000), Hop: 2, IP: '10.0.0.9', LatencyMs: 5, Status: 'ok' });
    await expect.poll(() => rounds.length, { timeout: 5000 }).toBe(3);
    expect(changes).toEqual([{ time: t0 + 2000, ttl: 1, previous: '10.0.0.1', current: '10.0.0.77' }]);

    trace.pause();
    expect(rounds[3]).toMatchObject({ marker: 'stop', hops: [{ ttl: 1, rtt: LatencyCode.StopStart }, { ttl: 2, rtt: LatencyCode.StopStart }] });
    trace.resume();
    trace.setInterval(2);
    trace.setFinalHopOnly(true);
    await trace.stop();
    const commands = stand.calls.filter((c) => !c.includes('SamplesReport'));
    expect(commands).toEqual([
      'POST /api/Account/Login',
      'GET /cmd/newtarget?target=10.0.0.9&traceInterval=1',
      'GET /cmd/stoptrace?ID=42',
      'GET /cmd/resumetrace?ID=42',
      'GET /cmd/updateTraceInterval?webId=42&traceIntervalInMS=2000',
      'GET /cmd/finalHop?Ids=42',
      'GET /cmd/close?ID=42',
      'POST /api/Account/Logout',
    ]);
  });

  it('ends with an error naming the cause: wrong password, or the target there gone', async () => {
    stand = await standIn();
    const start = startWithRemoteServers(engineNotCalled);
    const refused = start({ target: '10.0.0.9', intervalSeconds: 1, [RemoteServerAccessKey]: { address: stand.url, userName: 'admin', password: 'wrong-password' } } as never);
    const error = await new Promise<Error>((ok) => refused.on('error', ok));
    expect(error.message).toBe(`the remote Hopwatch at ${stand.url} refused the user name or password (401).`);
    expect(refused.state).toBe('stopped');

    const trace = start({ target: '10.0.0.9', intervalSeconds: 1, [RemoteServerAccessKey]: { address: stand.url, userName: 'admin', password: 'right-password' } } as never);
    const gone = new Promise<Error>((ok) => trace.on('error', ok));
    stand.gone = true;
    expect((await gone).message).toContain('refused /api/data/SamplesReport (404): Target 42 not found');
  });

  it('leaves other traces to the engine', () => {
    let engineOptions: unknown;
    const start = startWithRemoteServers((o) => {
      engineOptions = o;
      return {} as never;
    });
    start({ target: '10.0.0.9' });
    expect(engineOptions).toEqual({ target: '10.0.0.9' });
  });
});
