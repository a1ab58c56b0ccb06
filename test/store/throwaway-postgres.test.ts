// The suites' throwaway PostgreSQL (test/support/postgres.ts) starts, answers, and leaves nothing.
import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresInstalled, startPostgres } from '../support/postgres.js';

describe.skipIf(!postgresInstalled())('throwaway PostgreSQL', () => {
  it('starts a PostgreSQL 15 cluster on its own port and removes it on stop', async () => {
    const server = await startPostgres();
    try {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
      await client.end();
      expect(Number(rows[0].v)).toBeGreaterThanOrEqual(150000);
    } finally {
      server.stop();
    }
    expect(existsSync(server.dir)).toBe(false);
  });
});
