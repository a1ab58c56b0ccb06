// A small app hosting a test hub (Echo, Add, Throw, groups...) behind a cookie-based fake
// authenticate hook, for the protocol tests with the real @microsoft/signalr client.
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { HttpError } from '../../server/http/errors.js';
import { ServerBusyText } from '../../server/contract/busy.js';
import { createHub, type Hub, HubError, type HubLimits, hubMethods, hubPlugin } from '../../server/hub/index.js';

export interface TestPrincipal {
  name: string;
}

export type TestEvents = {
  GroupMessage: [group: string, text: string, from: string];
  Direct: [text: string];
  Everyone: [n: number];
  Notified: [text: string];
  Big: [payload: string];
};

export const HUB_PATH = '/testHub';

/** "session=<name>" signs in as <name>; "session=busy" fails as an overloaded store does (503); anything else is refused. */
export async function cookieAuthenticate(request: IncomingMessage): Promise<TestPrincipal | null> {
  const cookie = request.headers.cookie ?? '';
  if (/(?:^|;\s*)session=busy\b/.test(cookie)) throw new HttpError(503, 'The server is too busy to answer now; try again in a few seconds.', { 'retry-after': '5' });
  const match = /(?:^|;\s*)session=([a-z]+)/.exec(cookie);
  return match ? { name: match[1]! } : null;
}

export function buildTestHub(limits?: Partial<HubLimits>): Hub<TestPrincipal, TestEvents> {
  const { method } = hubMethods<TestPrincipal>();
  const str = { type: 'string' } as const;
  const num = { type: 'number' } as const;
  // eslint-disable-next-line prefer-const -- the methods below send through the hub they belong to
  let hub: Hub<TestPrincipal, TestEvents>;
  hub = createHub<TestPrincipal, TestEvents>(
    {
      methods: {
        Echo: method({ args: [{ name: 'text', schema: str }], handler: (_ctx, text) => text }),
        Add: method({
          args: [
            { name: 'a', schema: num },
            { name: 'b', schema: num },
          ],
          handler: (_ctx, a, b) => a + b,
        }),
        Whoami: method({ args: [], handler: (ctx) => ({ name: ctx.principal.name, connectionId: ctx.connectionId }) }),
        Nothing: method({ args: [], handler: () => undefined }),
        Throw: method({
          args: [{ name: 'kind', schema: { enum: ['public', 'busy', 'internal', 'unexpected'] } }],
          handler: async (_ctx, kind) => {
            if (kind === 'public') throw new HubError('You asked for an error.');
            // A service's HTTP errors: "too busy, ask again" (an overloaded store's read) is told; a 500's text is not.
            if (kind === 'busy') throw new HttpError(503, `${ServerBusyText} (a test); try again in a few seconds.`, { 'retry-after': '5' });
            if (kind === 'internal') throw new HttpError(500, 'secret internal detail');
            throw new Error('secret internal detail');
          },
        }),
        JoinGroup: method({ args: [{ name: 'group', schema: str }], handler: (ctx, group) => ctx.groups.join(group) }),
        LeaveGroup: method({ args: [{ name: 'group', schema: str }], handler: (ctx, group) => ctx.groups.leave(group) }),
        Broadcast: method({
          args: [
            { name: 'group', schema: str },
            { name: 'text', schema: str },
          ],
          handler: (ctx, group, text) => hub.clients.group(group).send('GroupMessage', group, text, ctx.principal.name),
        }),
        Notify: method({
          args: [{ name: 'text', schema: str }],
          handler: (ctx, text) => {
            hub.clients.connection(ctx.connectionId).send('Notified', text);
          },
        }),
      },
    },
    { limits },
  );
  return hub;
}

export interface TestServer {
  app: FastifyInstance;
  hub: Hub<TestPrincipal, TestEvents>;
  port: number;
  url: string;
}

export async function startTestServer(port = 0, limits?: Partial<HubLimits>): Promise<TestServer> {
  // forceCloseConnections: the Node client's fetch can leave a keep-alive socket open with no
  // request on it, which server.close() would otherwise wait for (up to headersTimeout).
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const hub = buildTestHub(limits);
  await app.register(hubPlugin, { path: HUB_PATH, hub, authenticate: cookieAuthenticate, ownerKey: (p: TestPrincipal) => p.name });
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { app, hub, port: address.port, url: `http://127.0.0.1:${address.port}${HUB_PATH}` };
}

/** Waits until check() is true (checked every 10 ms), or fails after the time given. */
export async function until(check: () => boolean, what: string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
