// The test matrix's switch (issue 42 item 3): HOPWATCH_TEST_STORE=duckdb (the default) or
// postgres. Suites open their store with openTestStore and start appliances with
// test/support/appliance.ts, which both ask testStore(); on postgres one throwaway
// PostgreSQL 15 cluster per test process (test/support/postgres.ts, about 1.5 s) serves every
// store of the suite, each data directory a database of its own (so reopening a directory,
// or restarting an appliance on it, finds its tables again). The cluster is removed when the
// process exits.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll } from 'vitest';
import { Store, type OpenOptions } from '../db.js';
import { startPostgres, type ThrowawayPostgres } from '../../../test/support/postgres.js';

export type TestStoreKind = 'duckdb' | 'postgres';

/** The backend the suites run on (HOPWATCH_TEST_STORE; DuckDB when unset). */
export function testStore(): TestStoreKind {
  const v = (process.env.HOPWATCH_TEST_STORE ?? 'duckdb').trim().toLowerCase();
  if (v !== 'duckdb' && v !== 'postgres') throw new Error(`HOPWATCH_TEST_STORE must be duckdb or postgres, got "${v}"`);
  return v;
}

let cluster: Promise<ThrowawayPostgres> | undefined;

/** This process's throwaway cluster, started on first use, removed after the suite (vitest may end its worker with a signal, so not at exit). */
export function testCluster(): Promise<ThrowawayPostgres> {
  if (!cluster) {
    cluster = startPostgres();
    void cluster.then((c) => process.once('exit', () => c.stop()));
  }
  return cluster;
}

// Registered while the suite's file is collected (this module is imported by it): after its
// last test and hook, the cluster goes, appliances having been stopped by their own afterAll.
afterAll(async () => {
  const c = cluster;
  cluster = undefined;
  if (c) (await c).stop();
});

/** The database URL of a data directory on the test cluster (made on first use). */
export async function testDatabaseUrl(dataDir: string): Promise<string> {
  const c = await testCluster();
  const name = `hw_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  const admin = new pg.Client(c.url);
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(c.url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Store.open on the matrix's backend: the data directory's DuckDB file, or its database on the test cluster. */
export async function openTestStore(dataDir: string, opts: Omit<OpenOptions, 'databaseUrl'> = {}): Promise<Store> {
  if (testStore() === 'duckdb') return Store.open(dataDir, opts);
  return Store.open(dataDir, { ...opts, databaseUrl: await testDatabaseUrl(dataDir) });
}
