// What the built server registers, read in-process: every route (method, url, schema,
// config) from buildApp's route catalog, and every /mainHub method with its argument
// schemas. Suites that must cover every call (fuzz, OpenAPI) walk these, so a new call is
// covered without being listed. Loaded from dist/ (its workers and WASM kernels are found
// from there, as in the appliance); `npm test` builds first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RouteOptions } from 'fastify';
import type { ArgSpec } from '../../server/hub/index.js';
import type { MainHubDeps } from '../../server/mainhub/methods.js';
import type { Access } from '../../server/http/access.js';
import { openTestStore } from '../../server/store/testing/test-store.js';

const built = resolve(import.meta.dirname, '../../dist/server');
export const loadBuilt = <T>(path: string): Promise<T> => import(join(built, path)) as Promise<T>;

export interface Catalog {
  routes: RouteOptions[];
  hubMethods: [name: string, args: readonly ArgSpec[]][];
  /** Each hub method's declared access (server/http/access.ts). */
  hubAccess: Record<string, Access>;
}

export async function readCatalog(): Promise<Catalog> {
  const { buildApp } = await loadBuilt<typeof import('../../server/app.js')>('app.js');
  const { loadConfig } = await loadBuilt<typeof import('../../server/config.js')>('config.js');
  const { Store } = await loadBuilt<typeof import('../../server/store/db.js')>('store/db.js');
  const { createMainHub } = await loadBuilt<typeof import('../../server/mainhub/methods.js')>('mainhub/methods.js');
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-catalog-'));
  const store = await openTestStore(dir);
  let routes: RouteOptions[];
  try {
    const config = loadConfig({ HOPWATCH_DATA_DIR: dir, HOPWATCH_PORT: '0' }, resolve(built, '../web'));
    const app = await buildApp({ config, store, version: 'catalog', logger: false });
    routes = [...app.routeCatalog];
    await app.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  // Only the definitions are read: no handler runs on this hub.
  const hub = createMainHub({ currentPrincipal: async () => null } as unknown as MainHubDeps);
  const hubMethods = Object.entries(hub.definition.methods).map(
    ([name, m]) => [name, Array.isArray(m.args) ? (m.args as ArgSpec[]) : []] as [string, readonly ArgSpec[]],
  );
  const hubAccess = Object.fromEntries(Object.entries(hub.definition.methods).map(([name, m]) => [name, m.access as Access]));
  return { routes, hubMethods, hubAccess };
}
