// Request authentication shared by REST routes and hub connections.
import type { FastifyRequest } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
import { ExpiredTrialHeader, LicenseMode, LicenseModeName } from '../contract/account.js';
import type { Config } from '../config.js';
import { forbidden, unauthorized, type HttpError } from '../http/errors.js';
import { bearerCredentials } from '../http/authorization.js';
import type { Store } from '../store/db.js';
import type { DomainEventBus } from '../events.js';
import type { IngestPipeline } from '../ingest/pipeline.js';
import type { TraceRunner } from '../targets/trace-runner.js';
import { signedInSession } from '../impersonation/resolve.js';
import { hashToken, renewLoginSession, SessionCookie } from './login-sessions.js';
import type { Principal } from './principal.js';

export function sessionTokenFrom(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  return fastifyCookie.parse(cookieHeader)[SessionCookie] || undefined;
}

export async function principalFromCookie(store: Store, cookieHeader: string | undefined): Promise<Principal | undefined> {
  return principalFromToken(store, sessionTokenFrom(cookieHeader));
}

/**
 * The bearer token of the cloud flavour's hub connections: the same login-session token,
 * sent as `Authorization: Bearer` or as the `access_token` query value the SignalR client
 * uses for WebSockets.
 */
export function bearerTokenFrom(headers: { authorization?: string }, url: string | undefined): string | undefined {
  const auth = bearerCredentials(headers.authorization);
  if (auth) return auth;
  const q = url?.indexOf('?') ?? -1;
  if (!url || q < 0) return undefined;
  return new URLSearchParams(url.slice(q + 1)).get('access_token') || undefined;
}

export async function principalFromToken(store: Store, token: string | undefined): Promise<Principal | undefined> {
  if (!token) return undefined;
  return coalescedRead(store, token, async () => {
    // Every request passes here: a committed read, so it does not queue behind ingest flushes
    // in the writer's queue; only the rare renewal of a browser session writes. Before the
    // consoles' bulk reads: under overload the request is still answered (db.ts ReadPool).
    const found = await store.read((q) => signedInSession(q, hashToken(token)), { priority: 'sign-in' });
    if (!found) return undefined;
    if (found.session.renew) await store.exclusive((q) => renewLoginSession(q, token));
    return found.principal;
  });
}

interface TokenReads {
  running?: Promise<Principal | undefined>;
  next?: Promise<Principal | undefined>;
}
const tokenReads = new WeakMap<Store, Map<string, TokenReads>>();

/**
 * One browser's requests arriving together (5,000 consoles reading the user after a restart
 * are a few browsers' cookies, docs/hub.md "5,000 consoles") do not each read the session:
 * those that arrive while a read of the token runs wait for it to end, then share one read
 * begun after all of them arrived. So every answer still comes from a read that started after
 * its request did (a sign-out or a role change committed before a request is always seen by
 * it, as with a read per request), and a burst costs two reads, not one per request.
 */
function coalescedRead(store: Store, token: string, read: () => Promise<Principal | undefined>): Promise<Principal | undefined> {
  let byToken = tokenReads.get(store);
  if (!byToken) tokenReads.set(store, (byToken = new Map()));
  let reads = byToken.get(token);
  if (!reads) byToken.set(token, (reads = {}));
  const r = reads;
  const map = byToken;
  const start = () => {
    const p = read();
    r.running = p;
    const done = () => {
      if (r.running !== p) return;
      r.running = undefined;
      if (!r.next && map.get(token) === r) map.delete(token);
    };
    p.then(done, done);
    return p;
  };
  if (!r.running) return start();
  r.next ??= r.running
    .then(
      () => undefined,
      () => undefined,
    )
    .then(() => {
      r.next = undefined;
      return start();
    });
  return r.next;
}

export function trialExpired(config: Config, now = new Date()): boolean {
  return config.trialExpires !== undefined && config.trialExpires <= now;
}

export function expiredTrialError() {
  return forbidden('Your trial has expired. Purchase a licence or switch to the free version.', { [ExpiredTrialHeader]: 'True' });
}

/** The signed-in principal of a request, or a 401/403 HttpError. */
export function requireUser(request: FastifyRequest): Principal {
  const p = request.principal;
  if (!p) throw request.liveShareRefusal ?? unauthorized();
  if (trialExpired(request.server.config)) throw expiredTrialError();
  return p;
}

export function requireClaim(p: Principal, claim: string): void {
  if (!p.claims.includes(claim)) throw forbidden(`This needs the ${claim} permission.`);
}

/**
 * Whether the server's licence covers a call that needs `mode`, for this caller. It is the
 * server's licence, with one exception decided here only (docs/sidekick.md, "Export links"):
 * on a Sidekick-licence server, a LiveShare visitor whose link shares the Sidekick summary
 * (the Sidekick's own export links) has the Professional licence's LiveShare viewer. Which
 * calls a visitor may make at all is still the declaration's `visitor` flag.
 */
export function licenceCovers(config: Pick<Config, 'licenseMode'>, mode: LicenseMode, p?: Pick<Principal, 'liveShare'>): boolean {
  if (config.licenseMode === mode) return true;
  return mode === LicenseMode.Professional && config.licenseMode === LicenseMode.Sidekick && p?.liveShare?.sidekick === true;
}

export function requireLicense(config: Pick<Config, 'licenseMode'>, mode: LicenseMode, p?: Pick<Principal, 'liveShare'>): void {
  if (!licenceCovers(config, mode, p)) throw forbidden(`This needs the ${LicenseModeName[mode]} licence.`);
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | undefined;
    /** Why a LiveShare visitor's cookie was refused (429 after too many wrong links), if it was. */
    liveShareRefusal: HttpError | undefined;
  }
  interface FastifyInstance {
    config: Config;
    store: Store;
    events: DomainEventBus;
    traces: { ingest: IngestPipeline; runner: TraceRunner };
  }
}
