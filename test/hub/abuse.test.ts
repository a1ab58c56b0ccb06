// Protocol abuse with raw WebSocket frames and raw long-polling requests: the server closes
// (or answers with an error) only the bad connection and keeps serving a well-behaved client.
import { randomBytes } from 'node:crypto';
import { type HubConnection, HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RS, upgradeStatus } from './raw-hub.js';
import { startTestServer, type TestServer, until } from './test-hub.js';
const COOKIE = 'session=mallory';
const LIMIT = 64 * 1024;

interface RawSocket {
  ws: WebSocket;
  connectionId: string;
  records: string[];
  closed: Promise<{ code: number; reason: string }>;
}

async function negotiate(server: TestServer, cookie = COOKIE): Promise<{ connectionId: string; connectionToken: string }> {
  const res = await fetch(`${server.url}/negotiate?negotiateVersion=1`, { method: 'POST', headers: { cookie } });
  expect(res.status).toBe(200);
  return (await res.json()) as { connectionId: string; connectionToken: string };
}

async function rawSocket(server: TestServer, handshake = true): Promise<RawSocket> {
  const { connectionId, connectionToken } = await negotiate(server);
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}?id=${connectionToken}`, { headers: { cookie: COOKIE } });
  const records: string[] = [];
  let partial = '';
  ws.on('message', (data: Buffer) => {
    const parts = (partial + data.toString('utf8')).split(RS);
    partial = parts.pop()!;
    records.push(...parts);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('error', () => {});
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
  });
  if (handshake) {
    ws.send(`{"protocol":"json","version":1}${RS}`);
    await until(() => records.length >= 1, 'handshake response');
    expect(records[0]).toBe('{}');
  }
  return { ws, connectionId, records, closed };
}

function closeRecord(records: string[]): { type: number; error?: string; allowReconnect?: boolean } | undefined {
  return records.map((r) => JSON.parse(r) as { type: number }).find((m) => m.type === 7);
}

describe('hub protocol abuse', () => {
  let server: TestServer;
  let good: HubConnection;
  let goodClosed = false;

  beforeAll(async () => {
    server = await startTestServer(0, { maxMessageBytes: LIMIT, maxBufferedBytes: 256 * 1024 });
    good = new HubConnectionBuilder()
      .withUrl(server.url, { transport: HttpTransportType.WebSockets, headers: { Cookie: 'session=alice' } })
      .configureLogging(LogLevel.None)
      .build();
    good.onclose(() => (goodClosed = true));
    await good.start();
  });
  afterAll(async () => {
    await good.stop();
    await server.app.close();
  });

  async function goodClientStillServed(tag: string) {
    expect(await good.invoke('Echo', tag)).toBe(tag);
    expect(goodClosed).toBe(false);
  }

  it('closes a connection that sends garbage bytes instead of a handshake', async () => {
    const raw = await rawSocket(server, false);
    raw.ws.send(Buffer.concat([randomBytes(300), Buffer.from([0x1e])]));
    const { code } = await raw.closed;
    expect(code).toBe(1008);
    expect(JSON.parse(raw.records[0]!)).toHaveProperty('error');
    await goodClientStillServed('after garbage');
  });

  it('refuses a handshake for another protocol, and an invocation before the handshake', async () => {
    const a = await rawSocket(server, false);
    a.ws.send(`{"protocol":"messagepack","version":1}${RS}`);
    expect((await a.closed).code).toBe(1008);
    expect(JSON.parse(a.records[0]!)).toEqual({ error: "Requested protocol 'messagepack' is not available." });

    const b = await rawSocket(server, false);
    b.ws.send(`{"type":1,"invocationId":"1","target":"Echo","arguments":["x"]}${RS}`);
    expect((await b.closed).code).toBe(1008);
    expect(JSON.parse(b.records[0]!).error).toMatch(/Handshake request must be/);
    await goodClientStillServed('after wrong handshakes');
  });

  it('closes a connection that sends a message over the size limit', async () => {
    const single = await rawSocket(server);
    single.ws.send('x'.repeat(LIMIT + 1) + RS);
    expect((await single.closed).code).toBe(1009); // refused by ws before it is buffered

    // The same limit holds for a record spread over several frames without a separator.
    const spread = await rawSocket(server);
    for (let i = 0; i < 3; i++) spread.ws.send('y'.repeat(LIMIT / 2));
    expect((await spread.closed).code).toBe(1008);
    expect(closeRecord(spread.records)?.error).toMatch(/exceeded the limit of 65536 bytes/);
    await goodClientStillServed('after huge messages');
  });

  it('closes a connection for bad JSON, unknown message types and malformed invocations', async () => {
    const cases: [string, RegExp][] = [
      ['{not json', /not valid JSON/],
      ['{"type":42}', /Unknown message type 42/],
      ['[1,2,3]', /no numeric "type"/],
      ['{"type":1,"target":"Echo","arguments":"x","invocationId":"1"}', /no "arguments" array/],
      ['{"type":1,"arguments":[],"invocationId":"1"}', /no "target" string/],
    ];
    for (const [text, expected] of cases) {
      const raw = await rawSocket(server);
      raw.ws.send(text + RS);
      await raw.closed;
      expect(closeRecord(raw.records)?.error).toMatch(expected);
    }
    await goodClientStillServed('after malformed messages');
  });

  it('answers unknown methods and wrong arguments per invocation, ignores cancel, and keeps the connection', async () => {
    const raw = await rawSocket(server);
    raw.ws.send(
      `{"type":1,"invocationId":"a","target":"Nope","arguments":[]}${RS}` +
        `{"type":5,"invocationId":"a"}${RS}` +
        `{"type":1,"invocationId":"b","target":"Add","arguments":[1,"2"]}${RS}` +
        `{"type":4,"invocationId":"c","target":"Echo","arguments":["x"]}${RS}` +
        `{"type":1,"target":"Nope","arguments":[]}${RS}` +
        `{"type":6}${RS}` +
        `{"type":1,"invocationId":"d","target":"Add","arguments":[1,2]}${RS}`,
    );
    await until(() => raw.records.length >= 5, 'four completions');
    const completions = raw.records.slice(1).map((r) => JSON.parse(r));
    expect(completions).toEqual([
      { type: 3, invocationId: 'a', error: "Unknown hub method 'Nope'." },
      { type: 3, invocationId: 'b', error: "Argument 2 ('b') of hub method 'Add' must be number." },
      { type: 3, invocationId: 'c', error: "Hub method 'Echo' is not a streaming method; call it with invoke, not stream." },
      { type: 3, invocationId: 'd', result: 3 },
    ]);
    expect(raw.ws.readyState).toBe(WebSocket.OPEN);
    raw.ws.close();
  });

  it('drops a WebSocket client that stops reading once its send buffer is over the limit', async () => {
    const raw = await rawSocket(server);
    raw.ws.pause(); // stop reading: frames pile up in the kernel, then in the server's buffer
    const payload = 'z'.repeat(32 * 1024);
    let sends = 0;
    while (server.hub.clients.connection(raw.connectionId).send('Big', payload) === 1) {
      if (++sends > 4000) throw new Error('the slow client was never dropped');
      await new Promise((r) => setImmediate(r));
    }
    raw.ws.resume();
    await raw.closed;
    await goodClientStillServed('after a slow WebSocket client');
  });

  it('drops a long-polling client that stops polling once its queue is over the limit', async () => {
    const { connectionId, connectionToken } = await negotiate(server);
    const at = `${server.url}?id=${connectionToken}`;
    const headers = { cookie: COOKIE };
    expect((await fetch(at, { headers })).status).toBe(200); // first poll: connect
    expect((await fetch(at, { method: 'POST', headers, body: `{"protocol":"json","version":1}${RS}` })).status).toBe(200);
    expect(await (await fetch(at, { headers })).text()).toBe(`{}${RS}`);

    const payload = 'q'.repeat(32 * 1024);
    let sends = 0;
    while (server.hub.clients.connection(connectionId).send('Big', payload) === 1) {
      if (++sends > 100) throw new Error('the slow poller was never dropped');
    }
    const last = await fetch(at, { headers });
    expect(last.status).toBe(200);
    const records = (await last.text()).split(RS).filter(Boolean);
    expect(closeRecord(records)).toEqual({
      type: 7,
      error: 'The connection was closed because it did not read messages fast enough.',
      allowReconnect: true,
    });
    expect([204, 404]).toContain((await fetch(at, { headers })).status);
    await goodClientStillServed('after a slow poller');
  });

  it('answers a long-polling send over the size limit with 413 and closes that connection', async () => {
    const { connectionToken } = await negotiate(server);
    const at = `${server.url}?id=${connectionToken}`;
    const headers = { cookie: COOKIE };
    await fetch(at, { headers });
    await fetch(at, { method: 'POST', headers, body: `{"protocol":"json","version":1}${RS}` });
    expect(await (await fetch(at, { headers })).text()).toBe(`{}${RS}`);
    const big = await fetch(at, { method: 'POST', headers, body: 'x'.repeat(LIMIT + 1) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ Error: 'A message exceeded the limit of 65536 bytes.' });
    const records = (await (await fetch(at, { headers })).text()).split(RS).filter(Boolean);
    expect(closeRecord(records)?.error).toMatch(/exceeded the limit/);
    await goodClientStillServed('after an oversized POST');
  });

  it('refuses upgrades that are not signed in (401), unknown (404) or already connected (409)', async () => {
    const { connectionToken } = await negotiate(server);
    const wsUrl = `${server.url.replace('http', 'ws')}?id=${connectionToken}`;
    expect(await upgradeStatus(wsUrl)).toBe(401);
    expect(await upgradeStatus(`${server.url.replace('http', 'ws')}?id=nope`, COOKIE)).toBe(404);
    const opened: WebSocket[] = [];
    expect(await upgradeStatus(wsUrl, COOKIE, opened)).toBe(101);
    expect(await upgradeStatus(wsUrl, COOKIE)).toBe(409); // the first socket is still open
    opened[0]!.close();
    const poll = await fetch(`${server.url}?id=${connectionToken}`);
    expect(poll.status).toBe(401);
    expect(await poll.json()).toEqual({ Error: 'You are not signed in.' });
    await goodClientStillServed('after refused upgrades');
  });
});

describe('hub keep-alive and time-outs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(0, { keepAliveIntervalMs: 100, clientTimeoutMs: 1000, handshakeTimeoutMs: 300 });
  });
  afterAll(async () => {
    await server.app.close();
  });

  it('pings a quiet client, then closes it when it sends nothing for the client time-out', async () => {
    const raw = await rawSocket(server);
    await until(() => raw.records.includes('{"type":6}'), 'a Ping from the server');
    await raw.closed;
    expect(closeRecord(raw.records)).toEqual({
      type: 7,
      error: 'Server timeout elapsed without receiving a message from the client.',
      allowReconnect: true,
    });
  });

  it('closes a socket that never sends the handshake', async () => {
    const raw = await rawSocket(server, false);
    await raw.closed;
    expect(raw.records).toEqual([]);
  });
});
