// The sessions' sample counters under concurrent writers (issue 43: several replicas, and on
// PostgreSQL flushes and folds run at once even in one): a fold of the tallies into the
// sessions rows while flushes append tallies loses none and counts none twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../store/testing/test-store.js';
import { insertActiveSession } from './testing/sessions.js';
import { appendTallies, foldTallies } from './sample-tallies.js';

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-tallies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sample tallies', () => {
  it('are folded into the sessions rows while flushes append more: every sample counted once', async () => {
    const store = await openTestStore(dir);
    try {
      const T0 = Date.UTC(2026, 10, 29);
      const sid = await insertActiveSession(store, 1, 'tallies', T0);
      let appended = 0;
      for (let round = 0; round < 40; round++) {
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 6; i++) {
          const t = T0 + round * 10 + i;
          work.push(store.transaction((_q, conn) => appendTallies(conn, [{ sessionId: sid, count: 3, first: t, last: t }])));
          appended += 3;
        }
        work.splice(3, 0, store.transaction((q) => foldTallies(q)));
        await Promise.all(work);
      }
      await store.transaction((q) => foldTallies(q));
      const row = await store.one<{ n: number; tallies: number }>('SELECT sample_count AS n, (SELECT count(*)::INTEGER FROM sample_tallies) AS tallies FROM sessions WHERE id = $1', [sid]);
      expect(row).toEqual({ n: appended, tallies: 0 });
    } finally {
      await store.close();
    }
  }, 60_000);
});
