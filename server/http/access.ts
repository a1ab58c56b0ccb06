// Who may make a call is data on the call's definition (a route's `config.access`, a hub
// method's `access`), read by one check for REST (installAccessCheck), one for the hub
// (mainhub/access.ts) and by the authorization matrix test and docs/authorization.md. So a
// new call without a declaration fails at registration, and the table, the check and the
// test cannot disagree. Services keep their own claim checks where they guard data
// (defence in depth); the declaration is what a caller is promised.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { Claim, DeploymentMode, LicenseModeName, TemporaryPasswordHeader, TemporaryPasswordText, type LicenseMode } from '../contract/account.js';
import type { Config } from '../config.js';
import { mustReplacePassword, type Principal } from '../account/principal.js';
import { requireClaim, requireLicense, requireUser } from '../account/authenticate.js';
import { forbidden, type HttpError } from './errors.js';

/**
 * - 'public': anyone, signed in or not (sign-in, health, the console's files).
 * - 'signedIn': any signed-in user of the account.
 * - 'passwordChange': any signed-in user, also one who must first replace a temporary
 *   password: the calls the change-password screen needs (every other call refuses them,
 *   mustReplacePassword in server/account/principal.ts).
 * - 'hubConnection': the hub's own requests (negotiate, polls, WebSocket): the hub signs
 *   them in itself (a bearer token too in the cloud flavour) and checks each method.
 * - { claim, licence }: a signed-in user holding the claim, on a server with the licence.
 *   `note` says what the service checks beyond it for some inputs (shown in the docs table).
 * - `visitor: true`: LiveShare visitors may call it too (read-only calls whose service keeps
 *   them to their link's targets); every other call refuses them with 403.
 * - `root`: only the root user (who holds every claim), whatever claims others hold.
 * - 'passwordChange' (or `passwordChange: true` with other conditions): a user who must first
 *   replace a temporary password may make it too; every other call refuses them.
 * - `appliance: true`: the operator's call, about the whole appliance rather than an account
 *   (mail server, disk use). Self-hosted the operator's users make it like any other call; in
 *   the hosted flavour (HOPWATCH_DEPLOYMENT=1) only the provider may (Principal.provider: the
 *   root user or a user of the provider account), and a staff user's Staff claim stands for
 *   the call's claim, which is a customer account's role that staff do not hold. Customers'
 *   users hear ApplianceRefusal, whatever claims they hold (issue 39).
 */
export type Access =
  | 'public'
  | 'signedIn'
  | 'passwordChange'
  | 'hubConnection'
  | { claim?: Claim; licence?: LicenseMode; root?: boolean; note?: string; visitor?: boolean; passwordChange?: boolean; appliance?: boolean };

/** Signed in, LiveShare visitors too (a read-only call that keeps visitors to their link). */
export const SignedInOrVisitor: Access = { visitor: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route (required on every route; see server/http/access.ts). */
    access?: Access;
  }
}

export const needsClaim = (a: Access): Claim | undefined => (typeof a === 'object' ? a.claim : undefined);
export const needsLicence = (a: Access): LicenseMode | undefined => (typeof a === 'object' ? a.licence : undefined);
export const needsSignIn = (a: Access): boolean => a !== 'public';
export const allowsVisitor = (a: Access): boolean => a === 'public' || a === 'hubConnection' || (typeof a === 'object' && a.visitor === true);

/** What a LiveShare visitor hears from a call it may not make (starts like every hub refusal). */
export const VisitorRefusal = 'This needs the sign-in of a user: a LiveShare link only shows its targets.';
export const needsRoot = (a: Access): boolean => typeof a === 'object' && a.root === true;
/** Whether the call concerns the whole appliance (the provider's alone in the hosted flavour). */
export const isApplianceWide = (a: Access): boolean => typeof a === 'object' && a.appliance === true;

/** What a customer of the hosted flavour hears from an appliance-wide call (starts like every hub refusal). */
export const ApplianceRefusal =
  'This needs the provider of this Hopwatch Cloud: settings of the whole appliance (mail server, disk use) are kept by your provider, not by an account. Contact your provider to change them.';
/** Whether a signed-in user who must replace a temporary password may make the call. */
export const allowsTemporaryPassword = (a: Access): boolean => a === 'public' || a === 'passwordChange' || (typeof a === 'object' && a.passwordChange === true);

export function temporaryPasswordRefusal(): HttpError {
  return forbidden(TemporaryPasswordText, { [TemporaryPasswordHeader]: 'True' });
}

/** The refusal for a signed-in principal, or undefined when the declaration lets it through. */
export function refusalFor(access: Access, p: Principal, config: Config): HttpError | undefined {
  try {
    if (p.liveShare && !allowsVisitor(access)) throw forbidden(VisitorRefusal);
    if (!allowsTemporaryPassword(access) && mustReplacePassword(p)) return temporaryPasswordRefusal();
    if (needsRoot(access) && !p.isRoot) return forbidden('Only the root user can make this call.');
    const hostedAppliance = isApplianceWide(access) && config.deployment === DeploymentMode.Cloud;
    if (hostedAppliance && !p.provider) return forbidden(ApplianceRefusal);
    const licence = needsLicence(access);
    if (licence !== undefined) requireLicense(config, licence, p);
    const claim = needsClaim(access);
    if (claim && !(hostedAppliance && p.claims.includes(Claim.Staff))) requireClaim(p, claim);
    return undefined;
  } catch (err) {
    return err as HttpError;
  }
}

/** Words for the docs table: "signed in", "TargetManagement, Professional licence"... */
export function describeAccess(a: Access): string {
  if (a === 'public') return 'anyone';
  if (a === 'signedIn') return 'signed in';
  if (a === 'passwordChange') return 'signed in, also with a temporary password';
  if (a === 'hubConnection') return 'signed in (checked by the hub)';
  const parts = [
    a.root ? 'root user' : undefined,
    a.claim,
    a.licence !== undefined ? `${LicenseModeName[a.licence]} licence` : undefined,
    a.visitor ? 'LiveShare visitors too' : undefined,
    a.passwordChange ? 'also with a temporary password' : undefined,
    a.appliance ? 'appliance-wide: in the hosted flavour only the provider (staff, root)' : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'signed in';
}

const accessOfRoute = (route: Pick<RouteOptions, 'config'>): Access | undefined => (route.config as { access?: Access } | undefined)?.access;

/**
 * Refuses to register a route that does not say who may call it, and checks every request
 * against the route's declaration once the principal is known (install after the hook that
 * resolves it).
 */
export function installAccessCheck(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    // The console's files (@fastify/static marks its routes with config.file) are public:
    // the sign-in page needs them; source maps are checked in webPlugin.
    if ((route.config as { file?: string } | undefined)?.file !== undefined && accessOfRoute(route) === undefined) {
      route.config = { ...route.config, access: 'public' };
    }
    if (accessOfRoute(route) === undefined) {
      throw new Error(`Route ${[route.method].flat().join(',')} ${route.url} declares no access (config.access, server/http/access.ts).`);
    }
  });
  // Before validation, so a caller without the right learns nothing from the input checks.
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const access = request.routeOptions.config?.access;
    if (access === undefined) {
      // The not-found handler is no route; anything else without a declaration is refused.
      if (request.is404) return;
      throw forbidden('This call declares no access and is refused.');
    }
    if (access === 'public' || access === 'hubConnection') return;
    const p = requireUser(request);
    const refused = refusalFor(access, p, request.server.config);
    if (refused) throw refused;
  });
}
