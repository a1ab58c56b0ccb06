// Startup's wait for PostgreSQL (issue 42 item 1): an appliance started beside its database
// (compose, Kubernetes) often comes up first, so it retries for a while, then stops with an
// error that names the host it could not reach (never the password).
import type pg from 'pg';

/** user@host:port/database of a postgres:// URL, without the password. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return '(an unreadable URL)';
  }
}

export class DatabaseUnreachable extends Error {}

/** Resolves once a query answers; retries every second until timeoutMs, then throws DatabaseUnreachable. */
export async function connectWithRetry(pool: pg.Pool, url: string, opts: { timeoutMs: number; log?: (line: string) => void }): Promise<void> {
  const deadline = Date.now() + opts.timeoutMs;
  let said = false;
  for (;;) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      const message = (err as Error).message || String((err as { code?: string }).code ?? err);
      // Errors PostgreSQL itself answered (a wrong password, no such database) will not go away by waiting.
      const answered = typeof (err as { code?: string }).code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code);
      if (answered || Date.now() >= deadline) {
        await pool.end().catch(() => undefined);
        throw new DatabaseUnreachable(`cannot connect to PostgreSQL at ${describeUrl(url)}: ${message}`);
      }
      if (!said) opts.log?.(`waiting for PostgreSQL at ${describeUrl(url)} (${message})`);
      said = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
