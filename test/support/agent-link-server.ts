// A stand-in for the server's side of the agent link in agent unit tests: an HTTP server on
// loopback that upgrades /agentLink to a WebSocket (or refuses an attempt as the server
// refuses a bad credential), an engine that runs no traces, and credentials for it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { WebSocketServer } from 'ws';
import type { TraceEngine } from '../../engine/index.js';
import { AgentLinkPath } from '../../agent/protocol.js';
import type { Credentials } from '../../agent/state.js';

export interface AgentLinkServer {
  wss: WebSocketServer;
  creds: Credentials;
  close(): Promise<void>;
}

/** `refuse` answers the JSON error body to refuse an attempt with (401), or undefined to accept it. */
export async function agentLinkServer(refuse: (attempt: number, req: IncomingMessage) => string | undefined = () => undefined): Promise<AgentLinkServer> {
  const http: Server = createServer();
  const wss = new WebSocketServer({ noServer: true });
  let attempts = 0;
  http.on('upgrade', (req, socket, head) => {
    if (req.url !== AgentLinkPath) return socket.destroy();
    const body = refuse(++attempts, req);
    if (body !== undefined) {
      socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws));
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const port = (http.address() as { port: number }).port;
  return {
    wss,
    creds: { agentId: 1, server: `http://127.0.0.1:${port}`, credential: 'test-credential-0123456789', machineId: 'm' },
    close: async () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

/** An engine for a program that is given no traces. */
export const noTraceEngine = { startTrace: () => Promise.reject(new Error('no traces in this test')), shutdown: async () => undefined } as unknown as TraceEngine;
