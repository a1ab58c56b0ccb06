// The remote-server client under the outbound address policy (issue 39 item 2, as for
// webhooks): the address a user gives is refused before any connection when it is loopback,
// link-local (the cloud metadata address) or, in the hosted flavour, private, unless
// HOPWATCH_WEBHOOK_ALLOW opens it; a failure names its class, never a system code.
// The policy comes from the environment the appliance runs with (HOPWATCH_DEPLOYMENT,
// HOPWATCH_WEBHOOK_ALLOW), stubbed here as an operator would set them. A guard on every socket
// connect of this process records (and stops) any connection to an address off loopback, so
// that no test sends a packet to 169.254.x or 10.x, whatever the code under test does.
import { createServer, type Server } from 'node:http';
import { isIP, Socket, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { LoopbackWebhooks } from '../../test/alerts/support.js';
import { exchangeOutbound, OutboundFailed, outboundPolicy } from '../http/outbound-address.js';
import { DeploymentMode } from '../contract/account.js';
import { checkRemoteServer, RemoteServerError } from './client.js';

/** A stand-in of another Hopwatch's sign-in on 127.0.0.1 that counts the connections it gets. */
interface Stand {
  url: string;
  port: number;
  connections: number;
  close: () => Promise<void>;
}

async function standIn(): Promise<Stand> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/api/Account/Login') res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'hw_session=abc; Path=/' }).end('{"UserName":"admin"}');
      else res.writeHead(204).end();
    });
  });
  const stand = { connections: 0 } as Stand;
  server.on('connection', () => stand.connections++);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  stand.port = (server.address() as AddressInfo).port;
  stand.url = `http://127.0.0.1:${stand.port}`;
  stand.close = () => new Promise((ok) => server.close(() => ok()));
  return stand;
}

const loopbackHost = (host: string) => host === 'localhost' || /^127\./.test(host) || host === '::1' || /^::ffff:127\./i.test(host);

/** Hosts this process tried to connect to off loopback (each stopped before a packet left). */
const offLoopback: string[] = [];
let guard: MockInstance | undefined;
let stand: Stand | undefined;

beforeEach(() => {
  offLoopback.length = 0;
  const connect = Socket.prototype.connect;
  guard = vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (this: Socket, ...args: unknown[]) {
    const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
    const host = typeof first === 'object' && first ? (first as { host?: string }).host : typeof args[1] === 'string' ? args[1] : undefined;
    if (host !== undefined && isIP(host) && !loopbackHost(host)) {
      offLoopback.push(host);
      this.destroy(new Error(`the test stopped a connection to ${host}`));
      return this;
    }
    return (connect as (...a: unknown[]) => Socket).apply(this, args);
  });
  // Neither flavour nor allow list from the shell that runs the tests.
  vi.stubEnv('HOPWATCH_DEPLOYMENT', '');
  vi.stubEnv('HOPWATCH_WEBHOOK_ALLOW', '');
});
afterEach(async () => {
  guard?.mockRestore();
  vi.unstubAllEnvs();
  await stand?.close();
  stand = undefined;
});

const access = (address: string) => ({ address, userName: 'admin', password: 'right-password' });
const refusal = (address: string) => checkRemoteServer(access(address)).then(() => undefined, (e: unknown) => e);

describe('the remote server address under the outbound address policy', () => {
  it('refuses a remote server on loopback without HOPWATCH_WEBHOOK_ALLOW, however it is spelt, connecting nowhere', async () => {
    stand = await standIn();
    const cases: [string, string][] = [
      [stand.url, '127.0.0.1'],
      [`http://2130706433:${stand.port}`, '127.0.0.1'],
      [`http://localhost:${stand.port}/hopwatch`, 'localhost'],
    ];
    for (const [address, host] of cases) {
      const err = await refusal(address);
      expect(err, address).toBeInstanceOf(RemoteServerError);
      expect((err as RemoteServerError).problem).toBe('address');
      expect((err as Error).message).toBe(`the remote server address ${host} is refused: loopback; set HOPWATCH_WEBHOOK_ALLOW to allow it.`);
    }
    expect(stand.connections).toBe(0);
  });

  it('refuses the cloud metadata address before any connection', async () => {
    const err = await refusal('http://169.254.169.254/latest/meta-data');
    expect((err as Error).message).toBe('the remote server address 169.254.169.254 is refused: link-local; set HOPWATCH_WEBHOOK_ALLOW to allow it.');
    expect(offLoopback).toEqual([]);
  });

  it('refuses a private address in the hosted flavour before any connection', async () => {
    vi.stubEnv('HOPWATCH_DEPLOYMENT', String(DeploymentMode.Cloud));
    const err = await refusal('https://10.20.30.40:8443');
    expect((err as RemoteServerError).problem).toBe('address');
    expect((err as Error).message).toBe('the remote server address 10.20.30.40 is refused: private; set HOPWATCH_WEBHOOK_ALLOW to allow it.');
    expect(offLoopback).toEqual([]);
  });

  it('reaches what HOPWATCH_WEBHOOK_ALLOW opens, and names a failure by its class only', async () => {
    vi.stubEnv('HOPWATCH_WEBHOOK_ALLOW', LoopbackWebhooks.HOPWATCH_WEBHOOK_ALLOW);
    stand = await standIn();
    await expect(checkRemoteServer(access(stand.url))).resolves.toBeUndefined();
    expect(stand.connections).toBeGreaterThan(0);

    const closed = stand.url;
    await stand.close();
    stand = undefined;
    const err = await refusal(closed);
    expect((err as RemoteServerError).problem).toBe('unreachable');
    expect((err as Error).message).toBe(`the remote Hopwatch at ${closed} cannot be reached (connection refused). Check the address and that it answers over the network from this server.`);
    expect((err as Error).message).not.toContain('ECONNREFUSED');
  });
});

describe('exchangeOutbound', () => {
  it('reads an answer whole up to its cap, and refuses a longer one as a class of failure', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1; Path=/', 'b=2'] });
      res.end(JSON.stringify({ pad: 'x'.repeat(5000) }));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const policy = outboundPolicy({ deployment: DeploymentMode.SelfHosted, webhookAllow: ['127.0.0.1'] });
    try {
      const req = { method: 'GET', headers: {}, timeoutMs: 5000 };
      const whole = await exchangeOutbound(url, { ...req, maxBodyBytes: 10_000 }, policy);
      expect(whole.status).toBe(200);
      expect(whole.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2']);
      expect((JSON.parse(whole.body) as { pad: string }).pad).toHaveLength(5000);
      const cut = await exchangeOutbound(url, { ...req, maxBodyBytes: 1000 }, policy).catch((e: unknown) => e);
      expect(cut).toBeInstanceOf(OutboundFailed);
      expect((cut as Error).message).toBe('answer too large');
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });
});
