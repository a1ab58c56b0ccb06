// A hub spoken to by hand (fetch and ws, no SignalR client), for tests that send what a
// client would not: another principal's connection token, refused upgrades.
import { expect } from 'vitest';
import { WebSocket } from 'ws';

/** The record separator that ends every hub message. */
export const RS = '\u001e';

/** Negotiates (version 1) at `hubUrl` (e.g. http://127.0.0.1:port/mainHub) as `cookie`; the connection token. */
export async function negotiateToken(hubUrl: string, cookie: string): Promise<string> {
  const r = await fetch(`${hubUrl}/negotiate?negotiateVersion=1`, { method: 'POST', headers: { cookie } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { connectionToken: string }).connectionToken;
}

/** A long-polling connection of `cookie`'s, connected and handshaken: its URL (hub?id=token). */
export async function openLongPolling(hubUrl: string, cookie: string): Promise<string> {
  const at = `${hubUrl}?id=${await negotiateToken(hubUrl, cookie)}`;
  const headers = { cookie };
  expect((await fetch(at, { headers })).status).toBe(200); // the first poll: connect
  expect((await fetch(at, { method: 'POST', headers, body: `{"protocol":"json","version":1}${RS}` })).status).toBe(200);
  expect(await (await fetch(at, { headers })).text()).toBe(`{}${RS}`);
  return at;
}

/** An invocation record (JSON protocol). */
export const invocationRecord = (invocationId: string, target: string, ...args: unknown[]) =>
  `${JSON.stringify({ type: 1, invocationId, target, arguments: args })}${RS}`;

/** The messages of a poll answer's body. */
export const recordsOf = (body: string) =>
  body
    .split(RS)
    .filter(Boolean)
    .map((t) => JSON.parse(t) as { type: number; invocationId?: string; result?: unknown; error?: string });

/** Status of an upgrade the server refuses (or 101 if it accepts; accepted sockets go in `opened`). */
export function upgradeStatus(url: string, cookie?: string, opened: WebSocket[] = []): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers: cookie ? { cookie } : {} });
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
