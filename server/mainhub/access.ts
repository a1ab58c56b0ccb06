// The /mainHub side of declared access (server/http/access.ts): every method says who may
// call it, a hub without a declaration for some method is refused at creation, and each
// invocation is checked against the declaration with the caller's current claims.
import type { Config } from '../config.js';
import type { Principal } from '../account/principal.js';
import type { HubMethod } from '../hub/index.js';
import { refusalFor, type Access } from '../http/access.js';

/** The declaration of a hub method (every /mainHub method has one: see requireDeclaredAccess). */
export const accessOfMethod = (m: HubMethod<Principal>): Access => m.access as Access;

/** Throws naming the methods without a declaration. */
export function requireDeclaredAccess(methods: Readonly<Record<string, HubMethod<Principal>>>): void {
  const missing = Object.entries(methods)
    .filter(([, m]) => m.access === undefined)
    .map(([name]) => name);
  if (missing.length) throw new Error(`Hub methods without declared access: ${missing.join(', ')} (server/mainhub/access.ts).`);
}

/**
 * The hub definition's authorize hook. Connections are signed in (the hub refuses anonymous
 * negotiation), so a 'public' or 'signedIn' method needs nothing more here.
 */
export const authorizeInvocation =
  (config: Config) =>
  (p: Principal, method: HubMethod<Principal>): void => {
    const refused = refusalFor(accessOfMethod(method), p, config);
    if (refused) throw refused;
  };
