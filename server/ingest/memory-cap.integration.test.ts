// HOPWATCH_MEMORY_SESSIONS: only that many open sessions keep recent data in memory; the
// others are answered from the store, with the same numbers. Through dist/ (Piscina worker).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertActiveSession } from './testing/sessions.js';
import { openTestStore } from '../store/testing/test-store.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { dataPointBuckets } = await import(dist('server/data/buckets.js'));

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const dir = mkdtempSync(join(tmpdir(), 'hopwatch-memcap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rounds(sid: number, from: number, to: number) {
  const time: number[] = [];
  const hop: number[] = [];
  const latency: number[] = [];
  for (let t = from; t < to; t += 1000) for (let h = 1; h <= 3; h++) (time.push(t), hop.push(h), latency.push(h + ((t / 1000) % 7)));
  const n = time.length;
  return { length: n, session: new Int32Array(n).fill(sid), time: Float64Array.from(time), hop: Int32Array.from(hop), latency: Float64Array.from(latency) };
}

describe('memory cap on recent data', () => {
  it('keeps the first session in memory, answers the second from the store, both alike', async () => {
    const store = await openTestStore(dir);
    const ingest = new IngestPipeline(store, new DomainEventBus(), { memorySessions: 1 });
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('cap') RETURNING id`))!;
      const ids: number[] = [];
      for (const name of ['a', 'b']) {
        ids.push(await insertActiveSession(store, account.id, name, T0));
        ingest.openSession(ids.at(-1)!, account.id);
      }
      for (const id of ids) await ingest.addBatch(rounds(id, T0, T0 + 20 * 60_000));
      expect(ingest.recent(ids[0])).toBeDefined();
      expect(ingest.recent(ids[1])).toBeUndefined();
      const p = { userId: 0, accountId: account.id, username: 'cap', isRoot: true, claims: [] };
      const ask = (id: number) =>
        dataPointBuckets(store, p, { targetId: `${id}_h_3`, startTime: T0, endTime: T0 + 20 * 60_000, periodSeconds: 60, includeJitter: false }, ingest);
      const [a, b] = await Promise.all(ids.map(ask));
      expect(b.Points.map((x: { LatencyCount: number }) => x.LatencyCount)).toEqual(a.Points.map((x: { LatencyCount: number }) => x.LatencyCount));
      expect(b.Points.map((x: { AverageLatency: number }) => x.AverageLatency)).toEqual(a.Points.map((x: { AverageLatency: number }) => x.AverageLatency));
      expect(a.Points.length).toBe(20);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('gives a session memory once a place frees up, with its samples not rolled up yet', async () => {
    const store = await openTestStore(join(dir, 'freed')); // a store of its own: no open sessions from the test above
    const ingest = new IngestPipeline(store, new DomainEventBus(), { memorySessions: 1, rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('cap2') RETURNING id`))!;
      const a = await insertActiveSession(store, account.id, 'a', T0);
      const b = await insertActiveSession(store, account.id, 'b', T0);
      ingest.openSession(a, account.id);
      ingest.openSession(b, account.id);
      await ingest.addBatch(rounds(a, T0, T0 + 60_000));
      await ingest.addBatch(rounds(b, T0, T0 + 20 * 60_000 + 30_000)); // its last 45 s stay open (raw only)
      expect(ingest.recent(b)).toBeUndefined();
      await ingest.finishSession(a); // frees the place
      await ingest.addBatch(rounds(b, T0 + 20 * 60_000 + 30_000, T0 + 25 * 60_000));
      expect(ingest.recent(b)).toBeDefined();
      const p = { userId: 0, accountId: account.id, username: 'cap2', isRoot: true, claims: [] };
      const args = { targetId: `${b}_h_3`, startTime: T0 + 19 * 60_000, endTime: T0 + 25 * 60_000, periodSeconds: 1, includeJitter: false };
      const memory = await dataPointBuckets(store, p, args, ingest);
      const stored = await dataPointBuckets(store, p, args);
      const counts = (r: { Points: { LatencyCount: number }[] }) => r.Points.map((x) => x.LatencyCount);
      // One sample a second for the hop, every second of the 6 minutes: from memory as from the store.
      expect(counts(memory)).toEqual(counts(stored));
      expect(counts(memory).reduce((x, y) => x + y, 0)).toBe(6 * 60);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('gives a session a console reads the window of one nobody reads, keeps a watched one, and answers alike from either', async () => {
    const store = await openTestStore(join(dir, 'watched'));
    const ingest = new IngestPipeline(store, new DomainEventBus(), { memorySessions: 1, rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('cap3') RETURNING id`))!;
      const [a, b, c] = [await insertActiveSession(store, account.id, 'a', T0), await insertActiveSession(store, account.id, 'b', T0), await insertActiveSession(store, account.id, 'c', T0)];
      for (const id of [a, b, c]) ingest.openSession(id, account.id);
      await ingest.addBatch(rounds(a, T0, T0 + 5 * 60_000)); // a starts first: the one window is a's
      await ingest.addBatch(rounds(b, T0, T0 + 5 * 60_000));
      await ingest.addBatch(rounds(c, T0, T0 + 5 * 60_000));
      // A console opens b: the first read is the store's; b takes the window at the next flush (nobody reads a).
      expect(ingest.recent(b)).toBeUndefined();
      await ingest.addBatch(rounds(b, T0 + 5 * 60_000, T0 + 10 * 60_000 + 30_000));
      expect(ingest.recent(b)).toBeDefined();
      // Another console opens c while b is still read: b keeps its window, c is answered from the store.
      expect(ingest.recent(c)).toBeUndefined();
      await ingest.addBatch(rounds(c, T0 + 5 * 60_000, T0 + 10 * 60_000 + 30_000));
      expect(ingest.recent(c)).toBeUndefined();
      expect(ingest.recent(b)).toBeDefined();
      await ingest.addBatch(rounds(a, T0 + 5 * 60_000, T0 + 10 * 60_000 + 30_000));
      expect(ingest.recent(a)).toBeUndefined(); // its window went to b: a is read from the store, exactly
      const p = { userId: 0, accountId: account.id, username: 'cap3', isRoot: true, claims: [] };
      const counts = (r: { Points: { LatencyCount: number; AverageLatency: number }[] }) => r.Points.map((x) => [x.LatencyCount, x.AverageLatency]);
      for (const id of [a, b]) {
        const args = { targetId: `${id}_h_3`, startTime: T0, endTime: T0 + 10 * 60_000 + 30_000, periodSeconds: 1, includeJitter: false };
        const answered = await dataPointBuckets(store, p, args, ingest);
        expect(counts(answered)).toEqual(counts(await dataPointBuckets(store, p, args)));
        expect(answered.Points.reduce((x: number, y: { LatencyCount: number }) => x + y.LatencyCount, 0)).toBe(630);
      }
    } finally {
      await ingest.close();
      await store.close();
    }
  });
});
