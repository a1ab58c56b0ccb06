// Issue 39 item 3: a /mainHub connection token is not a credential. A user with no claims,
// root's own second sign-in, and a LiveShare visitor each take root's connection token and
// try to send an invocation (ResetAndRestart), poll root's events, end the connection, or
// open a WebSocket on it: every one is answered as an unknown connection (404), and root's
// connection keeps working. Before, the send ran with root's rights and the poll took
// root's frames.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import { createUser, liveShareVisitor } from '../security/support.js';
import { invocationRecord, negotiateToken, openLongPolling, recordsOf, upgradeStatus } from './raw-hub.js';

let hw: Appliance;
let hubUrl: string;
let root: string;
const others: [string, string][] = [];

beforeAll(async () => {
  hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'root-pw' } });
  hubUrl = `${hw.url}/mainHub`;
  root = await signIn(hw.url, 'admin', 'root-pw');
  await createUser(hw, root, 'b-user@example.org', 'Unrelated-Pass-42', []);
  others.push(['a user with no claims', await signIn(hw.url, 'b-user@example.org', 'Unrelated-Pass-42')]);
  others.push(["root's other sign-in", await signIn(hw.url, 'admin', 'root-pw')]);
  others.push(['a LiveShare visitor', await liveShareVisitor(hw, root)]);
});
afterAll(async () => {
  await hw?.dispose();
});

/** The completions root's polls carry, until the one for `invocationId` arrived. */
async function completionsUntil(at: string, invocationId: string) {
  const seen: ReturnType<typeof recordsOf> = [];
  while (!seen.some((m) => m.invocationId === invocationId)) {
    const r = await fetch(at, { headers: { cookie: root } });
    expect(r.status).toBe(200);
    seen.push(...recordsOf(await r.text()));
  }
  return seen.filter((m) => m.type === 3);
}

describe("another principal holding root's /mainHub connection token", () => {
  it("cannot send, poll or end it over long polling (404); root's connection goes on", async () => {
    const at = await openLongPolling(hubUrl, root);
    for (const [who, cookie] of others) {
      const send = await fetch(at, { method: 'POST', headers: { cookie }, body: invocationRecord(`stolen-${who}`, 'ResetAndRestart', 1) });
      expect(send.status, who).toBe(404);
      expect(await send.json(), who).toEqual({ Error: 'No connection with that ID; negotiate a new connection.' });
      expect((await fetch(at, { headers: { cookie } })).status, who).toBe(404);
      expect((await fetch(at, { method: 'DELETE', headers: { cookie } })).status, who).toBe(404);
    }
    // Root's connection is open; nothing the others sent was run on it.
    expect((await fetch(at, { method: 'POST', headers: { cookie: root }, body: invocationRecord('root-1', 'GetIsMagneto') })).status).toBe(200);
    const done = await completionsUntil(at, 'root-1');
    expect(done.map((c) => c.invocationId)).toEqual(['root-1']);
    expect(done[0]!.error).toBeUndefined();
    expect((await fetch(at, { method: 'DELETE', headers: { cookie: root } })).status).toBe(202);
  });

  it('cannot open a WebSocket with its id; root still can', async () => {
    const wsUrl = `${hubUrl.replace('http', 'ws')}?id=${await negotiateToken(hubUrl, root)}`;
    for (const [who, cookie] of others) expect(await upgradeStatus(wsUrl, cookie), who).toBe(404);
    const opened: WebSocket[] = [];
    expect(await upgradeStatus(wsUrl, root, opened)).toBe(101);
    opened[0]!.close();
  });
});
