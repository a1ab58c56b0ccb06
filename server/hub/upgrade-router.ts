// One 'upgrade' listener per HTTP server, routing WebSocket upgrades by path, so several
// hubs (the console's and, later, the agents') can share one server.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

const routers = new WeakMap<Server, Map<string, UpgradeHandler>>();

export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}

/** Adds a route for upgrades to `path`; returns a function that removes it. */
export function routeUpgrades(server: Server, path: string, handler: UpgradeHandler): () => void {
  let routes = routers.get(server);
  if (!routes) {
    const table = new Map<string, UpgradeHandler>();
    routes = table;
    routers.set(server, table);
    const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const route = table.get(pathOf(request.url));
      if (route) return route(request, socket, head);
      // Another listener (not ours) may own this path; with none, refuse instead of hanging.
      if (server.listenerCount('upgrade') === 1) rejectUpgrade(socket, 404, 'There is no WebSocket endpoint at this path.');
    };
    server.on('upgrade', listener);
  }
  if (routes.has(path)) throw new Error(`A hub is already mounted at ${path}.`);
  routes.set(path, handler);
  return () => routes.delete(path);
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Answers an upgrade request with a plain HTTP error and the usual {"Error": ...} body. */
export function rejectUpgrade(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ Error: message });
  // Only headers the app chose (Retry-After); a value with a line break would split the answer.
  const extra = Object.entries(headers)
    .filter(([name, value]) => /^[A-Za-z0-9-]+$/.test(name) && !/[\r\n]/.test(value))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status] ?? 'Error'}\r\n` +
      extra +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
