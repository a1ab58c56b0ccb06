// DataPointBuckets of a range read from the store's 1-minute rollup rows (sources.ts
// storePieces: every column of the graph's hop, the lean columns of all hops with that hop
// skipped) answers exactly what one read of every column of every hop answers (kept below);
// also when it answers from the cache of closed rows (server/store/closed-reads.ts), and as
// the bucket kernel over the raw samples does. On
// rows with Timeouts, NotParticipating, start/stop markers, minutes where a hop only timed
// out (NULL statistics) and minutes where a hop has no row at all. Through dist/ (the WASM
// kernels are built there): npm run build first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../store/testing/test-store.js';
import { countRollupRows } from '../store/testing/stored-rows.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { dataPointBuckets, bucketGrid, toPoints, maxHopOf } = await import(dist('server/data/buckets.js'));
const { queryKernels } = await import(dist('server/data/kernels.js'));
const { prepareRollupWrite, writeRollupRows, readRollupRows } = await import(dist('server/store/sample-tables.js'));
const { rollupRowsFromBuckets, rowsFromColumns, rowsFromStoredColumns, partsInTimeOrder, concatRollupRows } = await import(dist('server/rollups/rows.js'));
const { RollupSelectColumns, RollupStoredColumns } = await import(dist('server/rollups/sql.js'));
const { addPieces, coverPieces } = await import(dist('server/data/sources.js'));
const { closedReads, ClosedReads } = await import(dist('server/store/closed-reads.js'));
const { deleteForGood } = await import(dist('server/sessions/service.js'));
const { toStoredPrecision } = await import(dist('server/store/latency-micros.js'));
const { loadKernels } = await import(dist('wasm/loader.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));

const HOPS = 8;
const TARGET_HOP = 6; // hops 7 and 8 only come from rounds that lost the probe at the target's TTL
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const MINUTES = 180;
const END = T0 + MINUTES * 60_000;

let seed = 7;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;

/** Rounds every 2 s with the special codes a store holds, and gaps. */
function history() {
  const time: number[] = [];
  const hop: number[] = [];
  const latency: number[] = [];
  for (let t = T0; t < END; t += 2000) {
    const minute = Math.floor((t - T0) / 60_000);
    const stopStart = minute === 40 && t % 60_000 === 0; // a trace stopped and started again
    for (let h = 1; h <= HOPS; h++) {
      if (h === 3 && minute >= 50 && minute < 53) continue; // no row at all for hop 3 in these minutes
      if (h > TARGET_HOP && rnd() > 0.1) continue;
      const x = rnd();
      let v: number;
      if (stopStart) v = LatencyCode.StopStart;
      else if (h === 4 && minute >= 20 && minute < 26) v = LatencyCode.Timeout; // only timeouts: NULL min, max, first
      else if (x < 0.06) v = LatencyCode.Timeout;
      else if (x < 0.09) v = LatencyCode.NotParticipating;
      else v = toStoredPrecision(1 + h * 1.3 + rnd() * 12.345678);
      time.push(t + h);
      hop.push(h);
      latency.push(v);
    }
  }
  return { time: Float64Array.from(time), hop: Int32Array.from(hop), latency: Float64Array.from(latency) };
}

let dir: string;
let store: InstanceType<typeof Store>;
let sid: number;
let principal: { userId: number; accountId: number; username: string; isRoot: boolean; claims: string[] };
let samples: ReturnType<typeof history>;

/** A session with the 1-minute rows of `samples`, closed up to END. */
async function sessionWithRows(accountId: number): Promise<number> {
  const row = await store.one(
    `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
     VALUES ($1, 'store-read', '', '10.0.0.6', 2, 0, 2000, $2) RETURNING id`,
    [accountId, T0],
  );
  const id: number = row.id;
  for (let h = 1; h <= TARGET_HOP; h++) await store.run(`INSERT INTO hosts (session_id, hop, address, updated_at) VALUES ($1, $2, $3, 0)`, [id, h, `10.0.0.${h}`]);
  // The 1-minute rows as the ingest worker makes them (the bucket kernel over the samples).
  const minutes = rollupRowsFromBuckets(loadKernels().bucketSamples(samples, { start: T0, period: 60_000, bucketCount: MINUTES, hopCount: HOPS }));
  const sets = [{ resolution: 60_000, sessionId: id, rows: minutes }];
  await prepareRollupWrite(store, sets);
  await store.transaction(async (q: { run: (sql: string, p: unknown[]) => Promise<void> }, conn: unknown) => {
    await writeRollupRows(conn, sets);
    await q.run('INSERT INTO rollup_marks (resolution, session_id, closed_until) VALUES (60000, $1, $2)', [id, END]);
  });
  return id;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-store-read-'));
  store = await openTestStore(dir);
  const account = await store.one(`INSERT INTO accounts (name) VALUES ('store-read') RETURNING id`);
  principal = { userId: 0, accountId: account.id, username: 'store-read', isRoot: true, claims: [] };
  samples = history();
  sid = await sessionWithRows(account.id);
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** PostgreSQL's layout (sample-tables.ts) instead of DuckDB's rollups table. */
const onPostgres = process.env.HOPWATCH_TEST_STORE === 'postgres';
// The statements of rollup rows, as each backend spells them: DuckDB's rollups table with
// `hop = $5` for one hop; PostgreSQL's blocks and plain rows (one statement) with `hop = $6`,
// and no `detail` (NULL::bytea) for the lean columns.
const isRowRead = (q: string) => q.includes('FROM rollups') || q.includes('rollup_rows_1m');
const isHopRead = (q: string) => q.includes(onPostgres ? 'hop = $6' : 'hop = $5');
const isEveryColumn = (q: string) => (onPostgres ? !q.includes('NULL::bytea') : q.includes(' min') || q.includes('jitter_sum'));

/** The points from one read of every column of every hop (the read from 2026-11-27 to 2026-11-28). */
async function everyColumn(targetId: string, from: number, to: number, periodSeconds: number, includeJitter: boolean) {
  const requestedHop = Number(targetId.split('_h_')[1]);
  const grid = bucketGrid(from, to, periodSeconds * 1000);
  const end = grid.start + grid.bucketCount * grid.period;
  expect(grid.resolution).toBe(60_000);
  expect(end).toBeLessThanOrEqual(END); // one segment of 1-minute rows, nothing else
  const rows: unknown[] = [await readRollupRows(store, 60_000, sid, grid.start, end)];
  const hopCount: number = Math.max(1, requestedHop, ...rows.map((r) => maxHopOf({ kind: 'rows', rows: r })));
  const acc = queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount });
  for (const r of rows) acc.addRollups(r);
  return toPoints(acc.finishBuckets(), requestedHop || undefined, includeJitter, TARGET_HOP);
}

/** Store access for coverPieces that notes every statement it runs. */
function countingReads() {
  const statements: string[] = [];
  const counting = <T>(fn: (q: unknown) => Promise<T>) =>
    store.read((q: Record<string, (sql: string, p: unknown[]) => Promise<unknown>>) =>
      fn(
        new Proxy(q, {
          get: (t, k) => {
            const v = t[k as string] as unknown;
            // PostgreSQL's sample layout reads on the pool itself (Queryable.pg): its statements too.
            if (k === 'pg' && v) {
              const pg = v as { query: (c: string | { text: string }, p?: unknown[]) => Promise<unknown> };
              return { query: (c: string | { text: string }, p?: unknown[]) => (statements.push(typeof c === 'string' ? c : c.text), pg.query(c, p)) };
            }
            return typeof v === 'function' ? (sql: string, p: unknown[]) => (statements.push(sql), t[k as string](sql, p)) : v;
          },
        }),
      ),
    );
  return { counting, statements };
}

describe('DataPointBuckets from the stored 1-minute rows', () => {
  const cases: Array<[string, number, number, number]> = [
    ['whole range, 60 s', T0, END, 60],
    ['whole range, 120 s', T0, END, 120],
    ['whole range, 180 s', T0, END, 180],
    ['whole range, 240 s', T0, END, 240],
    ['unaligned start, 180 s', T0 + 7 * 60_000 + 1234, T0 + 127 * 60_000, 180],
  ];
  for (const [label, from, to, periodSeconds] of cases) {
    it(`answers as a read of every column of every hop does: ${label}`, async () => {
      // The first call reads its hop whole and the lean columns of all; the later ones find the
      // lean columns in the cache and read their own hop (the same hop again: all cached).
      closedReads(store).clear();
      let compared = 0;
      for (const hop of [0, 1, 3, 4, TARGET_HOP, 8]) {
        for (const includeJitter of [true, false]) {
          const targetId = `${sid}_h_${hop}`;
          const now = await dataPointBuckets(store, principal, { targetId, startTime: from, endTime: to, periodSeconds, includeJitter });
          const old = await everyColumn(targetId, from, to, periodSeconds, includeJitter);
          expect(now.Points.length).toBeGreaterThan(0);
          expect(now.Points).toEqual(old);
          compared += now.Points.length;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('the data hold what the comparison is about', async () => {
    const args = { targetId: `${sid}_h_4`, startTime: T0, endTime: END, periodSeconds: 180, includeJitter: true };
    const points = (await dataPointBuckets(store, principal, args)).Points;
    // Only timeouts at hop 4 in minutes 20 to 25: no minimum, every probe lost.
    const timedOut = points.find((p: { UnitNumber: number }) => p.UnitNumber === 7);
    expect(timedOut.LatencyMinimum).toBeNull();
    expect(timedOut.LostPacketCount).toBe(timedOut.LatencyCount);
    expect(points.some((p: { IsStartTrace: boolean }) => p.IsStartTrace)).toBe(true);
    expect(points.some((p: { HasNotParticipating: boolean }) => p.HasNotParticipating)).toBe(true);
    expect(points.some((p: { Jitter: number | null }) => p.Jitter !== null && p.Jitter > 0)).toBe(true);
  });

  // DuckDB's table read both ways; PostgreSQL's conversion is held to DuckDB's answers by
  // server/store/postgres/samples.integration.test.ts.
  it.skipIf(onPostgres)('converts the stored columns to ms in JS exactly as SQL did (every row, column and hop)', async () => {
    const where = 'FROM rollups WHERE resolution = 60000 AND session_id = $1';
    const bySql = concatRollupRows(partsInTimeOrder((await store.numberChunks(`SELECT ${RollupSelectColumns} ${where}`, [sid])).map(rowsFromColumns)));
    const byJs = concatRollupRows(partsInTimeOrder((await store.numberChunks(`SELECT ${RollupStoredColumns} ${where}`, [sid])).map(rowsFromStoredColumns)));
    expect(byJs.time.length).toBeGreaterThan(MINUTES * TARGET_HOP - 3); // hop 3 has no row in minutes 50 to 52
    for (const k of Object.keys(bySql)) expect([k, Array.from(byJs[k])]).toEqual([k, Array.from(bySql[k])]);
    // The columns hold what the conversion is about: codes in `last`, NULL minimums.
    expect(Array.from(byJs.last).some((v) => (v as number) < -4194304)).toBe(true);
    expect(Array.from(byJs.min).some((v) => Number.isNaN(v as number))).toBe(true);
  });

  it('answers as the bucket kernel over the raw samples does', async () => {
    closedReads(store).clear();
    for (const [from, to, periodSeconds] of [
      [T0, END, 180],
      [T0 + 7 * 60_000 + 1234, T0 + 127 * 60_000, 120],
    ]) {
      const grid = bucketGrid(from, to, periodSeconds * 1000);
      for (const hop of [1, 4, TARGET_HOP]) {
        const stored = (await dataPointBuckets(store, principal, { targetId: `${sid}_h_${hop}`, startTime: from, endTime: to, periodSeconds, includeJitter: true })).Points;
        const raw = toPoints(loadKernels().bucketSamples(samples, { start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount: HOPS }), hop, true, TARGET_HOP);
        expect(stored.length).toBe(raw.length);
        expect(stored.length).toBeGreaterThan(0);
        // Sums of other bucketings of the same values: the last bits of a float may differ.
        const close = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)));
        const latencyKeys = ['AverageLatency', 'Jitter', 'FirstLatency', 'LatencyMinimum', 'LatencyMaximum'];
        stored.forEach((p: Record<string, unknown>, i: number) => {
          const r = raw[i] as Record<string, unknown>;
          for (const k of Object.keys(r)) {
            if (latencyKeys.includes(k)) expect([k, close(p[k] as number | null, r[k] as number | null)]).toEqual([k, true]);
            else if (k === 'RouteHostLatencies') (p[k] as (number | null)[]).forEach((v, h) => expect(close(v, (r[k] as (number | null)[])[h])).toBe(true));
            else expect([k, p[k]]).toEqual([k, r[k]]);
          }
        });
      }
    }
  });

  it('reads the rows of a closed range from the store once; the next read gets the same rows from the cache', async () => {
    const cache = new ClosedReads();
    const { counting, statements } = countingReads();
    const grid = bucketGrid(T0, END, 180_000);
    const first = await coverPieces(counting, sid, grid.start, END, grid.resolution, grid, undefined, undefined, cache);
    const rowReads = () => statements.filter(isRowRead).length;
    expect(rowReads()).toBe(1);
    const second = await coverPieces(counting, sid, grid.start, END, grid.resolution, grid, undefined, undefined, cache);
    expect(rowReads()).toBe(1); // only the marks were read again
    expect(second).toEqual(first);
    expect(cache.size).toBe(1);
    // Another range is another read.
    await coverPieces(counting, sid, grid.start + 60_000, END, grid.resolution, grid, undefined, undefined, cache);
    expect(rowReads()).toBe(2);
  });

  it("reads a graph's hop whole and the lean columns of all once; another hop's graph reads only its own hop", async () => {
    const cache = new ClosedReads();
    const { counting, statements } = countingReads();
    const grid = bucketGrid(T0, END, 180_000);
    const read = (hop?: number) => coverPieces(counting, sid, grid.start, END, grid.resolution, grid, undefined, undefined, cache, hop);
    const rowReads = () => statements.filter(isRowRead);
    const points = (pieces: unknown[], hop: number) => {
      const acc = addPieces(queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount: HOPS }), pieces);
      return toPoints(acc.finishBuckets(), hop, true, TARGET_HOP);
    };
    const four = await read(4);
    expect(rowReads().length).toBe(2);
    expect(rowReads().filter(isHopRead).length).toBe(1);
    expect(rowReads().filter(isHopRead).every(isEveryColumn)).toBe(true); // the hop's own read
    expect(rowReads().filter((q) => !isHopRead(q)).every((q) => !isEveryColumn(q))).toBe(true); // lean
    expect(points(four, 4)).toEqual(await everyColumn(`${sid}_h_4`, T0, END, 180, true));
    await read(4);
    expect(rowReads().length).toBe(2);
    const one = await read(1);
    expect(rowReads().length).toBe(3); // hop 1's own rows only
    expect(points(one, 1)).toEqual(await everyColumn(`${sid}_h_1`, T0, END, 180, true));
    // Every column of every hop, once read (a grid row, an insight), serves any graph.
    cache.clear();
    const all = await read();
    const before = rowReads().length;
    expect(await read(3)).toEqual(all);
    expect(rowReads().length).toBe(before);
  });

  it('forgets the cached rows of a deleted session', async () => {
    const other = await sessionWithRows(principal.accountId);
    const cache = closedReads(store);
    cache.clear();
    await dataPointBuckets(store, principal, { targetId: `${other}_h_1`, startTime: T0, endTime: END, periodSeconds: 180, includeJitter: false });
    expect(cache.size).toBe(2); // hop 1 whole, the lean columns of all
    await deleteForGood({ store }, [other]);
    expect(cache.size).toBe(0);
    expect(await countRollupRows(store, 'all', { sessionId: other })).toBe(0);
  });
});
