// The root user when several replicas start together on one PostgreSQL (issue 43 item 4,
// compose.cluster.yaml starts three at once): exactly one account and one root user, made by
// one of them; the others find it. Each replica's check and insert used to run apart, so two
// replicas that both found no root user made two accounts with a root user each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { Store } from '../store/db.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../../test/support/postgres.js';
import { ensureRootUser } from './root-user.js';

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-rootuser-'));
let cluster: ThrowawayPostgres;

describe.runIf(postgresInstalled())('the root user of replicas starting together', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is made once, by one replica', async () => {
    const stores = await Promise.all([1, 2, 3].map((i) => Store.open(join(dir, `replica-${i}`), { databaseUrl: cluster.url })));
    try {
      const config = { rootUser: 'admin', rootPassword: 'a-root-password-1' } as Config;
      const made = await Promise.all(stores.map((s) => ensureRootUser(s, config, () => undefined)));
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await stores[0].all('SELECT id FROM users WHERE is_root')).toHaveLength(1);
      expect(await stores[0].all('SELECT id FROM accounts')).toHaveLength(1);
    } finally {
      for (const s of stores) await s.close();
    }
  });
});
