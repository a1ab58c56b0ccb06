// Where the appliance may send a request whose address a user typed (an alert's webhook and its
// "Send test", the remote-server packet type's other Hopwatch): the one address policy of
// docs/security.md, and the one way such a request is sent. A user who may write a webhook must not make the appliance call its own loopback
// services, the cloud metadata address or (in the hosted flavour) the provider's private
// networks, nor learn what answers there.
//
// The name is resolved once, every resolved address is checked, and the socket connects to the
// addresses that were checked (http.request's `lookup` hook): a DNS answer that changes between
// a check and the connect (rebinding) cannot slip another address in. An address written in the
// URL itself (any spelling: the URL parser turns 2130706433 and 0x7f.1 into 127.0.0.1) is
// checked before the request is made, as Node connects to it without a lookup.
import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, STATUS_CODES, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { DeploymentMode } from '../contract/account.js';

/** Why an address is refused (the words the refusal and the Send test answer use). */
export type RefusedClass = 'loopback' | 'link-local' | 'unspecified' | 'multicast' | 'broadcast' | 'reserved' | "this appliance's own address" | 'private';

type Family = 'ipv4' | 'ipv6';

/** Refused whatever the flavour (unless HOPWATCH_WEBHOOK_ALLOW lists them), in this order. */
const alwaysRefused: readonly (readonly [RefusedClass, string, number, Family])[] = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'], // "this network": 0.0.0.0 reaches the appliance itself on Linux
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'], // the cloud metadata service lives at 169.254.169.254
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

/** Private networks: allowed self-hosted (a LAN's ntfy or Gotify), refused in the hosted flavour. */
const privateRanges: readonly (readonly [string, number, Family])[] = [
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['fc00::', 7, 'ipv6'], // unique local
  ['fec0::', 10, 'ipv6'], // the old site-local
];

function listOf(ranges: readonly (readonly [string, number, Family])[]): BlockList {
  const list = new BlockList();
  for (const [net, bits, family] of ranges) list.addSubnet(net, bits, family);
  return list;
}

const refusedLists = alwaysRefused.map(([why, net, bits, family]) => [why, listOf([[net, bits, family]])] as const);
const privateList = listOf(privateRanges);

/** An IPv6 address as its eight 16-bit groups (zone index dropped), or undefined. */
function groupsOf(ip6: string): number[] | undefined {
  let text = ip6.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const b = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  const groups = tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/**
 * The IPv4 address an IPv6 address carries and that a connection to it may reach: IPv4-mapped
 * (::ffff:a.b.c.d, which a dual-stack socket connects to a.b.c.d), IPv4-compatible (::a.b.c.d),
 * SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
export function embeddedIPv4(ip6: string): string | undefined {
  const g = groupsOf(ip6);
  if (!g) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g[0] === 0x2002) return v4(g[1], g[2]);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6], g[7]);
  if (zeros(5) && (g[5] === 0xffff || g[5] === 0)) return g[5] === 0 && g[6] === 0 ? undefined : v4(g[6], g[7]); // :: and ::1 are themselves
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return v4(g[6], g[7]);
  return undefined;
}

export interface OutboundAddressPolicy {
  /** HOPWATCH_WEBHOOK_ALLOW: ranges an operator opened, checked before anything is refused. */
  allow: BlockList;
  /** The hosted flavour: the provider's private networks are not its customers' to call. */
  refusePrivate: boolean;
  /** The appliance's own interface addresses (read at each check: interfaces come and go). */
  ownAddresses: () => string[];
}

/** "10.0.0.0/8, ::1/128, 192.168.1.5" (a bare address is one host) -> a BlockList; throws on a malformed entry. */
export function addressRanges(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [net, bits, extra] = entry.split('/');
    const family = isIP(net ?? '');
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new Error(`"${entry}" is not an address or CIDR range (e.g. 10.0.0.0/8, fd00::/8)`);
    }
    list.addSubnet(net, bits === undefined ? max : Number(bits), family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.replace(/%.*$/, '')));
}

export function outboundPolicy(config: { deployment: DeploymentMode; webhookAllow: readonly string[] }, ownAddresses: () => string[] = interfaceAddresses): OutboundAddressPolicy {
  return { allow: addressRanges(config.webhookAllow), refusePrivate: config.deployment === DeploymentMode.Cloud, ownAddresses };
}

const familyOf = (ip: string): Family => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** Why an address (an IP literal) is refused under a policy; undefined: it may be called. */
export function refusalOf(address: string, policy: OutboundAddressPolicy): RefusedClass | undefined {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(ip)) return 'reserved';
  const inner = isIP(ip) === 6 ? embeddedIPv4(ip) : undefined;
  const forms = inner ? [ip, inner] : [ip];
  if (forms.some((f) => policy.allow.check(f, familyOf(f)))) return undefined;
  for (const f of forms) {
    for (const [why, list] of refusedLists) if (list.check(f, familyOf(f))) return why;
  }
  const own = new BlockList();
  for (const a of policy.ownAddresses()) if (isIP(a)) own.addAddress(a, familyOf(a));
  for (const f of forms) if (own.check(f, familyOf(f))) return "this appliance's own address";
  if (policy.refusePrivate && forms.some((f) => privateList.check(f, familyOf(f)))) return 'private';
  return undefined;
}

/** How a refusal is said, `what` being the setting's words ("webhook address", "remote server address"). */
export function refusalText(what: string, host: string, why: RefusedClass): string {
  return `${what} ${host} is refused: ${why}; set HOPWATCH_WEBHOOK_ALLOW to allow it`;
}

/** The request was not sent: its address is refused (the host as the URL wrote it, and why). */
export class OutboundRefused extends Error {
  constructor(
    readonly host: string,
    readonly why: RefusedClass,
  ) {
    super(refusalText('webhook address', host, why));
  }
}

/**
 * The request failed: the message is only a class of failure ("connection refused", "timed
 * out", "name not found"...), never a system error text, which could tell what runs where.
 */
export class OutboundFailed extends Error {}

/** Resolves a host name to every address it has (the system resolver unless a test injects one). */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((ok, fail) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? fail(err) : ok(addresses))));

/** A `lookup` for http.request that answers only addresses the policy allows, all of them checked. */
export function checkedLookup(policy: OutboundAddressPolicy, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const wanted = found.filter((a) => !options.family || a.family === options.family);
        if (!wanted.length) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
        for (const a of found) {
          const why = refusalOf(a.address, policy);
          if (why) throw new OutboundRefused(hostname, why);
        }
        // The socket connects to exactly these: nothing is resolved again after the check.
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
    ).catch((err: NodeJS.ErrnoException) => callback(err, '', 0));
  };
}

/** A system error as a class of failure a user may see. */
export function failureClass(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { name?: string };
  const code = String(e?.code ?? '');
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || code === 'ABORT_ERR' || code === 'ETIMEDOUT') return 'timed out';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_NODATA' || code === 'EAI_FAIL') return 'name not found';
  if (code === 'EAI_AGAIN') return 'name not resolved (DNS unavailable)';
  if (code === 'ECONNRESET' || code === 'EPIPE' || e?.message === 'socket hang up') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return 'address unreachable';
  if (code.startsWith('HPE_')) return 'not an HTTP answer';
  if (/CERT|TLS|SSL/.test(code)) return 'TLS failed';
  return 'connection failed';
}

export interface OutboundRequest {
  method: string;
  headers: OutgoingHttpHeaders;
  body?: string;
  timeoutMs: number;
}

/** What is kept of an answer: its status and the standard reason phrase (not the sender's, nor any body). */
export interface OutboundAnswer {
  status: number;
  reason: string;
}

/**
 * Opens one request to a URL a user gave, under the policy, and hands its response to
 * `answered`; every failure reaches `failed` as OutboundRefused (nothing was sent) or
 * OutboundFailed (a class of failure). Redirects are not followed.
 */
function openOutbound(
  url: string,
  req: OutboundRequest,
  policy: OutboundAddressPolicy,
  resolve: Resolver,
  answered: (res: IncomingMessage, request: ClientRequest, timeout: AbortSignal) => void,
  failed: (err: OutboundRefused | OutboundFailed) => void,
): void {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return failed(new OutboundFailed('not an http or https URL'));
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const why = refusalOf(host, policy);
    if (why) return failed(new OutboundRefused(host, why));
  }
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const r = send(u, {
    method: req.method,
    headers: req.headers,
    lookup: checkedLookup(policy, resolve),
    // A fresh connection each time, closed after: no pooled socket outlives its check.
    agent: false,
    signal: timeout,
  });
  r.on('response', (res) => answered(res, r, timeout));
  r.on('error', (err) => failed(err instanceof OutboundRefused ? err : new OutboundFailed(failureClass(err))));
  r.end(req.body);
}

/**
 * Sends one request to a URL a user gave, under the policy. Redirects are not followed. The
 * answer's body is not read at all: the response is destroyed once its status line and
 * headers are in, so a receiver streaming without end costs nothing.
 * Throws OutboundRefused (nothing was sent) or OutboundFailed (a class of failure).
 */
export function sendOutbound(url: string, req: OutboundRequest, policy: OutboundAddressPolicy, resolve: Resolver = systemResolver): Promise<OutboundAnswer> {
  return new Promise<OutboundAnswer>((ok, fail) =>
    openOutbound(url, req, policy, resolve, (res, r) => {
      ok({ status: res.statusCode ?? 0, reason: STATUS_CODES[res.statusCode ?? 0] ?? '' });
      res.destroy();
      r.destroy();
    }, fail),
  );
}

/** exchangeOutbound's failure when an answer is longer than the caller reads. */
export const AnswerTooLarge = 'answer too large';

/** An answer read whole: its status, headers and body (UTF-8 text). */
export interface OutboundReply extends OutboundAnswer {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one request and reads its answer whole, for a client that needs the body (the
 * remote-server packet type reads another Hopwatch's JSON). The body is bounded: past
 * `maxBodyBytes` the connection is closed and the call fails "answer too large", so a server
 * that streams without end cannot fill this one's memory; the timeout covers the body too.
 * Throws OutboundRefused (nothing was sent) or OutboundFailed (a class of failure).
 */
export function exchangeOutbound(url: string, req: OutboundRequest & { maxBodyBytes: number }, policy: OutboundAddressPolicy, resolve: Resolver = systemResolver): Promise<OutboundReply> {
  return new Promise<OutboundReply>((ok, fail) =>
    openOutbound(url, req, policy, resolve, (res, r, timeout) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const stop = (err: OutboundFailed) => {
        if (done) return;
        done = true;
        r.destroy();
        fail(err);
      };
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > req.maxBodyBytes) return stop(new OutboundFailed(AnswerTooLarge));
        chunks.push(chunk);
      });
      res.on('end', () => {
        if (done) return;
        done = true;
        const status = res.statusCode ?? 0;
        ok({ status, reason: STATUS_CODES[status] ?? '', headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      // The connection lost, or the timeout, while the body was coming.
      const lost = (err?: unknown) => stop(new OutboundFailed(timeout.aborted ? 'timed out' : err ? failureClass(err) : 'connection reset'));
      res.on('error', lost);
      res.on('close', () => (res.complete ? undefined : lost()));
    }, fail),
  );
}
