// Which paths are calls (answered by routes, never by the console's files or its SPA fallback).
const apiPrefixes = ['/api/', '/cmd/', '/mainHub', '/healthz', '/readyz'];

export function pathOfUrl(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

export function isApiPath(path: string): boolean {
  return apiPrefixes.some((p) => path === p.replace(/\/$/, '') || path.startsWith(p));
}
