// Headers on every answer that tell the browser what the console may do: load its own
// scripts only (no inline script, no eval), never be framed by another page (clickjacking),
// never guess content types, send no Referer to other sites, and keep no copy of an API
// answer (they carry account data) in any cache. See docs/security.md.
import type { FastifyInstance } from 'fastify';
import { isApiPath, pathOfUrl } from './api-paths.js';

export const ContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  // React, the grid and the graphs set element styles; inline styles cannot run code.
  "style-src 'self' 'unsafe-inline'",
  // The favicon is a data: URL; graphs export to blob: images.
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // 'self' covers the hub's ws:/wss: to the same host.
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const everyAnswer: Record<string, string> = {
  'content-security-policy': ContentSecurityPolicy,
  // For browsers that predate frame-ancestors.
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The security headers of an answer to the URL. */
export function securityHeadersFor(url: string): Record<string, string> {
  return isApiPath(pathOfUrl(url)) ? { ...everyAnswer, 'cache-control': 'no-store' } : everyAnswer;
}

export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(securityHeadersFor(request.url));
    return payload;
  });
}
