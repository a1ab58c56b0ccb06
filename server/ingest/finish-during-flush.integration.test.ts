// A session that finishes while a flush of its samples is in progress (the console's Reset or
// Close while the trace's rounds are being committed): the flush that started before the
// finish must not forget the session, or the finishing flush behind it finds no state, rolls
// nothing up, and the next samples of the session (the trace's stop marker) start a new state
// whose marks are written over the finished ones at the next group write: the store then has
// marks past rows it never got, and a restart answers 0 for the minutes between (the
// test/api/targets-netns.test.ts "keeps every sample across a restart" failure under load).
// The interleaving is forced, not left to load: the store's queue is held while the first
// flush waits for its transaction. Through dist/ (npm run build:server first).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertActiveSession } from './testing/sessions.js';
import { openTestStore } from '../store/testing/test-store.js';
import { readRawSamples } from '../store/sample-tables.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { dataPointBuckets, bucketGrid } = await import(dist('server/data/buckets.js'));
const ref = await import(dist('wasm/reference.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));
// Raw samples as the store keeps them (microseconds, codes as small negatives), read back as ms.
const { SampleSelectColumns } = await import(dist('server/store/latency-micros.js'));

type StoreT = InstanceType<typeof Store>;
type Pipeline = InstanceType<typeof IngestPipeline>;

const HOPS = 4;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** `n` rounds, one every second from `from`, every 7th probe lost. */
function rounds(sid: number, from: number, n: number) {
  const len = n * HOPS;
  const b = { length: len, session: new Int32Array(len).fill(sid), time: new Float64Array(len), hop: new Int32Array(len), latency: new Float64Array(len) };
  for (let i = 0; i < len; i++) {
    b.time[i] = from + Math.floor(i / HOPS) * 1000;
    b.hop[i] = (i % HOPS) + 1;
    b.latency[i] = i % 7 === 3 ? LatencyCode.Timeout : 1 + (i % HOPS) + (i % 13) / 10;
  }
  return b;
}

/** Counts and losses per minute of every hop, with the pipeline's memory and from the store alone, against the raw samples. */
async function expectExact(store: StoreT, ingest: Pipeline | undefined, sid: number, accountId: number, from: number, to: number) {
  const principal = { userId: 0, accountId, username: 'finish', isRoot: true, claims: [] };
  const grid = bucketGrid(from, to, 60_000);
  const { time, hop, latency } = await readRawSamples(store, sid, 0, 8.64e15);
  const truth = ref.referenceBucketSamples({ time, hop, latency }, { start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount: HOPS });
  for (const source of ingest ? [ingest, undefined] : [undefined]) {
    for (let h = 1; h <= HOPS; h++) {
      const r = await dataPointBuckets(store, principal, { targetId: `${sid}_h_${h}`, startTime: from, endTime: to, periodSeconds: 60, includeJitter: false }, source);
      // Buckets without data have no point: they count 0.
      const got = Array.from({ length: grid.bucketCount }, () => [0, 0]);
      for (const p of r.Points as { UnitNumber: number; LatencyCount: number; LostPacketCount: number }[]) got[p.UnitNumber] = [p.LatencyCount, p.LostPacketCount];
      const want = Array.from({ length: grid.bucketCount }, (_, b) => [truth.count[b * HOPS + h - 1], truth.lost[b * HOPS + h - 1]]);
      expect(got, `hop ${h}, ${source ? 'memory' : 'store'}`).toEqual(want);
    }
  }
}

describe('a session finished while a flush of its samples is in progress', () => {
  it('is rolled up completely and forgotten, and its samples are all counted after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hopwatch-finish-race-'));
    dirs.push(dir);
    let store = await openTestStore(dir);
    // Groups large and old enough never to be due by themselves: only the finish writes them.
    let ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
    let accountId = 0;
    let sid = 0;
    try {
      await ingest.init();
      accountId = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('finish') RETURNING id`))!.id;
      sid = await insertActiveSession(store, accountId, 'finish', T0);
      ingest.openSession(sid, accountId);

      // Hold the store: the first flush takes its batch, runs its worker task, then waits here.
      let release!: () => void;
      const held = store.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
      const first = ingest.addBatch(rounds(sid, T0, 90)); // 08:00:00 to 08:01:29
      await new Promise((resolve) => setImmediate(resolve)); // the flush has its batch (and its view of the session)
      // Meanwhile the trace stops (TraceRunner.finish): its stop marker round, a minute after
      // its last round (a long trace interval), then the finish.
      for (let h = 1; h <= HOPS; h++) ingest.add(sid, T0 + 150_000, h, LatencyCode.StopStart);
      const marker = ingest.commit();
      const finished = ingest.finishSession(sid);
      release();
      await Promise.all([held, first, marker, finished]);

      // Finished: forgotten by the pipeline, every level rolled up past the last sample.
      expect(ingest.recent(sid)).toBeUndefined();
      const marks = (await store.all<{ c: number }>('SELECT closed_until AS c FROM rollup_marks WHERE session_id = $1 ORDER BY resolution', [sid])).map((r: { c: number }) => r.c);
      expect(marks).toHaveLength(3);
      for (const m of marks) expect(m).toBeGreaterThan(T0 + 150_000);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 180_000);

      // A clean stop and start: the same answers from the store.
      await ingest.close();
      await store.close();
      store = await openTestStore(dir);
      ingest = new IngestPipeline(store, new DomainEventBus());
      await ingest.init();
      await expectExact(store, undefined, sid, accountId, T0, T0 + 180_000);
    } finally {
      await ingest.close();
      await store.close();
    }
  });
});
