// A TCP proxy in front of one replica at a time, for the cluster suites: the agent's link goes
// through it, so a suite can send the agent to another replica, cut its connection, or hold
// back what the replica sends (its acknowledgements).
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface Proxy {
  port: number;
  /** The replica's port new connections go to. */
  upstream: number;
  /** Drops what the replica sends while true. */
  holdReplies: boolean;
  /** Closes every connection through the proxy now (both sides). */
  cut(): void;
  close(): Promise<void>;
}

export async function startProxy(upstream: number): Promise<Proxy> {
  const ends = new Set<() => void>();
  const proxy = { upstream, holdReplies: false } as Proxy;
  const server: Server = createServer((client: Socket) => {
    const up = connect(proxy.upstream, '127.0.0.1');
    client.on('data', (d) => up.write(d));
    up.on('data', (d) => {
      if (!proxy.holdReplies) client.write(d);
    });
    const end = () => {
      client.destroy();
      up.destroy();
      ends.delete(end);
    };
    ends.add(end);
    client.on('close', end).on('error', end);
    up.on('close', end).on('error', end);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  proxy.port = (server.address() as { port: number }).port;
  proxy.cut = () => {
    for (const end of [...ends]) end();
  };
  proxy.close = () => {
    proxy.cut();
    return new Promise<void>((ok) => server.close(() => ok()));
  };
  return proxy;
}
