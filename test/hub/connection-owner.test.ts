// A connection token is no bearer credential (issue 39 item 3): every transport request that
// names a connection (long-polling GET/POST/DELETE, a WebSocket upgrade with `id`) must come
// from the principal that negotiated it, by the owner key the app gives the hub plugin.
// Anyone else is told there is no such connection (404), and the owner's connection goes on
// as if nothing happened. Generic core, with the test hub (session=<name> signs in as <name>).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { invocationRecord, negotiateToken, openLongPolling, recordsOf, upgradeStatus } from './raw-hub.js';
import { startTestServer, type TestServer } from './test-hub.js';

const ALICE = 'session=alice';
const MALLORY = 'session=mallory';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(0);
});
afterAll(async () => {
  await server?.app.close();
});

/** Alice's next poll: the completions it carries. */
async function completions(at: string) {
  const r = await fetch(at, { headers: { cookie: ALICE } });
  expect(r.status).toBe(200);
  return recordsOf(await r.text()).filter((m) => m.type === 3);
}

describe('a hub connection belongs to the principal that negotiated it', () => {
  it("refuses another principal's long-polling send, poll and delete with 404; the owner's connection goes on", async () => {
    const at = await openLongPolling(server.url, ALICE);
    const send = await fetch(at, { method: 'POST', headers: { cookie: MALLORY }, body: invocationRecord('m1', 'Whoami') });
    expect(send.status).toBe(404);
    expect(await send.json()).toEqual({ Error: 'No connection with that ID; negotiate a new connection.' });
    expect((await fetch(at, { headers: { cookie: MALLORY } })).status).toBe(404);
    expect((await fetch(at, { method: 'DELETE', headers: { cookie: MALLORY } })).status).toBe(404);

    // Alice's connection is open, and nothing mallory sent ran on it.
    expect((await fetch(at, { method: 'POST', headers: { cookie: ALICE }, body: invocationRecord('a1', 'Whoami') })).status).toBe(200);
    const done = await completions(at);
    expect(done.map((c) => c.invocationId)).toEqual(['a1']);
    expect((done[0]!.result as { name: string }).name).toBe('alice');
    expect((await fetch(at, { method: 'DELETE', headers: { cookie: ALICE } })).status).toBe(202);
  });

  it("refuses a WebSocket upgrade with another principal's connection id (404), and the owner can still connect", async () => {
    const wsUrl = `${server.url.replace('http', 'ws')}?id=${await negotiateToken(server.url, ALICE)}`;
    expect(await upgradeStatus(wsUrl, MALLORY)).toBe(404);
    const opened: WebSocket[] = [];
    expect(await upgradeStatus(wsUrl, ALICE, opened)).toBe(101);
    opened[0]!.close();
  });

  it("does not let another principal's oversized send close the owner's connection", async () => {
    const at = await openLongPolling(server.url, ALICE);
    const big = await fetch(at, { method: 'POST', headers: { cookie: MALLORY }, body: 'x'.repeat(server.hub.limits.maxMessageBytes + 1) });
    expect(big.status).toBe(413);
    expect((await fetch(at, { method: 'POST', headers: { cookie: ALICE }, body: invocationRecord('a2', 'Echo', 'still here') })).status).toBe(200);
    expect((await completions(at)).map((c) => c.result)).toEqual(['still here']);
    expect((await fetch(at, { method: 'DELETE', headers: { cookie: ALICE } })).status).toBe(202);
  });
});
