// The outbound address policy on its own (issue 39 item 2): the pure check over every kind of
// address, and the connect path with an injected resolver (no real DNS): every resolved address
// is checked, and the socket goes to the address that was checked, however the name answers later.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { DeploymentMode } from '../contract/account.js';
import { addressRanges, embeddedIPv4, failureClass, OutboundFailed, OutboundRefused, outboundPolicy, refusalOf, sendOutbound, type Resolver } from './outbound-address.js';

const selfHosted = (allow: string[] = [], own: string[] = []) => outboundPolicy({ deployment: DeploymentMode.SelfHosted, webhookAllow: allow }, () => own);
const hosted = (allow: string[] = []) => outboundPolicy({ deployment: DeploymentMode.Cloud, webhookAllow: allow }, () => []);

describe('refusalOf', () => {
  it('refuses loopback in every form, link-local, unspecified, multicast and broadcast', () => {
    const p = selfHosted();
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::127.0.0.1', 'loopback'], // IPv4-compatible
      ['::ffff:0:127.0.0.1', 'loopback'], // SIIT
      ['64:ff9b::127.0.0.1', 'loopback'], // NAT64
      ['2002:7f00:1::', 'loopback'], // 6to4
      ['169.254.169.254', 'link-local'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['::', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['ff02::1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
    ];
    for (const [address, why] of cases) expect(refusalOf(address, p), address).toBe(why);
  });

  it("refuses the appliance's own interface addresses", () => {
    const p = selfHosted([], ['192.168.77.5', 'fd00::5']);
    expect(refusalOf('192.168.77.5', p)).toBe("this appliance's own address");
    expect(refusalOf('::ffff:192.168.77.5', p)).toBe("this appliance's own address");
    expect(refusalOf('fd00::5', p)).toBe("this appliance's own address");
    expect(refusalOf('192.168.77.6', p)).toBeUndefined();
  });

  it('allows private ranges self-hosted and refuses them in the hosted flavour', () => {
    for (const address of ['10.1.2.3', '172.16.0.1', '172.31.255.1', '192.168.1.1', '100.64.0.1', 'fd12::1', '::ffff:10.0.0.1']) {
      expect(refusalOf(address, selfHosted()), address).toBeUndefined();
      expect(refusalOf(address, hosted()), address).toBe('private');
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(refusalOf(address, selfHosted()), address).toBeUndefined();
      expect(refusalOf(address, hosted()), address).toBeUndefined();
    }
  });

  it('HOPWATCH_WEBHOOK_ALLOW opens what it lists, checked first', () => {
    const p = selfHosted(['127.0.0.0/8', '::1/128', '169.254.169.254'], ['127.0.0.1']);
    expect(refusalOf('127.0.0.1', p)).toBeUndefined();
    expect(refusalOf('::ffff:127.0.0.1', p)).toBeUndefined();
    expect(refusalOf('::1', p)).toBeUndefined();
    expect(refusalOf('169.254.169.254', p)).toBeUndefined();
    expect(refusalOf('169.254.169.253', p)).toBe('link-local');
    expect(refusalOf('10.0.0.1', hosted(['10.0.0.0/24']))).toBeUndefined();
    expect(refusalOf('10.0.1.1', hosted(['10.0.0.0/24']))).toBe('private');
  });

  it('reads the IPv4 address an IPv6 address carries', () => {
    expect(embeddedIPv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIPv4('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(embeddedIPv4('2002:a01:203::1')).toBe('10.1.2.3');
    expect(embeddedIPv4('::1')).toBeUndefined();
    expect(embeddedIPv4('::')).toBeUndefined();
    expect(embeddedIPv4('2001:db8::1')).toBeUndefined();
  });
});

describe('HOPWATCH_WEBHOOK_ALLOW', () => {
  it('takes addresses and CIDR ranges; a bad entry stops the start naming the variable', () => {
    expect(loadConfig({ HOPWATCH_WEBHOOK_ALLOW: ' 127.0.0.0/8, ::1/128 ,10.0.0.5' }).webhookAllow).toEqual(['127.0.0.0/8', '::1/128', '10.0.0.5']);
    expect(loadConfig({}).webhookAllow).toEqual([]);
    for (const bad of ['localhost', '127.0.0.0/33', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x', '300.1.1.1']) {
      expect(() => loadConfig({ HOPWATCH_WEBHOOK_ALLOW: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ HOPWATCH_WEBHOOK_ALLOW: bad }), bad).toThrow(/HOPWATCH_WEBHOOK_ALLOW/);
    }
    expect(() => addressRanges(['fd00::/8', '192.168.0.0/16'])).not.toThrow();
  });
});

describe('sendOutbound with an injected resolver', () => {
  /** Two receivers at one port, on 127.0.0.2 (the address allowed) and 127.0.0.1 (refused). */
  const got: { at: string; host: string | undefined }[] = [];
  const servers: Server[] = [];
  let port = 0;
  beforeAll(async () => {
    for (const address of ['127.0.0.2', '127.0.0.1']) {
      const s = createServer((req, res) => {
        got.push({ at: address, host: (req.headers as IncomingHttpHeaders).host });
        res.writeHead(204).end();
      });
      await new Promise<void>((ok, fail) => s.once('error', fail).listen(port, address, () => ok()));
      port = (s.address() as { port: number }).port;
      servers.push(s);
    }
  });
  afterAll(async () => {
    for (const s of servers) await new Promise((ok) => s.close(ok));
  });
  const req = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 5000 };

  it('connects to the address it checked: a name answering otherwise later (rebinding) changes nothing', async () => {
    got.length = 0;
    const answers = ['127.0.0.2', '127.0.0.1'];
    let asked = 0;
    const rebinding: Resolver = async () => [{ address: answers[Math.min(asked++, 1)], family: 4 }];
    const answer = await sendOutbound(`http://hook.example:${port}/x`, req, selfHosted(['127.0.0.2/32']), rebinding);
    expect(answer).toEqual({ status: 204, reason: 'No Content' });
    expect(asked).toBe(1);
    // Reached the checked address, with the name kept in the Host header.
    expect(got).toEqual([{ at: '127.0.0.2', host: `hook.example:${port}` }]);
  });

  it('checks every address a name resolves to: one refused address refuses the call, nothing is sent', async () => {
    got.length = 0;
    const mixed: Resolver = async () => [{ address: '127.0.0.2', family: 4 }, { address: '127.0.0.1', family: 4 }];
    const refused = await sendOutbound(`http://hook.example:${port}/x`, req, selfHosted(['127.0.0.2/32']), mixed).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutboundRefused);
    expect((refused as Error).message).toBe('webhook address hook.example is refused: loopback; set HOPWATCH_WEBHOOK_ALLOW to allow it');
    expect(got).toEqual([]);
  });

  it('in the hosted flavour a name resolving to a private address is refused before connecting', async () => {
    const resolvedTo10: Resolver = async () => [{ address: '10.255.255.1', family: 4 }];
    const refused = await sendOutbound('http://intranet.example/hook', req, hosted(), resolvedTo10).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutboundRefused);
    expect((refused as OutboundRefused).why).toBe('private');
  });

  it('answers classes of failure only', async () => {
    const none: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example via 10.0.0.53'), { code: 'ENOTFOUND' });
    };
    const missing = await sendOutbound('http://nowhere.example/', req, selfHosted(), none).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OutboundFailed);
    expect((missing as Error).message).toBe('name not found');
    // A receiver that never answers: "timed out".
    const silent = createServer(() => undefined);
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', () => ok()));
    try {
      const late = await sendOutbound(`http://127.0.0.1:${(silent.address() as { port: number }).port}/`, { ...req, timeoutMs: 300 }, selfHosted(['127.0.0.1'])).catch((e: unknown) => e);
      expect((late as Error).message).toBe('timed out');
    } finally {
      silent.closeAllConnections();
      await new Promise((ok) => silent.close(ok));
    }
    expect(failureClass(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe('connection reset');
    expect(failureClass(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }))).toBe('TLS failed');
    expect(failureClass(new Error('something internal at /srv/x'))).toBe('connection failed');
  });
});
