// The console's routes as its router has them (web/src/shell/routes.tsx, imported at run
// time so that a new route is walked by the suites that use this without touching them), and
// the concrete addresses to open for each.
import { resolve } from 'node:path';

interface RouteLike {
  path?: string;
  children?: RouteLike[];
}

/** Every path of the console's router, read from the router itself. */
export async function routerPaths(): Promise<string[]> {
  const module = resolve(import.meta.dirname, '../../web/src/shell/routes.tsx');
  const { routes } = (await import(module)) as { routes: RouteLike[] };
  const walk = (rs: RouteLike[]): string[] => rs.flatMap((r) => [...(r.path ? [r.path] : []), ...walk(r.children ?? [])]);
  return walk(routes);
}

/** The concrete addresses of a path: each optional parameter with and without its value. */
export function addressesOf(path: string, values: Record<string, string>): string[] {
  if (path === '*') return ['/no-such-page'];
  let out = [''];
  for (const part of path.split('/').slice(1)) {
    const optional = part.endsWith('?');
    const name = part.replace(/^:/, '').replace(/\?$/, '');
    if (!part.startsWith(':')) {
      out = out.map((a) => `${a}/${part}`);
      continue;
    }
    const value = values[name];
    if (value === undefined) throw new Error(`No value for the parameter ":${name}" of the route ${path}: add one to the suite's values.`);
    out = optional ? out.flatMap((a) => [a, `${a}/${value}`]) : out.map((a) => `${a}/${value}`);
  }
  return out.map((a) => a || '/');
}

/** Routes that end the session: visited last, in a context of their own. */
export const SignsOut = new Set(['/logout', '/cancel-liveshare']);
/** Routes for someone signed out (or a LiveShare visitor): a fresh context. */
export const SignedOutRoutes = new Set(['/login/:expired?', '/activate', '/LiveShare/:liveShareId/:liveSharePw', '/InvalidLiveshare']);

