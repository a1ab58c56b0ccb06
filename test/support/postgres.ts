// A throwaway PostgreSQL 15 cluster for a suite (issue 42): Debian's postgresql-15 (installed by
// test/setup.sh), initdb in a temp directory, its own port and socket directory, removed by
// stop(). initdb refuses to run as root, so as root the cluster belongs to the `postgres` user
// the package creates. About 1.5 s from nothing to accepting connections.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PostgresBin = '/usr/lib/postgresql/15/bin';

export interface ThrowawayPostgres {
  /** postgres://hopwatch@127.0.0.1:PORT/hopwatch */
  url: string;
  port: number;
  dir: string;
  stop(): void;
}

/** Whether Debian's PostgreSQL 15 server is installed (test/setup.sh installs it). */
export function postgresInstalled(): boolean {
  return existsSync(join(PostgresBin, 'initdb')) && existsSync(join(PostgresBin, 'pg_ctl'));
}

/** A free TCP port on loopback (the throwaway servers' and the appliances'). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function asOwner(args: string[]): void {
  const root = process.getuid?.() === 0;
  if (root) execFileSync('runuser', ['-u', 'postgres', '--', ...args], { stdio: 'pipe' });
  else execFileSync(args[0], args.slice(1), { stdio: 'pipe' });
}

/** Starts a new cluster with a `hopwatch` superuser and database; stop() removes it. */
export async function startPostgres(options: { settings?: Record<string, string> } = {}): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-pg-'));
  chmodSync(dir, 0o777); // the postgres user writes here when we are root
  const data = join(dir, 'data');
  const port = await freePort();
  asOwner([join(PostgresBin, 'initdb'), '-D', data, '-A', 'trust', '-U', 'hopwatch', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const settings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', ...options.settings };
  const opts = [`-p ${port}`, `-k ${dir}`, `-c listen_addresses=127.0.0.1`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
  asOwner([join(PostgresBin, 'pg_ctl'), '-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  asOwner([join(PostgresBin, 'createdb'), '-h', dir, '-p', String(port), '-U', 'hopwatch', 'hopwatch']);
  let stopped = false;
  return {
    url: `postgres://hopwatch@127.0.0.1:${port}/hopwatch`,
    port,
    dir,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asOwner([join(PostgresBin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
