// The bulk import (bulk-import.ts) leaves the store exactly as the live ingest pipeline does
// for the same samples in the same order: the samples in their order, every rollup row at
// every level (all columns), the marks, the session's counters, and DataPointBuckets and
// TraceGraphRows answers. The samples have timeouts, the other codes, rounds that came a few
// seconds late (out of order) and a gap; the pipeline gets them as an agent sends them (a
// round or a few at a time), the bulk path from a Parquet file in the same order, once in the
// data file's current layout (format version 2: integer ms and microseconds) and once in the
// previous release's (version 1: DOUBLE ms, as its writer wrote them). Through
// dist/ (the pipeline runs a Piscina worker): npm run build:server first. Runs on the
// matrix's store (HOPWATCH_TEST_STORE=duckdb|postgres): the files are written by an in-memory
// DuckDB of the test's own, the rows read back through sample-tables.ts; the samples' order
// in the table is DuckDB's alone (PostgreSQL keeps round rows and blocks).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOUBLE, DuckDBInstance, SMALLINT } from '@duckdb/node-api';
import { insertActiveSession } from '../ingest/testing/sessions.js';
import { openTestStore } from '../store/testing/test-store.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { dataPointBuckets } = await import(dist('server/data/buckets.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));
const { appendColumns } = await import(dist('server/store/append-columns.js'));
const { writeSamplesAndRollups } = await import(dist('server/datafiles/bulk-import.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));
const { latencyMicrosSql } = await import(dist('server/store/latency-micros.js'));
const { duckQueryable } = await import(dist('server/store/db.js'));
const { readRawSamples, readRollupRows, inDayPartitions, prepareDaysWrite } = await import(dist('server/store/sample-tables.js'));
const { RollupResolutionsMs } = await import(dist('server/rollups/levels.js'));

const onPostgres = process.env.HOPWATCH_TEST_STORE === 'postgres';
const End = 8.64e15;

type StoreT = InstanceType<typeof Store>;

const HOPS = 6;
const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0) + 17_345; // not on a minute
const rounds = 3 * 3600; // 3 h of 1 s rounds

/** The samples in the order an agent delivers them: a few rounds late, a 7-minute gap. */
function delivered() {
  const order: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r >= 4000 && r < 4420) continue; // the gap
    order.push(r);
  }
  // Every 97th round arrives 3 rounds (3 s) late: after the rounds sent after it.
  for (let i = 0; i + 3 < order.length; i += 97) order.splice(i, 4, order[i + 1], order[i + 2], order[i + 3], order[i]);
  const n = order.length * HOPS;
  const time = new Float64Array(n);
  const hop = new Int32Array(n);
  const latency = new Float64Array(n);
  let k = 0;
  for (const r of order) {
    for (let h = 1; h <= HOPS; h++, k++) {
      time[k] = T0 + r * 1000 + h;
      hop[k] = h;
      const x = (r * 7919 + h * 104729) % 1000;
      latency[k] =
        x < 40 ? LatencyCode.Timeout : x < 45 ? LatencyCode.NotParticipating : r === 4420 && h === 1 ? LatencyCode.StopStart : 1 + h * 1.7 + (x % 233) / 37.123457;
    }
  }
  return { time, hop, latency, n, rounds: order.length };
}

describe('bulk import against the live ingest pipeline', () => {
  let dir: string;
  let store: StoreT;
  let live: number;
  let bulk: number;
  let bulkV1: number;
  let accountId: number;
  const s = delivered();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-bulk-import-'));
    store = await openTestStore(dir);
    accountId = (await store.one(`INSERT INTO accounts (name) VALUES ('bulk') RETURNING id`)).id;
    live = await insertActiveSession(store, accountId, 'live.example.test', T0);
    bulk = await insertActiveSession(store, accountId, 'bulk.example.test', T0);
    bulkV1 = await insertActiveSession(store, accountId, 'bulk-v1.example.test', T0);

    // The live path: rounds as an agent sends them, 1 to 5 rounds a batch.
    const ingest = new IngestPipeline(store, new DomainEventBus());
    await ingest.init();
    ingest.openSession(live, accountId);
    const pending: Promise<void>[] = [];
    for (let r = 0, size = 1; r < s.rounds; r += size, size = (size % 5) + 1) {
      const a = r * HOPS;
      const b = Math.min(s.rounds, r + size) * HOPS;
      pending.push(ingest.addBatch({ length: b - a, session: new Int32Array(b - a).fill(live), time: s.time.slice(a, b), hop: s.hop.slice(a, b), latency: s.latency.slice(a, b) }));
    }
    await Promise.all(pending);
    await ingest.finishSession(live);
    await ingest.close();

    // The bulk path: the same rows in the same order in a Parquet file of the data file's
    // columns, version 1 (the previous writer's DOUBLEs) and version 2 (its integers).
    const fileV1 = join(dir, 'samples-v1.parquet');
    const fileV2 = join(dir, 'samples-v2.parquet');
    const files = await DuckDBInstance.create(':memory:');
    const conn = await files.connect();
    try {
      const fq = duckQueryable(conn);
      await fq.run('CREATE TABLE f (time_ms DOUBLE, hop SMALLINT, latency_ms DOUBLE)');
      await appendColumns(conn, 'f', s.n, [
        { type: DOUBLE, values: s.time },
        { type: SMALLINT, values: s.hop },
        { type: DOUBLE, values: s.latency },
      ]);
      await fq.run(`COPY f TO '${fileV1}' (FORMAT parquet)`);
      await fq.run(`COPY (SELECT time_ms::BIGINT AS time_ms, hop, ${latencyMicrosSql('latency_ms')} AS latency_us FROM f) TO '${fileV2}' (FORMAT parquet, PARQUET_VERSION V2)`);
    } finally {
      conn.closeSync();
      files.closeSync();
    }
    let begin = Infinity;
    let end = -Infinity;
    for (const t of s.time) (begin = Math.min(begin, t)), (end = Math.max(end, t));
    const range = { Begin: begin, End: end, Samples: s.n, Cut: false };
    // As import.ts writes: PostgreSQL's day partitions made first (the samples' days).
    const days = async () => [...new Set(Array.from(s.time, (t) => Math.floor(t / 86_400_000)))];
    for (const [id, file, version] of [[bulk, fileV2, 2], [bulkV1, fileV1, 1]] as const) {
      await inDayPartitions(store, () => prepareDaysWrite(store, days), () =>
        store.transaction((q: unknown, c: unknown) => writeSamplesAndRollups(q, c, id, file, `samples-v${version}.pp2`, { version, range }, store.fileReader)),
      );
    }
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stores the same samples (on DuckDB in the same order)', async () => {
    const samples = async (id: number) =>
      onPostgres
        ? Object.values(await store.read((q: never) => readRawSamples(q, id, -End, End))).slice(1)
        : store.numbers(`SELECT time, hop, latency FROM samples WHERE session_id = $1 ORDER BY rowid`, [id]);
    const a = await samples(live);
    expect((a[0] as ArrayLike<number>).length).toBe(s.n);
    expect(await samples(bulk)).toEqual(a);
    expect(await samples(bulkV1)).toEqual(a);
  });

  it('stores the same rollup rows at every level, and the same marks and counters', async () => {
    const rows = async (id: number) => {
      const out: Record<string, unknown>[] = [];
      for (const resolution of RollupResolutionsMs) {
        const r = await store.read((q: never) => readRollupRows(q, resolution, id, -End, End));
        for (let i = 0; i < r.time.length; i++) out.push({ resolution, ...Object.fromEntries(Object.entries(r).map(([k, c]) => [k, (c as ArrayLike<number>)[i]])) });
      }
      return out;
    };
    const a = await rows(live);
    expect(new Set(a.map((r) => r.resolution))).toEqual(new Set([60_000, 600_000, 3_600_000]));
    expect(a.length).toBeGreaterThan(180 * HOPS);
    const marks = (id: number) => store.all(`SELECT resolution, closed_until FROM rollup_marks WHERE session_id = $1 ORDER BY resolution`, [id]);
    const counters = (id: number) => store.one(`SELECT sample_count, first_sample, latest_sample FROM sessions_counted WHERE id = $1`, [id]);
    for (const b of [bulk, bulkV1]) {
      expect(await rows(b)).toEqual(a);
      expect(await marks(b)).toEqual(await marks(live));
      expect(await counters(b)).toEqual(await counters(live));
    }
  });

  it('answers the same DataPointBuckets and TraceGraphRows', async () => {
    const principal = { userId: 0, accountId, username: 'bulk', isRoot: true, claims: [] };
    for (const period of [2, 10, 60, 600, 3600]) {
      for (const hop of [1, HOPS]) {
        const args = (id: number) => ({ targetId: `${id}_h_${hop}`, startTime: T0 - 60_000, endTime: T0 + 3 * H + 60_000, periodSeconds: period, includeJitter: true });
        const theirs = await dataPointBuckets(store, principal, args(live));
        expect(await dataPointBuckets(store, principal, args(bulk))).toEqual(theirs);
        expect(await dataPointBuckets(store, principal, args(bulkV1))).toEqual(theirs);
      }
    }
    for (const [from, to] of [[T0, T0 + 3 * H], [T0 + 17 * 60_000 + 321, T0 + 95 * 60_000]]) {
      const rows = async (id: number) => {
        const r = await traceGraphRows(store, principal, { listType: 'Target', uniqueID: String(id), columnNames: [], requests: [{ ID: String(id), Start: new Date(from).toISOString(), End: new Date(to).toISOString() }] });
        return r.Rows.map((row: { UniqueID: string }) => ({ ...row, UniqueID: row.UniqueID.replace(`${id}_h_`, 'X_h_') }));
      };
      const theirs = await rows(live);
      expect(await rows(bulk)).toEqual(theirs);
      expect(await rows(bulkV1)).toEqual(theirs);
    }
  });
});
