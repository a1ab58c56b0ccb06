// Request URLs carry secrets in some calls of the spec (PATCH /api/Account?newPassword=...,
// /login?u&p, access_token and the connection token `id` of the hub, a LiveShare link's
// password in the viewer path): mask those before anything is logged.
// This runs for every request, before any validation, on text an anonymous client chose:
// nothing here may throw (a throw in a log serializer ends the process).

const secretKey = /pass|pw$|^p$|token|key|secret/i;

/** decodeURIComponent that keeps malformed escapes ("%zz", "%") as they are instead of throwing. */
export function decodeLeniently(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Percent-escapes decoded where they are well-formed, the rest kept; `+` stays (a path's). */
function decodePathLeniently(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * A path as a router may end up reading it: escapes decoded (again while a decode changes
 * something: "%254C" is one proxy's decode away from "L"), backslashes read as slashes (as
 * browsers do), runs of slashes folded, "." and ".." segments resolved. Looser than any one
 * router on purpose: a mask that fires on a spelling no router serves costs nothing, one that
 * misses a spelling some router serves leaks a password.
 */
export function normalisedPath(path: string): string {
  let decoded = path;
  for (let i = 0; i < 4; i++) {
    const next = decodePathLeniently(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  const segments: string[] = [];
  for (const segment of decoded.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** The LiveShare viewer path carries a link's password after its id (LiveShare/{id}/{pw}). */
const liveSharePath = /^\/(liveshare)\/([^/]+)\/./i;
/** Hub paths, where `id` is a connection token (server/hub/plugin.ts): it names someone's live connection. */
const hubPath = /^\/mainhub$/i;

export function redactUrl(rawUrl: string): string {
  // The query starts at the first "?" as sent: routers split there before decoding.
  const q = rawUrl.indexOf('?');
  let path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const normalised = normalisedPath(path);
  const viewer = liveSharePath.exec(normalised);
  // The masked path is written as the router reads it (the raw one might spell the password
  // in a way a mask of the raw text would miss).
  if (viewer) path = `/${viewer[1]}/${viewer[2]}/***`;
  if (q < 0) return path;
  const isHub = hubPath.test(normalised);
  const params = rawUrl
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeLeniently(eq < 0 ? pair : pair.slice(0, eq));
      const secret = secretKey.test(key) || (isHub && key.toLowerCase() === 'id');
      return eq >= 0 && secret ? `${pair.slice(0, eq)}=***` : pair;
    });
  return `${path}?${params.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
}

export const requestSerializer = (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip });
