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

  it('sends one query at a time on the lease connection (pg@9 drops queueing; pg 8 warns)', async () => {
    // The real pg.Client, watched: how many of its queries are in flight at once, per client.
    const inFlight = new Map<object, number>();
    let most = 0;
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
      const n = (inFlight.get(this) ?? 0) + 1;
      inFlight.set(this, n);
      most = Math.max(most, n);
      const done = () => inFlight.set(this, (inFlight.get(this) ?? 1) - 1);
      const r = (query as (...a: unknown[]) => unknown).apply(this, args) as Promise<unknown>;
      r.then(done, done);
      return r;
    } as typeof query;
    const l = new PgLeadership(db.url, quiet, { key: 0x486f7401, checkMs: CheckMs });
    try {
      await l.start();
      l.listen('hopwatch_test_channel', () => undefined);
      for (let id = 1; id <= 3; id++) l.holdShared(7, id);
      const got = l.holdExclusive(8, 1, 1000);
      l.releaseShared(7, 2);
      const still = l.stillLeader();
      expect(await got).toBe(true);
      expect(await still).toBe(true);
      l.releaseExclusive(8, 1);
      await until('the unlock sent', async () => [...inFlight.values()].every((n) => n === 0));
      expect(most).toBe(1);
    } finally {
      pg.Client.prototype.query = query;
      await l.close();
    }
  }, 30_000);
});
