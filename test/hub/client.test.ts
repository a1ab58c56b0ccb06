// The hub server core against the real @microsoft/signalr client in Node, over
// WebSockets and over Long Polling.
import {
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  HttpTransportType,
  LogLevel,
} from '@microsoft/signalr';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer, until } from './test-hub.js';

const transports = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
] as const;

function client(url: string, transport: HttpTransportType, user: string | null, reconnect = false): HubConnection {
  const builder = new HubConnectionBuilder()
    .withUrl(url, { transport, headers: user ? { Cookie: `session=${user}` } : {} })
    .configureLogging(process.env.HUB_TEST_LOG ? LogLevel.Information : LogLevel.None);
  if (reconnect) builder.withAutomaticReconnect([0, 100, 200, 200, 500, 500, 1000, 1000, 1000, 1000, 1000, 1000]);
  return builder.build();
}

describe.each(transports)('hub over %s', (_name, transport) => {
  let server: TestServer;
  const open: HubConnection[] = [];
  const connect = async (user = 'alice') => {
    const c = client(server.url, transport, user);
    open.push(c);
    await c.start();
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.stop()));
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('connects, invokes methods and gets their results', async () => {
    const c = await connect('alice');
    expect(c.state).toBe(HubConnectionState.Connected);
    expect(await c.invoke('Echo', 'hello')).toBe('hello');
    expect(await c.invoke('Add', 2, 40)).toBe(42);
    expect(await c.invoke('Nothing')).toBeUndefined();
    const me = await c.invoke('Whoami');
    expect(me).toEqual({ name: 'alice', connectionId: c.connectionId });
    // Several invocations in flight at once all complete, each with its own result.
    const sums = await Promise.all([1, 2, 3, 4, 5].map((n) => c.invoke('Add', n, n)));
    expect(sums).toEqual([2, 4, 6, 8, 10]);
  });

  it('answers wrong calls with a completion error a person can act on', async () => {
    const c = await connect();
    await expect(c.invoke('Nope')).rejects.toThrow("Unknown hub method 'Nope'.");
    await expect(c.invoke('toString')).rejects.toThrow("Unknown hub method 'toString'.");
    await expect(c.invoke('Add', 1)).rejects.toThrow("Hub method 'Add' takes 2 arguments (a, b); it was called with 1.");
    await expect(c.invoke('Add', 1, 'x')).rejects.toThrow("Argument 2 ('b') of hub method 'Add' must be number.");
    await expect(c.invoke('Throw', 'public')).rejects.toThrow('You asked for an error.');
    const unexpected = c.invoke('Throw', 'unexpected');
    await expect(unexpected).rejects.toThrow("An unexpected error occurred invoking 'Throw' on the server.");
    await expect(unexpected).rejects.not.toThrow(/secret/);
    // A service's "too busy, ask again" (503) reads as over REST, so the console can tell it and ask again.
    await expect(c.invoke('Throw', 'busy')).rejects.toThrow('The server is too busy to answer now (a test); try again in a few seconds.');
    await expect(c.invoke('Throw', 'internal')).rejects.toThrow("An unexpected error occurred invoking 'Throw' on the server.");
    // Streaming is refused per invocation, not per connection.
    const streamError = await new Promise<Error>((resolve) => {
      c.stream('Echo', 'x').subscribe({ next() {}, complete() {}, error: resolve });
    });
    expect(streamError.message).toContain("Hub method 'Echo' is not a streaming method");
    // The connection is still fine after all of that.
    expect(await c.invoke('Add', 1, 1)).toBe(2);
    expect(c.state).toBe(HubConnectionState.Connected);
  });

  it('handles invocations without an invocationId (send) and pushes events to one connection', async () => {
    const c = await connect();
    const notified: string[] = [];
    c.on('Notified', (text: string) => notified.push(text));
    await c.send('Notify', 'fire-and-forget');
    await until(() => notified.length === 1, 'Notified event');
    expect(notified).toEqual(['fire-and-forget']);

    const direct: string[] = [];
    c.on('Direct', (text: string) => direct.push(text));
    expect(server.hub.clients.connection(c.connectionId!).send('Direct', 'just you')).toBe(1);
    await until(() => direct.length === 1, 'Direct event');
    expect(direct).toEqual(['just you']);
  });

  it('sends group events only to members, and groups are left on leave and on close', async () => {
    const a = await connect('alice');
    const b = await connect('bob');
    const got = { a: [] as string[], b: [] as string[] };
    const everyone = { a: 0, b: 0 };
    a.on('GroupMessage', (_g: string, text: string, from: string) => got.a.push(`${text} from ${from}`));
    b.on('GroupMessage', (_g: string, text: string, from: string) => got.b.push(`${text} from ${from}`));
    a.on('Everyone', () => everyone.a++);
    b.on('Everyone', () => everyone.b++);

    await a.invoke('JoinGroup', 'ops');
    expect(server.hub.groups.size('ops')).toBe(1);
    expect(await b.invoke('Broadcast', 'ops', 'first')).toBe(1);
    // Frames reach each connection in order: once 'Everyone' arrives, any group message sent before it has too.
    server.hub.clients.all.send('Everyone', 1);
    await until(() => everyone.a === 1 && everyone.b === 1, 'first Everyone on both');
    expect(got.a).toEqual(['first from bob']);
    expect(got.b).toEqual([]);

    await a.invoke('LeaveGroup', 'ops');
    expect(await b.invoke('Broadcast', 'ops', 'second')).toBe(0);
    server.hub.clients.all.send('Everyone', 2);
    await until(() => everyone.a === 2 && everyone.b === 2, 'second Everyone on both');
    expect(got.a).toEqual(['first from bob']);

    await a.invoke('JoinGroup', 'ops');
    await b.invoke('JoinGroup', 'ops');
    expect(server.hub.groups.size('ops')).toBe(2);
    await a.stop();
    await until(() => server.hub.groups.size('ops') === 1, 'closed connection removed from its group');
  });

  it('refuses a connection when the authenticate hook says no (401)', async () => {
    const c = client(server.url, transport, null);
    await expect(c.start()).rejects.toThrow(/401/);
    expect(c.state).toBe(HubConnectionState.Disconnected);
    const negotiate = await fetch(`${server.url}/negotiate?negotiateVersion=1`, { method: 'POST' });
    expect(negotiate.status).toBe(401);
    expect(await negotiate.json()).toEqual({ Error: 'You are not signed in.' });
  });
});

describe('hub sign-in under overload', () => {
  // An overloaded store refuses the sign-in read with 503 and Retry-After (server/store/db.ts
  // StoreOverloaded): the hub passes that on, at negotiate and at the WebSocket upgrade, so a
  // console retries later instead of being told of an internal error (and nothing is logged).
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('answers negotiate 503 with Retry-After when the authenticate hook says the server is busy', async () => {
    const negotiate = await fetch(`${server.url}/negotiate?negotiateVersion=1`, { method: 'POST', headers: { Cookie: 'session=busy' } });
    expect(negotiate.status).toBe(503);
    expect(negotiate.headers.get('retry-after')).toBe('5');
    expect(await negotiate.json()).toEqual({ Error: 'The server is too busy to answer now; try again in a few seconds.' });
  });

  it('answers the WebSocket upgrade 503 with Retry-After when the authenticate hook says the server is busy', async () => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}?id=x`, { headers: { Cookie: 'session=busy' } });
    const answer = await new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined }));
      ws.once('open', () => reject(new Error('the upgrade was accepted')));
      ws.once('error', reject);
    });
    ws.terminate();
    expect(answer).toEqual({ status: 503, retryAfter: '5' });
  });
});

describe.each(transports)('automatic reconnect over %s', (_name, transport) => {
  it('reconnects after the server is closed and started again on the same port', async () => {
    let server = await startTestServer();
    const c = client(server.url, transport, 'alice', true);
    const states: string[] = [];
    c.onreconnecting(() => states.push('reconnecting'));
    c.onreconnected(() => states.push('reconnected'));
    let closed = false;
    c.onclose(() => (closed = true));
    try {
      await c.start();
      expect(await c.invoke('Echo', 'before')).toBe('before');
      const firstId = c.connectionId;

      await server.app.close();
      await until(() => states.includes('reconnecting'), 'client noticed the server closing');
      server = await startTestServer(server.port);
      await until(() => states.includes('reconnected'), 'client reconnected', 20_000);

      expect(c.state).toBe(HubConnectionState.Connected);
      expect(c.connectionId).not.toBe(firstId);
      expect(await c.invoke('Echo', 'after')).toBe('after');
      expect(closed).toBe(false);
    } finally {
      await c.stop();
      await server.app.close();
    }
  });
});
