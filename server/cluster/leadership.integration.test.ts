// The leader lease on a real PostgreSQL (server/cluster/leadership.ts): one of two candidates
// leads; a clean close hands over at once; a holder whose connection the server ends
// (pg_terminate_backend, as when PostgreSQL gives up on a silent holder) stops leading by
// itself and one candidate (never two) takes the lease; a holder's stillLeader() asks the database.
// PostgreSQL phase only (HOPWATCH_TEST_STORE=postgres).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../../test/support/postgres.js';
import { testStore } from '../store/testing/test-store.js';
import { PgLeadership, type LeadershipLog } from './leadership.js';

const run = testStore() === 'postgres' && postgresInstalled();
const quiet: LeadershipLog = { info: () => undefined, warn: () => undefined };
const CheckMs = 200;

let db: ThrowawayPostgres;
beforeAll(async () => {
  if (run) db = await startPostgres();
}, 30_000);
afterAll(() => db?.stop());

async function until(what: string, probe: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!run)('the leader lease', () => {
  it('is held by one candidate; a close hands it over; a holder whose connection ends stops leading', async () => {
    const key = 0x486f7400;
    const a = new PgLeadership(db.url, quiet, { key, checkMs: CheckMs });
    const b = new PgLeadership(db.url, quiet, { key, checkMs: CheckMs });
    const changes: string[] = [];
    a.onChange((l) => changes.push(`a ${l}`));
    b.onChange((l) => changes.push(`b ${l}`));
    await a.start();
    await b.start();
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    expect(await a.stillLeader()).toBe(true);
    expect(await b.stillLeader()).toBe(false);
    expect(b.state()).toMatchObject({ leader: false, kind: 'postgres', reason: 'another replica holds the lease' });

    // A clean stop gives the lease back: the other takes it at its next try.
    await a.close();
    await until('b leading', () => b.isLeader());
    expect(changes).toEqual(['a true', 'a false', 'b true']);

    // The server ends b's lease connection: b stops leading by itself.
    const c = new PgLeadership(db.url, quiet, { key, checkMs: CheckMs });
    await c.start();
    expect(c.isLeader()).toBe(false);
    const admin = new pg.Client(db.url);
    await admin.connect();
    try {
      const r = await admin.query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = 'hopwatch leader lease' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid::bigint = $1 AND granted)`, [key]);
      expect(r.rows).toEqual([{ ok: true }]);
    } finally {
      await admin.end();
    }
    // b hears its connection end and stops leading; then one of b (reconnected) and c takes the lease, never both.
    await until('b to stop leading', () => changes.includes('b false'));
    await until('a leader again', () => b.isLeader() || c.isLeader());
    expect([b.isLeader(), c.isLeader()].filter(Boolean)).toHaveLength(1);
    expect((await Promise.all([b.stillLeader(), c.stillLeader()])).filter(Boolean)).toHaveLength(1);
    await b.close();
    await c.close();
  }, 30_000);
});
