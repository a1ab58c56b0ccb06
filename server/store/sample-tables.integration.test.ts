// The sample layout the app writes and reads on each backend (sample-tables.ts, docs/store.md
// "Samples on PostgreSQL"): an ingest flush lands in PostgreSQL's round rows (no samples or
// rollups table there), the retention runner packs closed hours into blocks, reads answer the
// same before and after, and a session's delete empties every table of the layout. Runs on
// the matrix's store (HOPWATCH_TEST_STORE=duckdb|postgres); the layout checks on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DomainEventBus, IngestPipeline, Store } from '../../test/support/built.js';
import { insertActiveSession } from '../ingest/testing/sessions.js';
import { openTestStore } from './testing/test-store.js';
import { countRollupRows, countSamples } from './testing/stored-rows.js';
import type * as Runner from './retention-runner.js';
import type * as Sessions from '../sessions/repository.js';
import type * as Tables from './sample-tables.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { startRetention } = (await import(dist('server/store/retention-runner.js'))) as typeof Runner;
const { deleteSessionRows } = (await import(dist('server/sessions/repository.js'))) as typeof Sessions;
const { readRawSamples, readRollupRows } = (await import(dist('server/store/sample-tables.js'))) as typeof Tables;

const onPostgres = process.env.HOPWATCH_TEST_STORE === 'postgres';
const HOUR = 3_600_000;
const HOPS = 3;
const T0 = Date.UTC(2026, 3, 1, 22);
const HOURS = 4; // across a midnight: two day partitions
const End = 8.64e15;

describe('samples and rollup rows in the store\'s layout', () => {
  let dir: string;
  let store: Awaited<ReturnType<typeof Store.open>>;
  let sid: number;
  let sent = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-sample-tables-'));
    store = await openTestStore(dir);
    const account = await store.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('l') RETURNING id`);
    sid = await insertActiveSession(store, account!.id, 'layout', T0, { intervalMs: 5_000 });
    const ingest = new IngestPipeline(store, new DomainEventBus());
    await ingest.init();
    ingest.openSession(sid, account!.id);
    for (let h = 0; h < HOURS; h++) {
      const n = (HOUR / 5_000) * HOPS;
      const time = new Float64Array(n);
      const hop = new Int32Array(n);
      const latency = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        time[i] = T0 + h * HOUR + Math.floor(i / HOPS) * 5_000;
        hop[i] = (i % HOPS) + 1;
        latency[i] = i % 17 === 0 ? -4194305 : 1 + ((i * 7) % 13) * 0.25;
      }
      await ingest.addBatch({ length: n, session: new Int32Array(n).fill(sid), time, hop, latency });
      sent += n;
    }
    await ingest.finishSession(sid);
    await ingest.close();
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tableExists = async (name: string) => (onPostgres ? (await store.one<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [name]))!.t !== null : true);

  it('writes the flushes into the layout of the backend', async () => {
    expect(await countSamples(store, { sessionId: sid })).toBe(sent);
    if (!onPostgres) return;
    // Before the wiring the flush appended to the stand-in table `samples` and sample_rounds did not exist.
    expect(await tableExists('samples')).toBe(false);
    expect(await tableExists('rollups')).toBe(false);
    const rounds = await store.one<{ n: number; samples: number }>('SELECT count(*)::DOUBLE AS n, sum(octet_length(hops))::DOUBLE AS samples FROM sample_rounds WHERE session_id = $1', [sid]);
    expect(rounds).toEqual({ n: sent / HOPS, samples: sent });
    expect((await store.one<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM rollup_rows_1m WHERE session_id = $1', [sid]))!.n).toBe(HOURS * 60 * HOPS);
    const days = await store.all<{ t: string }>(`SELECT c.relname AS t FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'sample_rounds'::regclass ORDER BY 1`);
    expect(days.length).toBe(2);
  });

  it('packs closed hours from the retention runner; reads answer the same after', async () => {
    const before = await readRawSamples(store, sid, 0, End);
    const minutesBefore = await readRollupRows(store, 60_000, sid, 0, End);
    const lines: string[] = [];
    const stop = startRetention(store, { retentionRawDays: 3650, retentionMinuteDays: 3650 }, { info: (_o, m) => lines.push(m), error: (o, m) => lines.push(`${m} ${JSON.stringify(o)}`) }, () => T0 + HOURS * HOUR + 2 * HOUR);
    // The runner's first run: expiry, then (PostgreSQL) packing into blocks, each with a log line.
    const expected = onPostgres ? 'samples: closed periods packed into blocks' : 'retention: expired raw samples and 1-minute rollups older than their tiers';
    await vi.waitFor(() => expect(lines).toContain(expected), { timeout: 30_000, interval: 100 });
    await stop();
    expect(lines.filter((l) => l.includes('failed'))).toEqual([]);
    if (onPostgres) {
      const blocks = await store.one<{ n: number }>('SELECT coalesce(sum(n), 0)::DOUBLE AS n FROM sample_blocks WHERE session_id = $1', [sid]);
      expect(blocks!.n).toBeGreaterThan(0);
      expect((await store.one<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM rollup_blocks_1m WHERE session_id = $1', [sid]))!.n).toBeGreaterThan(0);
    }
    const after = await readRawSamples(store, sid, 0, End);
    expect(Array.from(after.time)).toEqual(Array.from(before.time));
    expect(Array.from(after.hop)).toEqual(Array.from(before.hop));
    expect(Array.from(after.latency)).toEqual(Array.from(before.latency));
    const minutesAfter = await readRollupRows(store, 60_000, sid, 0, End);
    for (const k of Object.keys(minutesBefore) as (keyof typeof minutesBefore)[]) expect([k, Array.from(minutesAfter[k])]).toEqual([k, Array.from(minutesBefore[k])]);
    expect(await countSamples(store, { sessionId: sid })).toBe(sent);
  });

  it("deletes a session's samples and rollup rows from every table of the layout", async () => {
    expect(await countRollupRows(store, 'all', { sessionId: sid })).toBeGreaterThan(0);
    await store.transaction((q) => deleteSessionRows(q, [sid]));
    expect(await countSamples(store, { sessionId: sid })).toBe(0);
    expect(await countRollupRows(store, 'all', { sessionId: sid })).toBe(0);
  });
});
