// Issue 39 item 3: a /mainHub connection token is not a credential. A user with no claims,
// root's own second sign-in, and a LiveShare visitor each take root's connection token and
// try to send an invocation (ResetAndRestart), poll root's events, end the connection, or
// open a WebSocket on it: every one is answered as an unknown connection (404), and root's
// connection keeps working. Before, the send ran with root's rights and the poll took
// root's frames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createUser, liveShareVisitor } from '../security/support.js';

const RS = '\u001e';
let hw: Appliance;
let root: string;
const others: [string, string][] = [];

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw' } });
  root = await signIn(hw.url, 'admin', 'root-pw');
  await createUser(hw, root, 'b-user@example.org', 'Unrelated-Pass-42', []);
  others.push(['a user with no claims', await signIn(hw.url, 'b-user@example.org', 'Unrelated-Pass-42')]);
  others.push(["root's other sign-in", await signIn(hw.url, 'admin', 'root-pw')]);
  others.push(['a LiveShare visitor', await liveShareVisitor(hw, root)]);
});
afterAll(async () => {
  await hw?.dispose();
});

async function negotiate(cookie: string): Promise<string> {
  const r = await fetch(`${hw.url}/mainHub/negotiate?negotiateVersion=1`, { method: 'POST', headers: { cookie } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { connectionToken: string }).connectionToken;
}

const invocation = (id: string, target: string, ...args: unknown[]) => `${JSON.stringify({ type: 1, invocationId: id, target, arguments: args })}${RS}`;

/** Root's long-polling connection, handshaken: its URL. */
async function rootPolling(): Promise<string> {
  const at = `${hw.url}/mainHub?id=${await negotiate(root)}`;
  expect((await fetch(at, { headers: { cookie: root } })).status).toBe(200);
  expect((await fetch(at, { method: 'POST', headers: { cookie: root }, body: `{"protocol":"json","version":1}${RS}` })).status).toBe(200);
  expect(await (await fetch(at, { headers: { cookie: root } })).text()).toBe(`{}${RS}`);
  return at;
}

/** The completions root's next polls carry, until one for `invocationId` arrives. */
async function completionFor(at: string, invocationId: string): Promise<{ invocationId: string; result?: unknown; error?: string }[]> {
  const seen: { type: number; invocationId: string }[] = [];
  while (!seen.some((r) => r.invocationId === invocationId)) {
    const r = await fetch(at, { headers: { cookie: root } });
    expect(r.status).toBe(200);
    seen.push(...(await r.text()).split(RS).filter(Boolean).map((t) => JSON.parse(t) as { type: number; invocationId: string }));
  }
  return seen.filter((r) => r.type === 3);
}

function upgradeStatus(url: string, cookie: string, opened: WebSocket[] = []): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: { cookie } });
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

describe("another principal holding root's /mainHub connection token", () => {
  it('cannot send, poll or end it over long polling (404); root\'s connection goes on', async () => {
    const at = await rootPolling();
    for (const [who, cookie] of others) {
      const send = await fetch(at, { method: 'POST', headers: { cookie }, body: invocation(`stolen-${who}`, 'ResetAndRestart', 1) });
      expect(send.status, who).toBe(404);
      expect(await send.json(), who).toEqual({ Error: 'No connection with that ID; negotiate a new connection.' });
      expect((await fetch(at, { headers: { cookie } })).status, who).toBe(404);
      expect((await fetch(at, { method: 'DELETE', headers: { cookie } })).status, who).toBe(404);
    }
    // Root's connection is open; nothing the others sent was run on it.
    expect((await fetch(at, { method: 'POST', headers: { cookie: root }, body: invocation('root-1', 'GetIsMagneto') })).status).toBe(200);
    const completions = await completionFor(at, 'root-1');
    expect(completions.map((c) => c.invocationId)).toEqual(['root-1']);
    expect(completions[0]!.error).toBeUndefined();
    expect((await fetch(at, { method: 'DELETE', headers: { cookie: root } })).status).toBe(202);
  });

  it('cannot open a WebSocket with its id; root still can', async () => {
    const token = await negotiate(root);
    const wsUrl = `${hw.url.replace('http', 'ws')}/mainHub?id=${token}`;
    for (const [who, cookie] of others) expect(await upgradeStatus(wsUrl, cookie), who).toBe(404);
    const opened: WebSocket[] = [];
    expect(await upgradeStatus(wsUrl, root, opened)).toBe(101);
    opened[0]!.close();
  });
});
