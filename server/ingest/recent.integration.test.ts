// The pipeline's recent data (server/rollups/recent-data.ts) answers DataPointBuckets and
// TraceGraphRows exactly as the store does, while periods close, windows trim and the
// server restarts; the cached session times follow every commit. Through dist/ (the
// pipeline runs a Piscina worker): npm run build:server first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertActiveSession } from './testing/sessions.js';
import { SampleSelectColumns } from '../store/latency-micros.js';
import { openTestStore } from '../store/testing/test-store.js';
import { readRawSamples } from '../store/sample-tables.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { dataPointBuckets, bucketGrid } = await import(dist('server/data/buckets.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));
const { RecentRawMs, RecentRowsMs } = await import(dist('server/rollups/recent-data.js'));
const ref = await import(dist('wasm/reference.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));

const HOPS = 5;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const H = 3_600_000;

let seed = 99;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;

/** Rounds every second from `from` to `to`: latencies, Timeouts, NotParticipating. */
function rounds(sid: number, from: number, to: number) {
  const time: number[] = [];
  const hop: number[] = [];
  const latency: number[] = [];
  for (let t = from; t < to; t += 1000) {
    for (let h = 1; h <= HOPS; h++) {
      const x = rnd();
      time.push(t + h); // hops answer a little apart, as real rounds do
      hop.push(h);
      latency.push(x < 0.05 ? LatencyCode.Timeout : x < 0.07 ? LatencyCode.NotParticipating : 1 + h + rnd() * 10);
    }
  }
  const n = time.length;
  return { length: n, session: new Int32Array(n).fill(sid), time: Float64Array.from(time), hop: Int32Array.from(hop), latency: Float64Array.from(latency) };
}

let dir: string;
let store: InstanceType<typeof Store>;
let ingest: InstanceType<typeof IngestPipeline>;
let sid: number;
let principal: { userId: number; accountId: number; username: string; isRoot: boolean; claims: string[] };
let latest = 0;

async function add(from: number, to: number) {
  for (let a = from; a < to; a += H) await ingest.addBatch(rounds(sid, a, Math.min(to, a + H)));
  latest = to;
}

/** Every field of the two answers, jitter aside (the store's reduced rows leave out straddling pairs). */
function comparable(points: Array<Record<string, unknown>>) {
  return points.map((p) => ({ ...p, Jitter: undefined, AverageLatency: p.AverageLatency === null ? null : Number((p.AverageLatency as number).toFixed(9)), RouteHostLatencies: (p.RouteHostLatencies as (number | null)[]).map((v) => (v === null ? null : Number(v.toFixed(9)))) }));
}

async function checkRange(from: number, to: number, periodSeconds: number, hop = HOPS) {
  const args = { targetId: `${sid}_h_${hop}`, startTime: from, endTime: to, periodSeconds, includeJitter: true };
  const memory = await dataPointBuckets(store, principal, args, ingest);
  const stored = await dataPointBuckets(store, principal, args);
  expect(memory.Points.length).toBeGreaterThan(0);
  expect(comparable(memory.Points)).toEqual(comparable(stored.Points));
  expect(memory.MostRecentDatapoint).toBe(stored.MostRecentDatapoint);
  expect(memory.FirstDatapoint).toBe(stored.FirstDatapoint);
  // Against the raw samples, bucketed by the reference kernel: counts exact, jitter too.
  const grid = bucketGrid(from, to, periodSeconds * 1000);
  const { time, hop: hops, latency } = await readRawSamples(store, sid, 0, 8.64e15);
  const truth = ref.referenceBucketSamples({ time, hop: hops, latency }, { start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount: HOPS });
  let sent = 0;
  for (const p of memory.Points) {
    const c = p.UnitNumber * HOPS + hop - 1;
    expect(p.LatencyCount).toBe(truth.count[c]);
    expect(p.LostPacketCount).toBe(truth.lost[c]);
    expect(p.LatencyMinimum).toBe(Number.isNaN(truth.min[c]) ? null : truth.min[c]);
    if (p.Jitter !== null) expect(p.Jitter).toBeCloseTo(truth.jitter[c], 9);
    sent += p.LatencyCount;
  }
  // The store's rows come unreduced up to PlainRowsPerBucket rows per bucket (three here):
  // then its jitter is exact too.
  if (periodSeconds === 180) {
    stored.Points.forEach((p: { UnitNumber: number; Jitter: number | null }) => {
      const c = p.UnitNumber * HOPS + hop - 1;
      if (p.Jitter !== null) expect(p.Jitter).toBeCloseTo(truth.jitter[c], 9);
    });
  }
  let total = 0;
  for (let b = 0; b < grid.bucketCount; b++) total += truth.count[b * HOPS + hop - 1];
  expect(sent).toBe(total);
}

// The store answers compared here come from rollup rows: written with every flush, not in
// groups (rollup-groups.integration.test.ts covers the groups).
const writeEachFlush = { rollupWriteRows: 0 };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-recent-'));
  store = await openTestStore(dir);
  const account = await store.one(`INSERT INTO accounts (name) VALUES ('recent') RETURNING id`);
  principal = { userId: 0, accountId: account.id, username: 'recent', isRoot: true, claims: [] };
  sid = await insertActiveSession(store, account.id, 'recent', T0, { targetIp: '10.0.0.1' });
  ingest = new IngestPipeline(store, new DomainEventBus(), writeEachFlush);
  await ingest.init();
  ingest.openSession(sid, account.id);
  await add(T0, T0 + 3 * H + 7 * 60_000 + 30_000);
});

afterAll(async () => {
  await ingest?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('recent data of an open session', () => {
  it('covers the raw window and the rollups since the session started', () => {
    const r = ingest.recent(sid)!;
    expect(r).toBeDefined();
    expect(r.rawFrom).toBeCloseTo(latest - RecentRawMs, -4);
    expect(r.rowsFrom[0]).toBe(T0);
    expect(r.marks[0]).toBe(T0 + 3 * H + 7 * 60_000); // the last sample minus the grace, floored to the minute
  });

  it('answers like the store and the raw samples, inside and across the memory windows', async () => {
    await checkRange(latest - 10 * 60_000, latest, 1); // raw, memory only
    await checkRange(latest - 50 * 60_000, latest, 2); // raw: store before the window, memory after
    await checkRange(T0, latest, 18); // raw: store before the window, memory after
    await checkRange(T0, latest, 60); // 1-min rows and raw tail
    await checkRange(T0, latest, 180); // three 1-min rows per bucket
    await checkRange(T0 + 1234, latest - 777, 600, 3); // 10-min rows, edges from finer levels
    await checkRange(T0, latest + H, 3600, 1); // 1-h rows
  });

  it('follows the commits: a period that closes and the session times', async () => {
    const before = await dataPointBuckets(store, principal, { targetId: `${sid}_h_${HOPS}`, startTime: T0, endTime: latest + 10 * 60_000, periodSeconds: 60, includeJitter: false }, ingest);
    await add(latest, latest + 4 * 60_000);
    const after = await dataPointBuckets(store, principal, { targetId: `${sid}_h_${HOPS}`, startTime: T0, endTime: latest + 10 * 60_000, periodSeconds: 60, includeJitter: false }, ingest);
    expect(Date.parse(after.MostRecentDatapoint!)).toBeGreaterThan(Date.parse(before.MostRecentDatapoint!));
    expect(after.Points.length).toBe(before.Points.length + 4);
    await checkRange(T0, latest, 60);
    await checkRange(latest - 20 * 60_000, latest, 1);
  });

  it('gives the same grid rows as the store', async () => {
    const args = { requests: [{ ID: String(sid), Start: String(T0), End: String(latest) }], columnNames: [], listType: 'Target', uniqueID: String(sid) };
    const memory = await traceGraphRows(store, principal, args, ingest);
    const stored = await traceGraphRows(store, principal, args);
    const pick = (r: { Rows: Array<Record<string, unknown>> }) => r.Rows.map((x) => [x.HopNum, x.TotalCount, x.GoodCount, x.Minimum, x.Maximum, x.Current, x.PL]);
    expect(pick(memory)).toEqual(pick(stored));
  });

  it('answers data calls while an ingest transaction holds the writer (they read committed data)', async () => {
    let release!: () => void;
    const held = store.transaction(() => new Promise<void>((r) => (release = r)), { background: true }); // as a flush
    try {
      const waited = (ms: number) => new Promise((_, reject) => setTimeout(() => reject(new Error('the call waited for the writer')), ms));
      const rowsArgs = { requests: [{ ID: String(sid), Start: String(T0), End: String(latest) }], columnNames: [], listType: 'Target', uniqueID: String(sid) };
      // Without the pipeline as source, so that nothing is cached: the session row and hosts are read too.
      const [rows, buckets] = (await Promise.race([
        Promise.all([
          traceGraphRows(store, principal, rowsArgs),
          dataPointBuckets(store, principal, { targetId: `${sid}_h_${HOPS}`, startTime: T0, endTime: latest, periodSeconds: 600, includeJitter: false }),
        ]),
        waited(5_000),
      ])) as [{ Rows: unknown[] }, { Points: unknown[] }];
      expect(rows.Rows.length).toBeGreaterThan(1);
      expect(buckets.Points.length).toBeGreaterThan(0);
    } finally {
      release();
      await held;
    }
  });

  it('fills its windows from the store after a restart, and still answers like the store', async () => {
    await ingest.close();
    ingest = new IngestPipeline(store, new DomainEventBus(), writeEachFlush);
    await ingest.init();
    // PostgreSQL: a replica holds a session's state once it takes the session over (its agent's link came), not from its start.
    await ingest.takeOver([sid]);
    const r = ingest.recent(sid)!;
    const { latest_sample: stored } = await store.one('SELECT latest_sample FROM sessions WHERE id = $1', [sid]);
    expect(r.rawFrom).toBe(stored - RecentRawMs);
    expect(r.rowsFrom).toEqual(RecentRowsMs.map((w: number) => stored - w));
    expect(r.rows(0, -Infinity, Infinity).time[0]).toBe(T0); // the whole history is back in memory
    expect(r.samples(-Infinity, Infinity).time[0]).toBeGreaterThanOrEqual(stored - RecentRawMs);
    await add(latest, latest + 3 * 60_000);
    await checkRange(T0, latest, 60);
    await checkRange(latest - 10 * 60_000, latest, 1);
  });

  it('keeps a late sample (its minute already closed) as the store does', async () => {
    // A session of its own: rollups leave late samples out, which the raw checks above would see.
    const s2 = { id: await insertActiveSession(store, principal.accountId, 'late', T0, { targetIp: '10.0.0.2' }) };
    ingest.openSession(s2.id, principal.accountId);
    await ingest.addBatch(rounds(s2.id, T0, T0 + 6 * 60_000));
    const late = T0 + 60_000 + 500; // its minute closed long ago
    await ingest.addBatch({ length: 1, session: Int32Array.of(s2.id), time: Float64Array.of(late), hop: Int32Array.of(HOPS), latency: Float64Array.of(4242) });
    expect(ingest.recent(s2.id)!.marks[0]).toBeGreaterThan(late);
    for (const [from, to, period] of [
      [T0, T0 + 6 * 60_000, 1],
      [T0, T0 + 6 * 60_000, 60],
    ]) {
      const args = { targetId: `${s2.id}_h_${HOPS}`, startTime: from, endTime: to, periodSeconds: period, includeJitter: false };
      const memory = await dataPointBuckets(store, principal, args, ingest);
      const stored = await dataPointBuckets(store, principal, args);
      expect(comparable(memory.Points)).toEqual(comparable(stored.Points));
      if (period === 1) expect(memory.Points.some((p: { LatencyMaximum: number }) => p.LatencyMaximum === 4242)).toBe(true);
    }
  });

  it('is forgotten when the session finishes', async () => {
    await ingest.finishSession(sid);
    expect(ingest.recent(sid)).toBeUndefined();
    await checkRange(T0, latest, 60);
  });
});
