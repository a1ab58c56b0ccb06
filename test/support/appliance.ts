// Starts the built appliance (dist/server/main.js) as a child process on a free port with a
// temporary data directory, for API, hub and browser suites. `npm test` builds first.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { get as httpsGet } from 'node:https';
import { ServerMallocEnv, ServerNodeFlags } from '../../server/node-flags.js';
import { testDatabaseUrl, testStore } from '../../server/store/testing/test-store.js';
import { freePort } from './postgres.js';

export interface Appliance {
  url: string;
  port: number;
  dataDir: string;
  /** Temporary root password the server printed at first start (undefined when it was given). */
  rootPassword?: string;
  output: () => string;
  /** SIGTERM and wait for exit; resolves with the exit code and the time it took. */
  stop: () => Promise<{ code: number | null; ms: number }>;
  /** SIGKILL (a replica that dies without a word) and wait for exit. */
  kill: () => Promise<void>;
  /** Stop, then start again on the same data directory and port. */
  restart: () => Promise<Appliance>;
  /** Stop and delete the data directory. */
  dispose: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  port?: number;
  /** The server speaks TLS (HOPWATCH_TLS_* in env): its url is https, readiness is checked with this CA (PEM). */
  tlsCa?: string;
  /** Runs the server inside this network namespace (`ip netns exec`, root only), listening on `host`. */
  netns?: string;
  /** The address the server listens on and the suite calls (default 127.0.0.1). */
  host?: string;
}

const mainJs = resolve(import.meta.dirname, '../../dist/server/main.js');
const node = [process.execPath, ...ServerNodeFlags, mainJs];

export { freePort };

export async function startAppliance(opts: StartOptions = {}): Promise<Appliance> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'hopwatch-test-'));
  const port = opts.port ?? (await freePort());
  const host = opts.host ?? '127.0.0.1';
  // The test matrix (HOPWATCH_TEST_STORE=postgres): the data directory's database on this
  // process's throwaway cluster, unless the suite names a database itself.
  const databaseUrl = testStore() === 'postgres' && !opts.env?.HOPWATCH_DATABASE_URL ? await testDatabaseUrl(dataDir) : undefined;
  const [command, args] = opts.netns ? ['ip', ['netns', 'exec', opts.netns, ...node]] : [node[0], node.slice(1)];
  const child: ChildProcess = spawn(command, args, {
    env: {
      ...ServerMallocEnv,
      ...process.env,
      HOPWATCH_PORT: String(port),
      HOPWATCH_HOST: host,
      HOPWATCH_DATA_DIR: dataDir,
      // Sidekick's discovery (a suite calling every route starts it) stays on the machine: no
      // routing table or resolv.conf of the host, loopback as the external sources. Suites of
      // Sidekick point these at their own test network (docs/sidekick.md).
      HOPWATCH_SIDEKICK_ROUTE_TABLE: '/nonexistent/hopwatch-test-route-table',
      HOPWATCH_SIDEKICK_RESOLV_CONF: '/nonexistent/hopwatch-test-resolv.conf',
      HOPWATCH_SIDEKICK_EXTERNAL_SOURCES: '127.0.0.1,::1',
      HOPWATCH_SIDEKICK_EDGE_WAIT_SECONDS: '5',
      ...(databaseUrl ? { HOPWATCH_DATABASE_URL: databaseUrl } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));

  const url = `${opts.tlsCa ? 'https' : 'http'}://${host}:${port}`;
  const deadline = Date.now() + 60_000;
  // A start that fails leaves nothing behind: the data directory goes too when this call made it.
  const failed = (message: string) => {
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    return new Error(message);
  };
  for (;;) {
    if (child.exitCode !== null) throw failed(`appliance exited with ${child.exitCode}:\n${out}`);
    try {
      const status = opts.tlsCa ? await httpsStatus(`${url}/readyz`, opts.tlsCa) : (await fetch(`${url}/readyz`)).status;
      if (status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw failed(`appliance not ready after 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const pw = /temporary password: (\S+)/.exec(out)?.[1];
  const stop = async () => {
    const t0 = Date.now();
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await exited;
    return { code, ms: Date.now() - t0 };
  };
  const appliance: Appliance = {
    url,
    port,
    dataDir,
    rootPassword: pw,
    output: () => out,
    stop,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    restart: async () => {
      await stop();
      return startAppliance({ ...opts, dataDir, port });
    },
    dispose: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return appliance;
}

/** A GET over https verified with `ca` (fetch has no CA option): the status. */
function httpsStatus(url: string, ca: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = httpsGet(url, { ca }, (res) => {
      res.resume();
      ok(res.statusCode ?? 0);
    });
    req.on('error', fail);
  });
}

/** Signs in and returns the session cookie header value. */
export async function signIn(url: string, username: string, password: string, rememberMe = false): Promise<string> {
  const r = await fetch(`${url}/api/Account/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: username, Password: password, RememberMe: rememberMe }),
  });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${await r.text()}`);
  const setCookie = r.headers.getSetCookie();
  return setCookie.map((c) => c.split(';')[0]).join('; ');
}
