// The one reader of `Authorization: <scheme> <credentials>` (RFC 9110 section 11.1): the
// scheme is case-insensitive ("bearer", "BEARER" and "Bearer" are the same; /metrics used to
// refuse the lower-case one, issue 39 item 14), separated from the credentials by one or
// more spaces. Every door that reads a bearer token uses it.

/** The credentials of an Authorization header of `scheme`, or undefined (absent, other scheme, empty). */
export function authorizationCredentials(header: string | string[] | undefined, scheme: string): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S(?:.*\S)?) *$/.exec(header);
  if (!m || m[1].toLowerCase() !== scheme.toLowerCase()) return undefined;
  return m[2];
}

/** A bearer token (`Authorization: Bearer <token>`, any case of the scheme). */
export const bearerCredentials = (header: string | string[] | undefined): string | undefined => authorizationCredentials(header, 'Bearer');
