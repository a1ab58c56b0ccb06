// A connection token is no bearer credential (issue 39 item 3): every transport request that
// names a connection (long-polling GET/POST/DELETE, a WebSocket upgrade with `id`) must come
// from the principal that negotiated it, by the owner key the app gives the hub plugin.
// Anyone else is told there is no such connection (404), and the owner's connection goes on
// as if nothing happened. Generic core, with the test hub (session=<name> signs in as <name>).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestServer, type TestServer } from './test-hub.js';

const RS = '\u001e';
const ALICE = { cookie: 'session=alice' };
const MALLORY = { cookie: 'session=mallory' };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(0);
});
afterAll(async () => {
  await server?.app.close();
});

async function negotiate(headers: Record<string, string>): Promise<string> {
  const r = await fetch(`${server.url}/negotiate?negotiateVersion=1`, { method: 'POST', headers });
  expect(r.status).toBe(200);
  return ((await r.json()) as { connectionToken: string }).connectionToken;
}

/** A long-polling connection of alice's, handshaken; its URL. */
async function alicePolling(): Promise<string> {
  const at = `${server.url}?id=${await negotiate(ALICE)}`;
  expect((await fetch(at, { headers: ALICE })).status).toBe(200);
  expect((await fetch(at, { method: 'POST', headers: ALICE, body: `{"protocol":"json","version":1}${RS}` })).status).toBe(200);
  expect(await (await fetch(at, { headers: ALICE })).text()).toBe(`{}${RS}`);
  return at;
}

const invocation = (id: string, target: string, ...args: unknown[]) => `${JSON.stringify({ type: 1, invocationId: id, target, arguments: args })}${RS}`;

/** Alice's next poll: the records it carries. */
async function poll(at: string): Promise<{ invocationId?: string; result?: unknown; type: number }[]> {
  const r = await fetch(at, { headers: ALICE });
  expect(r.status).toBe(200);
  return (await r.text())
    .split(RS)
    .filter(Boolean)
    .map((t) => JSON.parse(t) as { type: number });
}

function upgradeStatus(url: string, headers: Record<string, string>, opened: WebSocket[] = []): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      opened.push(ws);
      resolve(101);
    });
    ws.on('error', () => {});
  });
}

describe('a hub connection belongs to the principal that negotiated it', () => {
  it("refuses another principal's long-polling send, poll and delete with 404; the owner's connection goes on", async () => {
    const at = await alicePolling();
    const send = await fetch(at, { method: 'POST', headers: MALLORY, body: invocation('m1', 'Whoami') });
    expect(send.status).toBe(404);
    expect(await send.json()).toEqual({ Error: 'No connection with that ID; negotiate a new connection.' });
    const stolenPoll = await fetch(at, { headers: MALLORY });
    expect(stolenPoll.status).toBe(404);
    const stolenDelete = await fetch(at, { method: 'DELETE', headers: MALLORY });
    expect(stolenDelete.status).toBe(404);

    // Alice's connection is open, and nothing mallory sent ran on it.
    expect((await fetch(at, { method: 'POST', headers: ALICE, body: invocation('a1', 'Whoami') })).status).toBe(200);
    const records = await poll(at);
    const completions = records.filter((r) => r.type === 3);
    expect(completions.map((c) => c.invocationId)).toEqual(['a1']);
    expect((completions[0]!.result as { name: string }).name).toBe('alice');
    expect((await fetch(at, { method: 'DELETE', headers: ALICE })).status).toBe(202);
  });

  it("refuses a WebSocket upgrade with another principal's connection id (404), and the owner can still connect", async () => {
    const token = await negotiate(ALICE);
    const wsUrl = `${server.url.replace('http', 'ws')}?id=${token}`;
    expect(await upgradeStatus(wsUrl, MALLORY)).toBe(404);
    const opened: WebSocket[] = [];
    expect(await upgradeStatus(wsUrl, ALICE, opened)).toBe(101);
    opened[0]!.close();
  });

  it("does not let another principal's oversized send close the owner's connection", async () => {
    const at = await alicePolling();
    const big = await fetch(at, { method: 'POST', headers: MALLORY, body: 'x'.repeat(server.hub.limits.maxMessageBytes + 1) });
    expect(big.status).toBe(413);
    expect((await fetch(at, { method: 'POST', headers: ALICE, body: invocation('a2', 'Echo', 'still here') })).status).toBe(200);
    const records = await poll(at);
    expect(records.filter((r) => r.type === 3).map((r) => r.result)).toEqual(['still here']);
    expect((await fetch(at, { method: 'DELETE', headers: ALICE })).status).toBe(202);
  });
});
