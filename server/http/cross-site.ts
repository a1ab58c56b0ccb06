// Cross-site request forgery defence. The spec's state-changing calls include GETs and the
// session cookie is SameSite=Lax (so a link from a chat or a mail into the console keeps the
// user signed in), so the cookie alone cannot tell the console's own calls from a link, a
// script navigation or a form on another site. Browsers say where a request comes from:
// Sec-Fetch-Site (all current browsers) and Origin (on every non-GET and on WebSockets).
// A state-changing request is refused when either names another site or origin; one with
// neither header comes from a non-browser client (curl, scripts) and carries no ambient
// credentials a third party could borrow, so it is let through.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Whether the call changes state, and so is refused when another site sends it. Every
     * GET route of /api and /cmd says so explicitly (a test checks); other methods are
     * state-changing unless they say false.
     */
    changesState?: boolean;
  }
}

const refusal = (why: string) =>
  `This call changes data and was refused because ${why}. Open Hopwatch in its own tab and do it there.`;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * Why a state-changing request must be refused, or undefined to let it through. `host` is
 * the Host header the browser used (so the appliance's own origin whatever name or address
 * it is reached by; a reverse proxy must pass the Host header on, see docs/deploy.md).
 */
export function crossSiteRefusal(headers: IncomingHttpHeaders): string | undefined {
  const site = first(headers['sec-fetch-site'])?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return refusal(`another web site sent it (Sec-Fetch-Site: ${site})`);
  const origin = first(headers.origin);
  if (origin === undefined) return undefined;
  const host = first(headers.host);
  let own: string | undefined;
  let from: URL | undefined;
  try {
    from = new URL(origin);
    // The Host header parsed with the origin's scheme, so default ports compare equal.
    if (host) own = new URL(`${from.protocol}//${host}`).host;
  } catch {
    // An opaque ("null") or malformed origin is not this appliance.
  }
  if (!from || !own || from.host !== own) return refusal(`another web site sent it (Origin: ${origin.slice(0, 200)})`);
  return undefined;
}

const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function changesState(request: FastifyRequest): boolean {
  return request.routeOptions.config?.changesState ?? !readOnlyMethods.has(request.method);
}

/** Refuses state-changing requests another site made, with 403 and an Error text. */
export function installCrossSiteRefusal(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!changesState(request)) return;
    const refused = crossSiteRefusal(request.headers);
    if (refused === undefined) return;
    request.log.warn(
      { origin: first(request.headers.origin)?.slice(0, 200), secFetchSite: first(request.headers['sec-fetch-site']), url: request.routeOptions.url },
      'cross-site request refused',
    );
    throw forbidden(refused);
  });
}
