// Two appliance replicas on one PostgreSQL database (issue 42 item 5, part 2's footing): each
// process remembers which day partitions it made (samples-schema.ts ensureDays), so a flush does
// not ask the catalog every time. When the other replica's retention drops a day, this one must
// not go on believing the day's partitions exist: its next flush of that day (and the next day),
// its rollup write and its packer make them again and lose no row, and both replicas read the
// rows back. Two PgStores in one process stand in for two processes (each has its own pool and
// its own memory of partitions, as a second process would).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainEventBus, IngestPipeline, Store } from '../../../test/support/built.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../../../test/support/postgres.js';
import { insertActiveSession } from '../../ingest/testing/sessions.js';
import type * as Retention from '../retention.js';
import type * as Tables from '../sample-tables.js';
import type * as Pack from './samples-pack.js';

const dist = (p: string) => new URL(`../../../dist/${p}`, import.meta.url).href;
const { expireOnce } = (await import(dist('server/store/retention.js'))) as typeof Retention;
const { readRawSamples, readRollupRows, pgPoolOf } = (await import(dist('server/store/sample-tables.js'))) as typeof Tables;
const { packClosed } = (await import(dist('server/store/postgres/samples-pack.js'))) as typeof Pack;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const HOPS = 3;
const INTERVAL = 10_000;
/** Day D: the day one replica's retention drops while the other has written to it. */
const D = Date.UTC(2026, 2, 10);

/** An hour of rounds from `from`: HOPS samples every INTERVAL. */
function hourOf(sessionId: number, from: number) {
  const n = (HOUR / INTERVAL) * HOPS;
  const time = new Float64Array(n);
  const hop = new Int32Array(n);
  const latency = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    time[i] = from + Math.floor(i / HOPS) * INTERVAL;
    hop[i] = (i % HOPS) + 1;
    latency[i] = 2 + (i % 7) * 0.5;
  }
  return { length: n, session: new Int32Array(n).fill(sessionId), time, hop, latency };
}

describe.runIf(postgresInstalled())('two replicas on one database: a day partition the other replica dropped', () => {
  let pg: ThrowawayPostgres;
  const dirs: string[] = [];
  let a: Awaited<ReturnType<typeof Store.open>>;
  let b: Awaited<ReturnType<typeof Store.open>>;

  beforeAll(async () => {
    pg = await startPostgres();
    const open = async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hopwatch-replica-'));
      dirs.push(dir);
      return Store.open(dir, { databaseUrl: pg.url });
    };
    a = await open();
    b = await open();
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    pg?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const partitions = async (parent: string) =>
    (await a.all<{ t: string }>(`SELECT c.relname AS t FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, [parent])).map((r) => r.t);

  it('writes, packs and reads that day and the next without error and without losing rows', async () => {
    const account = await a.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('replicas') RETURNING id`);
    const sid = await insertActiveSession(a, account!.id, 'replicas', D + 20 * HOUR, { intervalMs: INTERVAL });
    // Replica B ingests D 20:00 to 22:00 (rollup rows written with every flush) and packs the
    // closed hour: it has made, and remembers, day D's partitions of round rows, blocks,
    // 1-minute rows and 1-minute blocks.
    const ingest = new IngestPipeline(b, new DomainEventBus(), { rollupWriteRows: 0 });
    await ingest.init();
    ingest.openSession(sid, account!.id);
    await ingest.addBatch(hourOf(sid, D + 20 * HOUR));
    await ingest.addBatch(hourOf(sid, D + 21 * HOUR));
    const first = await packClosed(pgPoolOf(b)!, { graceMs: 0 });
    expect(first.samples.rows).toBeGreaterThan(0);
    expect(first.rollups.rows).toBeGreaterThan(0);
    const day = D / DAY;
    expect(await partitions('sample_rounds')).toContain(`sample_rounds_d${day}`);
    expect(await partitions('sample_blocks')).toContain(`sample_blocks_d${day}`);
    expect(await partitions('rollup_rows_1m')).toContain(`rollup_rows_1m_d${day}`);

    // Replica A's retention drops day D (raw samples and 1-minute rows kept 3 days).
    const expired = await expireOnce(a, D + 4 * DAY + HOUR, { rawDays: 3, minuteDays: 3 });
    expect(expired.samples).toBeGreaterThan(0);
    for (const parent of ['sample_rounds', 'sample_blocks', 'rollup_rows_1m', 'rollup_blocks_1m']) expect(await partitions(parent)).not.toContain(`${parent}_d${day}`);

    // Replica B goes on: D 22:00 to 24:00 and D+1 00:00 to 01:00, flushes and rollup writes,
    // then the packer (D's hours now closed) and the end of the session.
    const later = [hourOf(sid, D + 22 * HOUR), hourOf(sid, D + 23 * HOUR), hourOf(sid, D + DAY)];
    for (const batch of later) await ingest.addBatch(batch);
    const packed = await packClosed(pgPoolOf(b)!, { graceMs: 0 });
    expect(packed.samples.rows).toBeGreaterThan(0);
    await ingest.finishSession(sid);
    await ingest.close();

    // Every sample B wrote after the drop is there, read by either replica; the 1-minute rows of those hours too.
    const sent = later.reduce((s, x) => s + x.length, 0);
    for (const store of [a, b]) {
      const read = await store.read((q) => readRawSamples(q, sid, D, D + 2 * DAY));
      expect(read.length).toBe(sent);
      expect(read.time[0]).toBe(D + 22 * HOUR);
      // (From 22:00: the row of 21:59 closed with the first round after it, so was written after the drop.)
      const minutes = await store.read((q) => readRollupRows(q, 60_000, sid, D + 22 * HOUR, D + 2 * DAY));
      expect(minutes.time.length).toBe(3 * 60 * HOPS);
    }
    // And A's next expiry drops day D again, B's new rows of it with it.
    await expireOnce(a, D + 4 * DAY + HOUR, { rawDays: 3, minuteDays: 3 });
    expect((await a.read((q) => readRawSamples(q, sid, D, D + 2 * DAY))).length).toBe(later[2].length);
  }, 120_000);

  it("packs rows the other replica wrote into a day it dropped and made again", async () => {
    const D2 = D - 10 * DAY;
    const day = D2 / DAY;
    const account = await a.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('replicas-2') RETURNING id`);
    const sid = await insertActiveSession(a, account!.id, 'replicas-2', D2 + 20 * HOUR, { intervalMs: INTERVAL });
    // B ingests D2 20:00 to 22:00 and packs: it remembers D2's block partitions.
    const onB = new IngestPipeline(b, new DomainEventBus(), { rollupWriteRows: 0 });
    await onB.init();
    onB.openSession(sid, account!.id);
    for (const h of [20, 21]) await onB.addBatch(hourOf(sid, D2 + h * HOUR));
    await onB.finishSession(sid);
    await onB.close();
    expect((await packClosed(pgPoolOf(b)!, { graceMs: 0 })).samples.rows).toBeGreaterThan(0);
    // A drops D2, then A itself goes on with the session: D2 22:00 and D2+1 00:00 (A makes
    // D2's partition of round rows again; the block partitions are not there).
    await expireOnce(a, D2 + 4 * DAY + HOUR, { rawDays: 3, minuteDays: 3 });
    expect(await partitions('sample_blocks')).not.toContain(`sample_blocks_d${day}`);
    const onA = new IngestPipeline(a, new DomainEventBus(), { rollupWriteRows: 0 });
    await onA.init();
    onA.openSession(sid, account!.id);
    const later = [hourOf(sid, D2 + 22 * HOUR), hourOf(sid, D2 + DAY)];
    for (const batch of later) await onA.addBatch(batch);
    await onA.finishSession(sid);
    await onA.close();
    // B's packer packs D2 22:00 into blocks of a day it still believes it has.
    const packed = await packClosed(pgPoolOf(b)!, { graceMs: 0 });
    expect(packed.samples.rows).toBeGreaterThan(0);
    expect(await partitions('sample_blocks')).toContain(`sample_blocks_d${day}`);
    const read = await b.read((q) => readRawSamples(q, sid, D2, D2 + 2 * DAY));
    expect(read.length).toBe(later[0].length + later[1].length);
  }, 120_000);
});
