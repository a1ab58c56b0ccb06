// Request URLs carry secrets in some calls of the spec (PATCH /api/Account?newPassword=...,
// /login?u&p, access_token for the hub): mask those query values before anything is logged.
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

/** The LiveShare viewer path carries a link's password as its last segment (LiveShare/{id}/{pw}). */
const liveSharePath = /^(\/liveshare\/[^/?#]+\/)[^?#]+/i;

export function redactUrl(rawUrl: string): string {
  const url = rawUrl.replace(liveSharePath, '$1***');
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeLeniently(eq < 0 ? pair : pair.slice(0, eq));
      return eq >= 0 && secretKey.test(key) ? `${pair.slice(0, eq)}=***` : pair;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
}

export const requestSerializer = (req: LoggedRequest) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip });
