// A client of another Hopwatch appliance's public REST API (spec 2 section 7), used by the
// remote-server packet type (ptTraceViaRemoteServer): this appliance signs in as a user of the
// other one, starts the trace there with /cmd/newtarget and reads its samples with
// /api/data/SamplesReport. Only calls the spec (or docs/api.md) defines; nothing private.
// The password is sent only in the sign-in body, never put in an error text or a log line.
// Every call goes out through server/http/outbound-address.ts, under the address policy webhooks
// obey: the address is a user's, so it must not reach this server's loopback services, the cloud
// metadata address or (hosted) the provider's private networks, nor tell what answers there.
import { loadConfig } from '../config.js';
import {
  AnswerTooLarge,
  exchangeOutbound,
  failureClass,
  OutboundFailed,
  outboundPolicy,
  OutboundRefused,
  refusalText,
  systemResolver,
  type OutboundAddressPolicy,
  type OutboundReply,
  type Resolver,
} from '../http/outbound-address.js';

export interface RemoteServerAccess {
  /** Base URL of the other appliance, http(s)://host[:port][/prefix]. */
  address: string;
  userName: string;
  password: string;
}

export type RemoteServerProblem = 'address' | 'unreachable' | 'credentials' | 'refused';

/** Why the other appliance could not be used, in words for a person; `problem` says which setting to look at. */
export class RemoteServerError extends Error {
  constructor(
    readonly problem: RemoteServerProblem,
    message: string,
  ) {
    super(message);
  }
}

/** One raw sample as SamplesReport answers it (docs/api.md "Data files and reports"). */
export interface RemoteSample {
  Time: string;
  Hop: number;
  IP: string;
  LatencyMs: number | null;
  Status: 'ok' | 'timeout' | 'not participating' | 'stop/start';
}

const TimeoutMs = 10_000;
/**
 * The largest answer read (answers are read whole): a SamplesReport may carry up to 1,000,000
 * samples, some 100 MB of JSON; past this the call fails instead of filling this server's memory.
 */
const MaxAnswerBytes = 128 * 1024 * 1024;

/**
 * The address policy of the running appliance: the same variables (HOPWATCH_DEPLOYMENT,
 * HOPWATCH_WEBHOOK_ALLOW) read by the same loadConfig as main.ts's, so webhooks and the remote
 * server obey one policy whichever caller makes the client.
 */
export function appliancePolicy(): OutboundAddressPolicy {
  return outboundPolicy(loadConfig(process.env));
}

/** The address as a base URL without a trailing slash, or an error text. */
export function parseRemoteAddress(address: string): URL | string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return 'must be an http:// or https:// address of another Hopwatch, e.g. https://hopwatch.example.net:8080';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must start with http:// or https://';
  if (url.username || url.password) return 'must not carry a user name or password (use the user name and password settings)';
  if (url.search || url.hash) return 'must not have a query or fragment';
  return url;
}

export class RemoteHopwatch {
  private cookie: string | undefined;
  readonly base: string;

  constructor(
    private readonly access: RemoteServerAccess,
    private readonly policy: OutboundAddressPolicy = appliancePolicy(),
    private readonly resolve: Resolver = systemResolver,
  ) {
    const url = parseRemoteAddress(access.address);
    if (typeof url === 'string') throw new RemoteServerError('address', `The remote server address ${url}.`);
    this.base = url.href.replace(/\/+$/, '');
  }

  /** What this client calls the other appliance in messages. */
  get name(): string {
    return `the remote Hopwatch at ${this.base}`;
  }

  /** One call, its answer read whole; redirects are not followed (one would resend the password elsewhere). */
  private async send(method: string, path: string, init: { body?: unknown; cookie?: boolean } = {}): Promise<OutboundReply> {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    try {
      return await exchangeOutbound(
        `${this.base}${path}`,
        {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
            ...(init.cookie !== false && this.cookie ? { cookie: this.cookie } : {}),
          },
          body,
          timeoutMs: TimeoutMs,
          maxBodyBytes: MaxAnswerBytes,
        },
        this.policy,
        this.resolve,
      );
    } catch (err) {
      if (err instanceof OutboundRefused) throw new RemoteServerError('address', `the ${refusalText('remote server address', err.host, err.why)}.`);
      // A class of failure only: a system error text would tell what runs where.
      const why = err instanceof OutboundFailed ? err.message : failureClass(err);
      if (why === AnswerTooLarge) throw new RemoteServerError('refused', `${this.name} answered ${path.split('?')[0]} with more than ${MaxAnswerBytes / 1024 / 1024} MB.`);
      throw new RemoteServerError('unreachable', `${this.name} cannot be reached (${why}). Check the address and that it answers over the network from this server.`);
    }
  }

  /** A JSON answer's value; an answer that is not JSON is the other side's fault, said as such. */
  private json(r: OutboundReply, path: string): unknown {
    try {
      return JSON.parse(r.body) as unknown;
    } catch {
      throw new RemoteServerError('refused', `${this.name} answered ${path.split('?')[0]} with something that is not JSON: is it a Hopwatch appliance?`);
    }
  }

  /** Signs in (POST /api/Account/Login); the session cookie is kept for the following calls. */
  async signIn(): Promise<void> {
    const r = await this.send('POST', '/api/Account/Login', { body: { Username: this.access.userName, Password: this.access.password, RememberMe: false }, cookie: false });
    if (r.status === 401 || r.status === 400) {
      throw new RemoteServerError('credentials', `${this.name} refused the user name or password (${r.status}).`);
    }
    if (r.status === 429) {
      throw new RemoteServerError('credentials', `${this.name} refused the sign-in for now: too many attempts (429). Try again later.`);
    }
    if (r.status >= 300 && r.status < 400) {
      throw new RemoteServerError('address', `${this.name} redirects to ${r.headers.location ?? 'another address'}: give that address instead.`);
    }
    const cookies = (r.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
    let user: unknown;
    try {
      user = JSON.parse(r.body);
    } catch {
      user = undefined;
    }
    if (r.status !== 200 || !cookies.length || !user || typeof user !== 'object') {
      throw new RemoteServerError('unreachable', `${this.name} answered the sign-in with ${r.status} and no Hopwatch session: is it a Hopwatch appliance?`);
    }
    this.cookie = cookies.join('; ');
  }

  async signOut(): Promise<void> {
    if (!this.cookie) return;
    try {
      await this.send('POST', '/api/Account/Logout');
    } catch {
      // Its session expires on its own.
    }
    this.cookie = undefined;
  }

  /** A call with the session; signs in again once when the session ended (401). */
  private async call<T>(method: string, path: string): Promise<T | undefined> {
    if (!this.cookie) await this.signIn();
    let r = await this.send(method, path);
    if (r.status === 401) {
      await this.signIn();
      r = await this.send(method, path);
    }
    const text = r.body;
    if (r.status !== 200 && r.status !== 204 && r.status !== 206) {
      let why = text.slice(0, 300);
      try {
        why = (JSON.parse(text) as { Error?: string }).Error ?? why;
      } catch {
        // not JSON: the text itself
      }
      throw new RemoteServerError('refused', `${this.name} refused ${path.split('?')[0]} (${r.status}): ${why}`);
    }
    return text ? (this.json(r, path) as T) : undefined;
  }

  /** GET /cmd/newtarget: starts the trace there; its target id. */
  async newTarget(target: string, intervalSeconds: number): Promise<number> {
    const q = new URLSearchParams({ target, traceInterval: String(intervalSeconds) });
    const r = await this.call<{ ID: number }>('GET', `/cmd/newtarget?${q}`);
    if (typeof r?.ID !== 'number') throw new RemoteServerError('refused', `${this.name} answered /cmd/newtarget without a target id.`);
    return r.ID;
  }

  /** GET /api/data/SamplesReport from `sinceMs` (inclusive), in time order. */
  async samples(id: number, sinceMs: number | null): Promise<RemoteSample[]> {
    const q = new URLSearchParams({ ID: String(id), Format: 'json' });
    if (sinceMs !== null) q.set('BeginTime', String(sinceMs));
    const r = await this.call<{ Samples: RemoteSample[] }>('GET', `/api/data/SamplesReport?${q}`);
    return r?.Samples ?? [];
  }

  async pause(id: number): Promise<void> {
    await this.call('GET', `/cmd/stoptrace?ID=${id}`);
  }

  async resume(id: number): Promise<void> {
    await this.call('GET', `/cmd/resumetrace?ID=${id}`);
  }

  async close(id: number): Promise<void> {
    await this.call('GET', `/cmd/close?ID=${id}`);
  }

  async setInterval(id: number, ms: number): Promise<void> {
    await this.call('GET', `/cmd/updateTraceInterval?webId=${id}&traceIntervalInMS=${ms}`);
  }

  /** /cmd/finalHop toggles final-hop-only. */
  async toggleFinalHop(id: number): Promise<void> {
    await this.call('GET', `/cmd/finalHop?Ids=${id}`);
  }
}

/** Signs in and out: throws a RemoteServerError saying what is wrong, or resolves when the access works. */
export async function checkRemoteServer(access: RemoteServerAccess, policy?: OutboundAddressPolicy): Promise<void> {
  const remote = new RemoteHopwatch(access, policy);
  await remote.signIn();
  await remote.signOut();
}
