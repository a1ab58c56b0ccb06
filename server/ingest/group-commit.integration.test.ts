// Group commit: batches that arrive while a flush runs share the next flush (one COMMIT),
// and each one's promise still resolves only once its samples are in the store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { insertActiveSession } from './testing/sessions.js';

import { DomainEventBus, IngestPipeline, Store } from '../../test/support/built.js';
import { openTestStore } from '../store/testing/test-store.js';
import { readRawSamples } from '../store/sample-tables.js';

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const dir = mkdtempSync(join(tmpdir(), 'hopwatch-groupcommit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function minuteOfRounds(sid: number, minute: number) {
  const n = 60 * 3;
  const b = { length: n, session: new Int32Array(n).fill(sid), time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    b.time[i] = T0 + minute * 60_000 + Math.floor(i / 3) * 1000;
    b.hop[i] = (i % 3) + 1;
    b.latency[i] = 1 + (i % 3);
  }
  return b;
}

describe('group commit', () => {
  it('commits batches sent while a flush runs together, and acknowledges each after its commit', async () => {
    const store = await openTestStore(dir);
    const ingest = new IngestPipeline(store, new DomainEventBus());
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('gc') RETURNING id`))!;
      const s = { id: await insertActiveSession(store, account.id, 'gc', T0) };
      ingest.openSession(s.id, account.id);
      const acked: number[] = [];
      const count = async () => (await readRawSamples(store, s.id, 0, 8.64e15)).length;
      const send = (m: number) => ingest.addBatch(minuteOfRounds(s.id, m)).then(async () => acked.push(await count()));
      // The first batch starts a flush; the nineteen sent while it runs wait for the next one.
      const first = send(0);
      await new Promise((r) => setImmediate(r));
      await Promise.all([first, ...Array.from({ length: 19 }, (_, m) => send(m + 1))]);
      // Each acknowledgement saw at least its own batch (and every earlier one) in the store.
      acked.forEach((n, k) => expect(n).toBeGreaterThanOrEqual((k + 1) * 180));
      expect(await count()).toBe(20 * 180);
      // One flush for the first batch, then one for the nineteen that waited: not twenty.
      expect(ingest.commits(s.id)).toBe(2);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('keeps every session of a shared flush counted and marked (one statement per kind of change)', async () => {
    const store = await openTestStore(dir);
    // Rollup rows written with every flush (not in groups), so the marks move with each one.
    const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 0 });
    try {
      await ingest.init();
      const account = (await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('gc3') RETURNING id`))!;
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c']) {
        ids.push(await insertActiveSession(store, account.id, name, T0));
        ingest.openSession(ids.at(-1)!, account.id);
      }
      // Three flushes, each holding minutes of all three sessions (session k sends k + 1 minutes).
      for (let flush = 0; flush < 3; flush++) {
        await Promise.all(ids.flatMap((sid, k) => Array.from({ length: k + 1 }, (_, m) => ingest.addBatch(minuteOfRounds(sid, flush * 3 + m)))));
      }
      const rows = await store.all<{ id: number; n: number; first: number; latest: number }>(
        `SELECT id, sample_count::INTEGER AS n, first_sample::DOUBLE AS first, latest_sample::DOUBLE AS latest FROM sessions WHERE id IN (${ids.join(', ')}) ORDER BY id`,
      );
      expect(rows).toEqual(
        ids.map((id, k) => ({ id, n: 3 * (k + 1) * 180, first: T0, latest: T0 + (6 + k) * 60_000 + 59_000 })),
      );
      // The 1-minute marks: every minute more than 15 s before the session's latest sample is closed.
      const marks = await store.all<{ s: number; c: number }>(
        `SELECT session_id AS s, closed_until AS c FROM rollup_marks WHERE resolution = 60000 AND session_id IN (${ids.join(', ')}) ORDER BY s`,
      );
      expect(marks).toEqual(ids.map((id, k) => ({ s: id, c: T0 + (6 + k) * 60_000 })));
    } finally {
      await ingest.close();
      await store.close();
    }
  });
});
