// Rollup rows go to the store in groups, not with every flush (server/ingest/pipeline.ts):
// until a group is due, the store has none of them nor their marks, yet every answer stays
// exact; when it is due, all rows that waited go in with their marks; a trickle is written
// once its oldest row has waited long enough; and a kill -9 loses no acknowledged sample,
// the rows it had not written being rolled up again at start. Through dist/ (the pipeline
// runs a Piscina worker, the crash case a child process): npm run build:server first.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { insertActiveSession } from './testing/sessions.js';
import { openTestStore, testDatabaseUrl } from '../store/testing/test-store.js';
import { countRollupRows, countSamples } from '../store/testing/stored-rows.js';
import { readRawSamples, readRollupRows } from '../store/sample-tables.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { dataPointBuckets, bucketGrid } = await import(dist('server/data/buckets.js'));
const ref = await import(dist('wasm/reference.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));

type StoreT = InstanceType<typeof Store>;
type Pipeline = InstanceType<typeof IngestPipeline>;

const HOPS = 5;
const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hopwatch-rollup-groups-'));
  dirs.push(d);
  return d;
};

/** An hour of rounds (one a second) from `from`, 4% timeouts. */
function hourOfRounds(sid: number, from: number) {
  const n = 3600 * HOPS;
  const b = { length: n, session: new Int32Array(n).fill(sid), time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    b.time[i] = from + Math.floor(i / HOPS) * 1000 + (i % HOPS);
    b.hop[i] = (i % HOPS) + 1;
    b.latency[i] = i % 25 === 3 ? LatencyCode.Timeout : 2 + (i % HOPS) + ((i * 31) % 97) / 10;
  }
  return b;
}

const count = async (store: StoreT, sql: string, params: unknown[]) => Number((await store.one(sql, params)).n);
const storedRows = (store: StoreT, sid: number) => countRollupRows(store, 'all', { sessionId: sid });
const End = 8.64e15;
const onPostgres = process.env.HOPWATCH_TEST_STORE === 'postgres';
/** The distinct (time, hop) cells of a level's stored rows of a session. */
const distinctCells = async (store: StoreT, resolution: number, sid: number) => {
  const r = await readRollupRows(store, resolution, sid, 0, End);
  return new Set(Array.from(r.time, (t, i) => `${t}:${r.hop[i]}`)).size;
};
const storedMarks = async (store: StoreT, sid: number) =>
  (await store.all('SELECT resolution, closed_until AS c FROM rollup_marks WHERE session_id = $1 ORDER BY resolution', [sid])).map((r: { c: number }) => r.c);

/** The store's marks are memory's, and it holds every closed minute up to the 1-minute mark once per hop. */
async function expectMinutesStoredOnce(store: StoreT, ingest: Pipeline, sid: number): Promise<void> {
  const marks = await storedMarks(store, sid);
  expect(marks).toEqual(ingest.recent(sid)!.marks);
  const minutes = ((marks[0] - T0) / 60_000) * HOPS;
  expect(await countRollupRows(store, 60_000, { sessionId: sid })).toBe(minutes);
  expect(await distinctCells(store, 60_000, sid)).toBe(minutes);
}

/**
 * DataPointBuckets of the last hop, from memory (with the pipeline) and from the store alone,
 * against the raw samples bucketed by the reference kernel: counts, losses, minimum, maximum.
 */
async function expectExact(store: StoreT, ingest: Pipeline | undefined, sid: number, accountId: number, from: number, to: number, periodSeconds: number) {
  const principal = { userId: 0, accountId, username: 'groups', isRoot: true, claims: [] };
  const args = { targetId: `${sid}_h_${HOPS}`, startTime: from, endTime: to, periodSeconds, includeJitter: false };
  const grid = bucketGrid(from, to, periodSeconds * 1000);
  const { time, hop, latency } = await readRawSamples(store, sid, 0, End);
  const truth = ref.referenceBucketSamples({ time, hop, latency }, { start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount: HOPS });
  for (const source of ingest ? [ingest, undefined] : [undefined]) {
    const r = await dataPointBuckets(store, principal, args, source);
    let sent = 0;
    for (const p of r.Points) {
      const c = p.UnitNumber * HOPS + HOPS - 1;
      expect([p.LatencyCount, p.LostPacketCount, p.LatencyMinimum, p.LatencyMaximum]).toEqual([
        truth.count[c],
        truth.lost[c],
        Number.isNaN(truth.min[c]) ? null : truth.min[c],
        Number.isNaN(truth.max[c]) ? null : truth.max[c],
      ]);
      sent += p.LatencyCount;
    }
    let total = 0;
    for (let b = 0; b < grid.bucketCount; b++) total += truth.count[b * HOPS + HOPS - 1];
    expect(sent).toBe(total);
  }
}

async function openSession(store: StoreT, name: string) {
  const account = await store.one(`INSERT INTO accounts (name) VALUES ($1) RETURNING id`, [name]);
  return { accountId: account.id as number, sid: await insertActiveSession(store, account.id, name, T0) };
}

describe('rollup rows written in groups', () => {
  it('keeps closed rows back until a group is due, answers exactly meanwhile, then writes them all with their marks', async () => {
    const store = await openTestStore(newDir());
    // An hour of rounds closes 300 1-minute rows, 30 10-minute and 5 1-hour rows here.
    const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1500, rollupWriteAgeMs: 3_600_000 });
    try {
      await ingest.init();
      const { accountId, sid } = await openSession(store, 'group');
      ingest.openSession(sid, accountId);
      for (let h = 0; h < 4; h++) await ingest.addBatch(hourOfRounds(sid, T0 + h * H));
      expect(await storedRows(store, sid)).toBe(0);
      expect(await storedMarks(store, sid)).toEqual([]);
      expect(ingest.unwrittenRollupRows).toBeGreaterThan(1000);
      // The sample counters wait as tallies, which sessions_counted adds to the sessions row.
      expect(await count(store, 'SELECT sample_count AS n FROM sessions WHERE id = $1', [sid])).toBe(0);
      expect(await count(store, 'SELECT sample_count AS n FROM sessions_counted WHERE id = $1', [sid])).toBe(4 * 3600 * HOPS);
      expect(await count(store, 'SELECT latest_sample AS n FROM sessions_counted WHERE id = $1', [sid])).toBe(T0 + 4 * H - 1000 + HOPS - 1);
      // Memory answers from its rollup rows; the store, without rows or marks, from raw samples.
      await expectExact(store, ingest, sid, accountId, T0, T0 + 4 * H, 60);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 4 * H, 600);

      await ingest.addBatch(hourOfRounds(sid, T0 + 4 * H)); // past 1500 rows: the group is due
      expect(ingest.unwrittenRollupRows).toBe(0);
      const folded = await store.one('SELECT sample_count::DOUBLE AS n, first_sample::DOUBLE AS f, latest_sample::DOUBLE AS l FROM sessions WHERE id = $1', [sid]);
      expect(folded).toEqual({ n: 5 * 3600 * HOPS, f: T0, l: T0 + 5 * H - 1000 + HOPS - 1 });
      expect(await count(store, 'SELECT count(*) AS n FROM sample_tallies', [])).toBe(0);
      // Every minute up to the 1-minute mark (the last 15 s stay open), one row per hop.
      await expectMinutesStoredOnce(store, ingest, sid);
      // Insertion order is time order per session and level (DuckDB's plain reads rely on it;
      // PostgreSQL's reads order blocks and plain rows themselves).
      if (!onPostgres) {
        const [times] = await store.numbers('SELECT time FROM rollups WHERE resolution = 60000 AND session_id = $1', [sid]);
        expect(times.every((t: number, i: number) => i === 0 || t >= times[i - 1])).toBe(true);
      }
      await expectExact(store, ingest, sid, accountId, T0, T0 + 5 * H, 600);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 5 * H, 3600);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('keeps unwritten rows in memory past their window, so that no range falls between memory and store', async () => {
    const store = await openTestStore(newDir());
    const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
    try {
      await ingest.init();
      const { accountId, sid } = await openSession(store, 'window');
      ingest.openSession(sid, accountId);
      // 27 hours: past the 25-hour window of 1-minute rows, none of them written.
      for (let h = 0; h < 27; h++) await ingest.addBatch(hourOfRounds(sid, T0 + h * H));
      expect(await storedRows(store, sid)).toBe(0);
      // Memory still covers the rows from the session's first minute on (the window would start at T0 + 2 h).
      expect(ingest.recent(sid)!.rowsFrom[0]).toBe(T0);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 2 * H, 60); // the first two hours: 1-minute rows
      await ingest.addBatch(hourOfRounds(sid, T0 + 27 * H));
      await ingest.close(); // written: now the window may move on
      const reopened = new IngestPipeline(store, new DomainEventBus());
      await reopened.init();
      // PostgreSQL: a replica holds a session's state once it takes the session over (its agent's link came), not from its start.
      await reopened.takeOver([sid]);
      expect(reopened.recent(sid)!.rowsFrom[0]).toBeGreaterThan(T0);
      await expectExact(store, reopened, sid, accountId, T0, T0 + 2 * H, 60);
      await reopened.close();
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('writes a trickle once its oldest row has waited, without another sample', async () => {
    const store = await openTestStore(newDir());
    const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1e9, rollupWriteAgeMs: 300 });
    try {
      await ingest.init();
      const { accountId, sid } = await openSession(store, 'trickle');
      ingest.openSession(sid, accountId);
      await ingest.addBatch(hourOfRounds(sid, T0));
      expect(await storedRows(store, sid)).toBe(0);
      const deadline = Date.now() + 5_000;
      while (ingest.unwrittenRollupRows > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(ingest.unwrittenRollupRows).toBe(0);
      expect(await storedRows(store, sid)).toBeGreaterThan(0);
      expect(await storedMarks(store, sid)).toEqual(ingest.recent(sid)!.marks);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('writes what waits when the session finishes and when ingest closes', async () => {
    const store = await openTestStore(newDir());
    let ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
    try {
      await ingest.init();
      const a = await openSession(store, 'finishing');
      const b = await openSession(store, 'closing');
      ingest.openSession(a.sid, a.accountId);
      ingest.openSession(b.sid, b.accountId);
      await Promise.all([ingest.addBatch(hourOfRounds(a.sid, T0)), ingest.addBatch(hourOfRounds(b.sid, T0))]);
      expect(await storedRows(store, a.sid)).toBe(0);
      await ingest.finishSession(a.sid); // everything of a, rolled up to its last minute, and b's rows too
      expect(await storedRows(store, a.sid)).toBe(60 * HOPS + 6 * HOPS + 1 * HOPS); // its hour, rolled up to the end: 60 minutes, 6 ten-minute and 1 hour rows per hop
      expect(await storedRows(store, b.sid)).toBeGreaterThan(0);
      await ingest.addBatch(hourOfRounds(b.sid, T0 + H));
      const before = await storedRows(store, b.sid);
      await ingest.close();
      expect(await storedRows(store, b.sid)).toBeGreaterThan(before);
      ingest = new IngestPipeline(store, new DomainEventBus());
      await ingest.init();
      await expectExact(store, ingest, b.sid, b.accountId, T0, T0 + 2 * H, 600);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('announces a flush before its rollup rows are written, and keeps the rows when that write fails', async () => {
    const store = await openTestStore(newDir());
    const events = new DomainEventBus();
    const failures: Error[] = [];
    const ingest = new IngestPipeline(store, events, { rollupWriteRows: 0, onRollupWriteError: (e: Error) => failures.push(e) });
    try {
      await ingest.init();
      const { accountId, sid } = await openSession(store, 'failing');
      ingest.openSession(sid, accountId);
      // What waits to be written when the console hears of the samples: the flush's own rows.
      const waitingAtAnnounce: number[] = [];
      events.on('HostUpdated', () => waitingAtAnnounce.push(ingest.unwrittenRollupRows));
      await ingest.addBatch(hourOfRounds(sid, T0));
      expect(waitingAtAnnounce).toHaveLength(1);
      expect(waitingAtAnnounce[0]).toBeGreaterThan(0);
      expect(ingest.unwrittenRollupRows).toBe(0);
      const written = await storedRows(store, sid);
      expect(written).toBeGreaterThan(0);

      // The rollup table is away (PostgreSQL: the 1-minute rows' table, which every group writes
      // to): the samples still commit, the rows wait in memory, and none of them was written.
      const away = onPostgres ? 'rollup_rows_1m' : 'rollups';
      await store.run(`ALTER TABLE ${away} RENAME TO rollups_away`);
      await ingest.addBatch(hourOfRounds(sid, T0 + H));
      expect(failures).toHaveLength(1);
      expect(ingest.unwrittenRollupRows).toBeGreaterThan(0);
      expect(await countSamples(store, { sessionId: sid })).toBe(2 * 3600 * HOPS);
      await store.run(`ALTER TABLE rollups_away RENAME TO ${away}`);
      expect(await storedRows(store, sid)).toBe(written);

      // The next flush writes them with its own: every closed minute once, the marks where memory has them.
      await ingest.addBatch(hourOfRounds(sid, T0 + 2 * H));
      expect(failures).toHaveLength(1);
      expect(ingest.unwrittenRollupRows).toBe(0);
      await expectMinutesStoredOnce(store, ingest, sid);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 3 * H, 60);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 3 * H, 600);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('goes on committing samples while a write of rollup rows waits, and writes the rows behind it next', async () => {
    const store = await openTestStore(newDir());
    const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 0 });
    try {
      await ingest.init();
      const { accountId, sid } = await openSession(store, 'held');
      ingest.openSession(sid, accountId);
      // The rollups' connection is busy (as with a slow commit): the write queues behind it.
      let release = () => {};
      const held = store.side(() => new Promise<void>((r) => (release = r)), 'rollups');
      const hour = hourOfRounds(sid, T0);
      for (let r = 0; r < 600; r++) for (let h = 0; h < HOPS; h++) ingest.add(sid, hour.time[r * HOPS + h], hour.hop[r * HOPS + h], hour.latency[r * HOPS + h]);
      await ingest.commit();
      // Later rounds commit while the first write still waits: 10 more minutes, flush by flush.
      for (let r = 600; r < 1200; r += 60) {
        for (let k = r; k < r + 60; k++) for (let h = 0; h < HOPS; h++) ingest.add(sid, hour.time[k * HOPS + h], hour.hop[k * HOPS + h], hour.latency[k * HOPS + h]);
        await ingest.commit();
      }
      expect(await countSamples(store, { sessionId: sid })).toBe(1200 * HOPS);
      expect(await storedRows(store, sid)).toBe(0);
      expect(ingest.unwrittenRollupRows).toBeGreaterThan(0);
      await expectExact(store, ingest, sid, accountId, T0, T0 + 20 * 60_000, 60);
      release();
      await held;
      // The waiting write goes in; a later flush starts the next one, for the rows closed behind it.
      const deadline = Date.now() + 5_000;
      while (ingest.unwrittenRollupRows > 0 && Date.now() < deadline) {
        ingest.add(sid, T0 + 20 * 60_000, 1, 5);
        await ingest.commit();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(ingest.unwrittenRollupRows).toBe(0);
      await expectMinutesStoredOnce(store, ingest, sid);
      let cells = 0;
      for (const resolution of [60_000, 600_000, 3_600_000]) cells += await distinctCells(store, resolution, sid);
      expect(await storedRows(store, sid)).toBe(cells);
      await expectExact(store, undefined, sid, accountId, T0, T0 + 20 * 60_000, 60);
    } finally {
      await ingest.close();
      await store.close();
    }
  });

  it('stores the same rows whether a flush is prepared on the calling thread or by the worker', async () => {
    const stored: unknown[][] = [];
    for (const inlineSamples of [0, Infinity]) {
      const store = await openTestStore(newDir());
      const ingest = new IngestPipeline(store, new DomainEventBus(), { inlineSamples });
      try {
        await ingest.init();
        const { accountId, sid } = await openSession(store, 'threads');
        ingest.openSession(sid, accountId);
        // Two hours in flushes of 5 minutes (1,500 samples each).
        for (let h = 0; h < 2; h++) {
          const hour = hourOfRounds(sid, T0 + h * H);
          const part = 300 * HOPS;
          for (let i = 0; i < hour.length; i += part) {
            const cut = <T extends Float64Array | Int32Array>(a: T) => a.slice(i, i + part) as T;
            await ingest.addBatch({ length: part, session: cut(hour.session), time: cut(hour.time), hop: cut(hour.hop), latency: cut(hour.latency) });
          }
        }
        await ingest.finishSession(sid);
        // Every column of every stored row, and every sample, as the store gives them back.
        const rows: unknown[] = [];
        for (const resolution of [60_000, 600_000, 3_600_000]) {
          const r = await readRollupRows(store, resolution, sid, 0, End);
          for (let i = 0; i < r.time.length; i++) rows.push([resolution, ...Object.values(r).map((c) => (c as ArrayLike<number>)[i])]);
        }
        const raw = await readRawSamples(store, sid, 0, End);
        stored.push([rows, Array.from(raw.time, (t, i) => [t, raw.hop[i], raw.latency[i]])]);
      } finally {
        await ingest.close();
        await store.close();
      }
    }
    expect((stored[0][0] as unknown[]).length).toBe(2 * (60 + 6 + 1) * HOPS);
    expect((stored[0][1] as unknown[]).length).toBe(2 * 3600 * HOPS);
    expect(stored[1]).toEqual(stored[0]);
  });

  it('loses no acknowledged sample to a kill -9, and rolls up again at start the rows it had not written', async () => {
    const dir = newDir();
    let store = await openTestStore(dir);
    const { accountId, sid } = await openSession(store, 'killed');
    await store.close();
    // On PostgreSQL the child writes to this data directory's database (the server outlives the kill).
    const url = onPostgres ? [await testDatabaseUrl(dir)] : [];
    const child = spawn(process.execPath, [fileURLToPath(new URL('./testing/ingest-until-killed.mjs', import.meta.url)), dir, String(accountId), String(sid), String(T0), '3', String(HOPS), ...url], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((r) => child.on('exit', r));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out);
      });
      child.on('exit', () => reject(new Error(`the child exited before acknowledging: ${out}`)));
    });
    const [, acked, unwritten] = /ACKED (\d+) UNWRITTEN (\d+)/.exec(line)!.map(Number);
    expect(unwritten).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await exited;

    store = await openTestStore(dir);
    const ingest = new IngestPipeline(store, new DomainEventBus(), { rollupWriteRows: 1e9, rollupWriteAgeMs: 1e9 });
    try {
      expect(await countSamples(store, { sessionId: sid })).toBe(acked);
      expect(await storedRows(store, sid)).toBe(0);
      expect(await count(store, 'SELECT sample_count AS n FROM sessions_counted WHERE id = $1', [sid])).toBe(acked);
      await ingest.init(); // the raw samples after the (absent) marks become the pending ones again
      expect(await count(store, 'SELECT sample_count AS n FROM sessions WHERE id = $1', [sid])).toBe(acked); // tallies folded
      ingest.openSession(sid, accountId);
      await ingest.addBatch(hourOfRounds(sid, T0 + 3 * H)); // closes them, with this hour's
      await expectExact(store, ingest, sid, accountId, T0, T0 + 4 * H, 600);
      await ingest.close();
      const marks = await storedMarks(store, sid);
      expect(await countRollupRows(store, 60_000, { sessionId: sid })).toBe(((marks[0] - T0) / 60_000) * HOPS);
      await expectExact(store, undefined, sid, accountId, T0, T0 + 4 * H, 600);
    } finally {
      await ingest.close();
      await store.close();
    }
  });
});
