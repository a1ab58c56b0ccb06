// Fastify plugin that mounts one hub at an absolute path:
//   app.register(hubPlugin, { path: '/mainHub', hub, authenticate, ownerKey })
// POST {path}/negotiate, WebSocket upgrades of {path}, and Long Polling on {path}
// (GET poll, POST send, DELETE close), per TransportProtocols.md of ASP.NET Core SignalR.
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { WebSocketServer } from 'ws';
import { isPublicStatus, type Hub } from './hub.js';
import { rejectUpgrade, routeUpgrades } from './upgrade-router.js';

export interface HubPluginOptions<P = unknown> {
  /** Absolute path of the hub, e.g. '/mainHub' (register the plugin without a prefix). */
  path: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the hub's event map does not matter here
  hub: Hub<P, any>;
  /**
   * Called at negotiate and at every connect (WebSocket upgrade, each long-polling request).
   * Gets the raw request (headers, url with access_token if any); null means not signed in;
   * an error with a 4xx `status` refuses with that status and its message.
   */
  authenticate: (request: IncomingMessage) => Promise<P | null>;
  /**
   * Who owns a connection, as text: the same key for every request of the one who
   * negotiated it (its login session, its shared link...), a different one for anybody else.
   * A connection token is then no credential of its own: every transport request (poll,
   * send, delete, WebSocket upgrade) is refused as an unknown connection (404) unless the
   * principal it authenticates as has the key of the principal that negotiated.
   */
  ownerKey: (principal: P) => string;
  /** The 401 {"Error"} text. Default 'You are not signed in.' */
  unauthorizedMessage?: string;
  /**
   * Checked before authentication on every request of the hub (negotiate, WebSocket upgrade,
   * long polling): a text refuses it with 403 (e.g. a request another web site made).
   */
  refuseRequest?: (request: IncomingMessage) => string | undefined;
  /** Fastify route config for the hub's routes (the app's declarations, such as its access). */
  routeConfig?: Record<string, unknown>;
}

interface IdQuery {
  id?: string;
  negotiateVersion?: string;
}

/** How long shutdown waits for answered polls to reach their clients. */
const POLL_FLUSH_GRACE_MS = 2_000;

const transports = [
  { transport: 'WebSockets', transferFormats: ['Text'] },
  { transport: 'LongPolling', transferFormats: ['Text'] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- P is fixed per registration
export const hubPlugin: FastifyPluginAsync<HubPluginOptions<any>> = async (app, options) => {
  const { path, hub, authenticate, ownerKey } = options;
  const unauthorized = options.unauthorizedMessage ?? 'You are not signed in.';
  const log = app.log.child({ hub: path });
  hub.useLogger(log);
  const limit = hub.limits.maxMessageBytes;

  // The client posts text frames with varying content types: take every body as text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: limit }, (_request, body, done) => done(null, body));

  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The body is refused before the route ran: close the connection only when its owner
      // sent it (anyone else must not be able to end someone's connection by its token).
      const token = (request.query as IdQuery).id;
      const sender = token && options.refuseRequest?.(request.raw) === undefined ? await authenticate(request.raw).catch(() => null) : null;
      const connection = token && sender !== null && sender !== undefined ? hub.connectionOf(token, ownerKey(sender)) : undefined;
      const text = `A message exceeded the limit of ${limit} bytes.`;
      connection?.close(`Connection closed with an error: ${text}`);
      return reply.code(413).send({ Error: text });
    }
    // Fastify's own errors carry statusCode, the app's HttpError (a cross-site refusal) status.
    const status = err.statusCode ?? (err as { status?: number }).status;
    if (isPublicStatus(status)) {
      const headers = (err as { headers?: Record<string, string> }).headers;
      if (headers) void reply.headers(headers);
      return reply.code(status).send({ Error: err.message });
    }
    request.log.error({ err }, 'hub request failed');
    return reply.code(500).send({ Error: 'An internal error occurred; it has been logged.' });
  });

  /** Runs the hooks; on a refusal or null answers the reply itself and returns undefined. */
  async function principalOf(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const refused = options.refuseRequest?.(request.raw);
    if (refused !== undefined) {
      void reply.code(403).send({ Error: refused });
      return undefined;
    }
    const principal = await authenticate(request.raw);
    if (principal === null || principal === undefined) {
      void reply.code(401).send({ Error: unauthorized });
      return undefined;
    }
    return principal;
  }

  function requireId(request: FastifyRequest, reply: FastifyReply): string | undefined {
    const id = (request.query as IdQuery).id;
    if (!id) void reply.code(400).send({ Error: "The connection token ('id' query parameter) is required." });
    return id || undefined;
  }

  /** Poll responses not yet written out (settle on finish or client disconnect). */
  const polls = new Set<Promise<void>>();

  const noConnection = { Error: 'No connection with that ID; negotiate a new connection.' };

  const config = { config: options.routeConfig ?? {} };
  app.post(`${path}/negotiate`, config, async (request, reply) => {
    if (hub.isClosing) return reply.code(503).send({ Error: 'The server is shutting down.' });
    const principal = await principalOf(request, reply);
    if (principal === undefined) return reply;
    const requested = Number((request.query as IdQuery).negotiateVersion ?? 0);
    const version = Number.isFinite(requested) && requested >= 1 ? 1 : 0;
    const connection = hub.negotiate(principal, version, ownerKey(principal));
    return reply.header('cache-control', 'no-cache').send({
      negotiateVersion: version,
      connectionId: connection.id,
      ...(version >= 1 ? { connectionToken: connection.token } : {}),
      availableTransports: transports,
    });
  });

  // Long polling: the poll.
  app.get(path, config, async (request, reply) => {
    // Who is asking before what they sent, as on every route (server/http/access.ts).
    const principal = await principalOf(request, reply);
    if (principal === undefined) return reply;
    const token = requireId(request, reply);
    if (token === undefined) return reply;
    const owner = ownerKey(principal);
    const connection = hub.connectionOf(token, owner);
    let transport = hub.drainingPoll(token, owner);
    if (connection) {
      if (connection.transport && connection.transport.name !== 'LongPolling') {
        return reply.code(400).send({ Error: 'Cannot change transports mid-connection.' });
      }
      transport = connection.transport
        ? (connection.transport as ReturnType<typeof hub.attachLongPolling>)
        : hub.attachLongPolling(connection, principal);
    }
    if (!transport) return reply.code(404).send(noConnection);
    const poll = transport.poll();
    const response = reply.raw;
    const settled = new Promise<void>((resolve) => {
      response.once('finish', resolve);
      response.once('close', () => {
        if (!response.writableFinished) poll.cancel();
        resolve();
      });
    });
    polls.add(settled);
    void settled.then(() => polls.delete(settled));
    const { status, body } = await poll.answer;
    reply.header('cache-control', 'no-cache');
    if (status === 204) return reply.code(204).send();
    return reply.code(200).type('text/plain; charset=utf-8').send(body);
  });

  // Long polling: the client's frames.
  app.post(path, config, async (request, reply) => {
    // Who is asking before what they sent, as on every route (server/http/access.ts).
    const principal = await principalOf(request, reply);
    if (principal === undefined) return reply;
    const token = requireId(request, reply);
    if (token === undefined) return reply;
    const connection = hub.connectionOf(token, ownerKey(principal));
    if (!connection) return reply.code(404).send(noConnection);
    if (connection.transport?.name !== 'LongPolling') {
      return reply.code(405).send({ Error: 'POST sends are only for long-polling connections.' });
    }
    connection.receive(typeof request.body === 'string' ? request.body : '');
    return reply.code(200).send('');
  });

  // Long polling: the client ends the connection.
  app.delete(path, config, async (request, reply) => {
    // Who is asking before what they sent, as on every route (server/http/access.ts).
    const principal = await principalOf(request, reply);
    if (principal === undefined) return reply;
    const token = requireId(request, reply);
    if (token === undefined) return reply;
    const connection = hub.connectionOf(token, ownerKey(principal));
    if (!connection) return reply.code(404).send(noConnection);
    connection.transportClosed();
    return reply.code(202).send('');
  });

  // WebSockets. maxPayload makes ws refuse (close 1009) any message over the limit
  // before it is buffered whole.
  const wss = new WebSocketServer({ noServer: true, maxPayload: limit, perMessageDeflate: false });

  async function upgrade(request: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    if (hub.isClosing) return rejectUpgrade(socket, 503, 'The server is shutting down.');
    const refused = options.refuseRequest?.(request);
    if (refused !== undefined) return rejectUpgrade(socket, 403, refused);
    let principal: unknown;
    try {
      principal = await authenticate(request);
    } catch (err) {
      // A refusal the hook chose (an HttpError-like 4xx, or 503 when the server is overloaded) is answered as such.
      const status = (err as { status?: number }).status;
      if (isPublicStatus(status)) return rejectUpgrade(socket, status, (err as Error).message, (err as { headers?: Record<string, string> }).headers);
      log.error({ err }, 'hub authenticate failed');
      return rejectUpgrade(socket, 500, 'An internal error occurred; it has been logged.');
    }
    if (principal === null || principal === undefined) return rejectUpgrade(socket, 401, unauthorized);
    const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('id');
    // Without an id the client skipped negotiate (skipNegotiation): the upgrade creates the connection.
    const owner = ownerKey(principal);
    const connection = token ? hub.connectionOf(token, owner) : hub.negotiate(principal, 1, owner);
    if (!connection) return rejectUpgrade(socket, 404, noConnection.Error);
    if (connection.state !== 'negotiated') return rejectUpgrade(socket, 409, 'This connection already has a transport.');
    if (socket.destroyed) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (connection.state !== 'negotiated') return ws.close(1008, 'This connection already has a transport.');
      hub.attachWebSocket(connection, ws, principal);
    });
  }

  const unroute = routeUpgrades(app.server, path, (request, socket, head) => {
    upgrade(request, socket, head).catch((err: unknown) => {
      log.error({ err }, 'hub upgrade failed');
      socket.destroy();
    });
  });

  // preClose, not onClose: the HTTP server waits for open polls and sockets before onClose
  // hooks run, so the hub must end them first. Polls answered with the Close frame must be
  // written out before the server drops its idle keep-alive connections.
  app.addHook('preClose', async () => {
    await hub.close();
    const written = Promise.all([...polls]);
    await Promise.race([written, new Promise((resolve) => setTimeout(resolve, POLL_FLUSH_GRACE_MS).unref())]);
  });
  app.addHook('onClose', async () => {
    unroute();
    await hub.close();
    wss.close();
  });
};
