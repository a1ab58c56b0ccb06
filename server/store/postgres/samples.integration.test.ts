// Samples and rollup rows on PostgreSQL (docs/store.md "Samples on PostgreSQL") answer exactly
// what DuckDB answers for the same data: the same history goes through the real ingest path
// into DuckDB, and its batches (samples) and its stored rollup rows into PostgreSQL through
// this backend's writes (binary COPY); part of it is packed into blocks, part stays plain, and
// a late round arrives for an hour already packed. For ranges across packed and plain data and
// across day partitions, the kernels' inputs (raw samples, rollup rows as stored, reduced onto
// the grid, one hop's and the lean columns of all) are compared value by value, and the
// answers bucketed from them (DataPointBuckets' points, TraceGraphRows' row statistics) to the
// bit. Then retention drops a day's partitions. Against a real PostgreSQL 15
// (test/support/postgres.ts); the DuckDB side through dist/ (npm run build first).
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../../../test/support/postgres.js';
import { DomainEventBus, IngestPipeline, Store } from '../../../test/support/built.js';
import { createSamplesSchema, listDays, SampleBlocks, SampleRounds, MinuteRollupRows, MinuteRollupBlocks, DayMs } from './samples-schema.js';
import { copyRollups, copySamples, prepareRollupDays, prepareSampleDays } from './samples-write.js';
import type { RollupSet } from '../../rollups/append.js';
import { packClosed } from './samples-pack.js';
import { pgCover } from './samples-pieces.js';
import { readSamples } from './samples-read.js';
import { expireMinuteRollupDays, expireSampleDays, sampleCounts, sampleTableBytes } from './samples-retention.js';
import type { SampleBatch } from '../../ingest/sample-columns.js';

const dist = (p: string) => new URL(`../../../dist/${p}`, import.meta.url).href;
const { bucketGrid, toPoints, maxHopOf } = await import(dist('server/data/buckets.js'));
const { queryKernels } = await import(dist('server/data/kernels.js'));
const { cover, closedMarks, addPieces } = await import(dist('server/data/sources.js'));
const { rowsFromStoredColumns } = await import(dist('server/rollups/rows.js'));
const { RollupStoredColumns } = await import(dist('server/rollups/sql.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));
const { appendSamples } = await import(dist('server/ingest/appenders.js'));

const HOPS = 6;
const INTERVAL = 5000;
// 20:00 on the 5th to 03:00 on the 7th (UTC): two midnights, three day partitions.
const T0 = Date.UTC(2026, 0, 5, 20, 0, 0);
const END = T0 + 31 * 3_600_000;
const Midnight1 = Date.UTC(2026, 0, 6);
const Midnight2 = Date.UTC(2026, 0, 7);
// Rounds that come late, after their hour was packed, for both sessions: the first before
// the second packing run (a second block of that hour), the second after it (a plain round).
const LateTime = Date.UTC(2026, 0, 6, 5, 17, 31);
const LateTime2 = LateTime + 10_000;

let seed = 11;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;

/** Batches of an hour of rounds: codes, a stop/start marker, a hop missing for a while. */
function history(sessionId: number, from: number, to: number): SampleBatch[] {
  const batches: SampleBatch[] = [];
  for (let a = from; a < to; a += 3_600_000) {
    const time: number[] = [];
    const hop: number[] = [];
    const latency: number[] = [];
    for (let t = a; t < Math.min(to, a + 3_600_000); t += INTERVAL) {
      const minute = Math.floor((t - T0) / 60_000);
      for (let h = 1; h <= HOPS; h++) {
        if (h === 3 && minute % 97 < 4) continue; // no sample of hop 3 for a few minutes
        const x = rnd();
        let v: number;
        if (minute === 400 && t % 60_000 === 0) v = LatencyCode.StopStart;
        else if (h === 4 && minute % 211 < 5) v = LatencyCode.Timeout; // only timeouts: NULL statistics
        else if (x < 0.05) v = LatencyCode.Timeout;
        else if (x < 0.07) v = LatencyCode.NotParticipating;
        else v = 1 + h * 1.7 + rnd() * 9.87654321;
        time.push(t);
        hop.push(h);
        latency.push(v);
      }
    }
    batches.push(batchOf(sessionId, time, hop, latency));
  }
  return batches;
}

const batchOf = (sessionId: number, time: number[], hop: number[], latency: number[]): SampleBatch => ({
  length: time.length,
  session: new Int32Array(time.length).fill(sessionId),
  time: Float64Array.from(time),
  hop: Int32Array.from(hop),
  latency: Float64Array.from(latency),
});

const lateRound = (sessionId: number, time = LateTime) =>
  batchOf(
    sessionId,
    Array.from({ length: HOPS }, () => time),
    Array.from({ length: HOPS }, (_, i) => i + 1),
    Array.from({ length: HOPS }, (_, i) => 3.25 + i),
  );

let server: ThrowawayPostgres;
let pool: pg.Pool;
let dir: string;
let store: Awaited<ReturnType<typeof Store.open>>;
let sessions: number[] = [];
const pgUp = postgresInstalled();

/** As ingest writes: the day partitions first, then a transaction of its own. */
async function writeSamples(b: SampleBatch): Promise<void> {
  await prepareSampleDays(pool, b);
  await pgWrite((c) => copySamples(c, b));
}

async function writeRollups(sets: RollupSet[]): Promise<void> {
  await prepareRollupDays(pool, sets);
  await pgWrite((c) => copyRollups(c, sets));
}

async function pgWrite(fn: (c: pg.PoolClient) => Promise<void>): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await fn(c);
    await c.query('COMMIT');
  } finally {
    c.release();
  }
}

beforeAll(async () => {
  if (!pgUp) return;
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
  await createSamplesSchema(pool);
  dir = mkdtempSync(join(tmpdir(), 'hopwatch-pg-samples-'));
  store = await Store.open(dir);
  const account = (await store.one(`INSERT INTO accounts (name) VALUES ('pg-samples') RETURNING id`)) as { id: number };
  const ingest = new IngestPipeline(store, new DomainEventBus());
  await ingest.init();
  // Session 1 ends at END and is finished (rolled up whole); session 2 starts an hour later
  // and stays open (its last periods are not rolled up, its rows wait for their marks).
  for (const [k, from] of [T0, T0 + 3_600_000].entries()) {
    const row = (await store.one(
      `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
       VALUES ($1, $2, '', '10.0.0.${HOPS}', 1, 0, ${INTERVAL}, $3) RETURNING id`,
      [account.id, `pg-${k}`, from],
    )) as { id: number };
    const id = row.id;
    sessions.push(id);
    for (let h = 1; h <= HOPS; h++) await store.run(`INSERT INTO hosts (session_id, hop, address, updated_at) VALUES ($1, $2, $3, 0)`, [id, h, `10.0.0.${h}`]);
    ingest.openSession(id, account.id);
    for (const b of history(id, from, END)) {
      await ingest.addBatch(b);
      await writeSamples(b);
    }
  }
  await ingest.finishSession(sessions[0]);
  // Packed up to 15 minutes before each session's newest round: the last hour stays plain.
  await packClosed(pool);
  // The late round: into DuckDB through the pipeline, into PostgreSQL plain, after its hour was packed.
  for (const id of sessions) {
    await ingest.addBatch(lateRound(id));
    await writeSamples(lateRound(id));
  }
  await ingest.close();
  // The rollup rows DuckDB holds now, written to PostgreSQL as the pipeline hands them over.
  for (const id of sessions) {
    for (const resolution of [60_000, 600_000, 3_600_000]) {
      const rows = rowsFromStoredColumns(
        await store.numbers(`SELECT ${RollupStoredColumns} FROM rollups WHERE resolution = $1 AND session_id = $2 ORDER BY time, hop`, [resolution, id]),
      );
      // In groups, as ingest writes them: the first half, then the rest.
      const n = rows.time.length;
      const half = (part: 0 | 1) => Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, (v as Float64Array).slice(part ? n >> 1 : 0, part ? n : n >> 1)]));
      for (const part of [0, 1] as const) await writeRollups([{ resolution, sessionId: id, rows: half(part) as never }]);
    }
  }
  // Rollups packed but each level's newest period; samples up to 15 minutes before the newest.
  await packClosed(pool);
  // The second late round, after that: plain in PostgreSQL; appended to DuckDB's samples as a
  // flush appends them.
  for (const id of sessions) {
    await store.transaction((_q: unknown, conn: unknown) => appendSamples(conn, lateRound(id, LateTime2)));
    await writeSamples(lateRound(id, LateTime2));
  }
}, 240_000);

afterAll(async () => {
  await pool?.end();
  server?.stop();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Rows = Record<string, ArrayLike<number>>;
type Piece = { kind: 'samples'; samples: Rows & { length: number } } | { kind: 'rows'; rows: Rows; skipHop?: number };

/** A bag of pieces of one kind as one list of rows in time, then hop order (each column's values). */
function bag(pieces: Piece[], which: (p: Piece) => boolean): Record<string, number[]> {
  const rows: Record<string, number>[] = [];
  for (const p of pieces.filter(which)) {
    const cols = p.kind === 'rows' ? p.rows : p.samples;
    const keys = Object.keys(cols).filter((k) => ArrayBuffer.isView(cols[k]));
    const n = (cols.time as ArrayLike<number>).length;
    for (let i = 0; i < n; i++) rows.push(Object.fromEntries(keys.map((k) => [k, cols[k][i]])));
  }
  rows.sort((a, b) => a.time - b.time || a.hop - b.hop);
  const out: Record<string, number[]> = {};
  for (const r of rows) for (const [k, v] of Object.entries(r)) (out[k] ??= []).push(v);
  return out;
}

/** Both backends' pieces of a range, and their answers. */
async function both(sid: number, from: number, to: number, periodMs: number, detailHop?: number) {
  const grid = bucketGrid(from, to, periodMs);
  const end = grid.start + grid.bucketCount * grid.period;
  const marks: number[] = await store.read((q: unknown) => closedMarks(q, sid));
  const duck: Piece[] = await store.read((q: unknown) => cover(q, sid, grid.start, end, grid.resolution, marks, grid, undefined, detailHop));
  const ours = (await pgCover(pool, sid, grid.start, end, grid.resolution, marks, grid, detailHop)) as unknown as Piece[];
  const answer = (pieces: Piece[]) => {
    const hopCount = Math.max(1, detailHop ?? 1, ...pieces.map((p) => maxHopOf(p)));
    const acc = addPieces(queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount }), pieces);
    return toPoints(acc.finishBuckets(), detailHop, true, HOPS);
  };
  // TraceGraphRows' statistics: the whole range as one cell per hop, every level allowed.
  const rowStats = async (pieces: () => Promise<Piece[]>) => {
    const p = await pieces();
    const hopCount = Math.max(1, ...p.map((x) => maxHopOf(x)));
    const r = addPieces(queryKernels().beginRowStats({ from, to }, hopCount), p).finishRowStats();
    return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v]));
  };
  const wholeGrid = { start: from, period: to - from };
  const duckStats = await rowStats(() => store.read((q: unknown) => cover(q, sid, from, to, Infinity, marks, wholeGrid)));
  const ourStats = await rowStats(async () => (await pgCover(pool, sid, from, to, Infinity, marks, wholeGrid)) as unknown as Piece[]);
  return { duck, ours, duckPoints: answer(duck), ourPoints: answer(ours), duckStats, ourStats };
}

describe.skipIf(!pgUp)('samples on PostgreSQL answer as DuckDB does', () => {
  it('holds what the comparison is about: packed blocks, plain rows, three day partitions, a late round', async () => {
    const blocks = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${SampleBlocks.name}`);
    const rounds = await pool.query<{ n: string; late: string }>(`SELECT count(*) AS n, count(*) FILTER (WHERE time = $1) AS late FROM ${SampleRounds.name}`, [LateTime2]);
    expect(Number(blocks.rows[0].n)).toBeGreaterThan(100);
    expect(Number(rounds.rows[0].n)).toBeGreaterThan(100); // the newest quarter of an hour or more of each session
    expect(Number(rounds.rows[0].late)).toBe(2); // the second late round of each session, plain beside its packed hour
    // The first late round packed into a second block of its hour, for every hop and session.
    const lateHour = Math.floor(LateTime / 3_600_000) * 3_600_000;
    const perHop = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${SampleBlocks.name} WHERE period = $1 GROUP BY session_id, hop`, [lateHour]);
    expect(perHop.rows.map((r) => Number(r.n))).toEqual(Array.from({ length: 2 * HOPS }, () => 2));
    expect(await listDays(pool, SampleRounds)).toEqual([Midnight1 / DayMs - 1, Midnight1 / DayMs, Midnight2 / DayMs]);
    expect((await listDays(pool, SampleBlocks)).length).toBe(3);
    expect((await listDays(pool, MinuteRollupBlocks)).length).toBe(3);
    expect((await listDays(pool, MinuteRollupRows)).length).toBeGreaterThan(0); // each session's newest hour of 1-minute rows
    const duckCount = (await store.one('SELECT count(*)::DOUBLE AS n FROM samples')) as { n: number };
    expect((await sampleCounts(pool, 0)).samples).toBe(duckCount.n);
    const sizes = await sampleTableBytes(pool);
    expect(sizes.filter((s) => s.bytes > 0).map((s) => s.table)).toEqual(sizes.map((s) => s.table));
  });

  const H = 3_600_000;
  const cases: Array<[string, number, number, number, number | undefined]> = [
    ['31 h into 5-minute buckets (1-minute rows reduced in SQL / JS), across both midnights', T0, END, 300_000, HOPS],
    ['24 h at 144 s (rows as stored: one hop whole, the lean columns of all), across a midnight', Midnight1 - 12 * H, Midnight1 + 12 * H, 144_000, 4],
    ['the same without a hop (every column of every hop)', Midnight1 - 12 * H, Midnight1 + 12 * H, 144_000, undefined],
    ['2 h at 10 s, unaligned, across the second midnight (raw edges, 1-minute rows)', Midnight2 - H - 7_777, Midnight2 + H + 1_234, 10_000, 3],
    ['10 minutes at 1 s around the late round (two blocks and a plain round of one hour)', LateTime - 300_000, LateTime + 300_000, 1_000, 2],
    ['the newest 2 h (packed and plain samples, open periods) at 5 s', END - 2 * H, END + 60_000, 5_000, HOPS],
    ['31 h at 20 minutes (10-minute rows)', T0 - H, END + H, 1_200_000, 1],
    ['31 h at 2 hours (1-hour rows)', T0 - H, END + H, 7_200_000, HOPS],
  ];
  for (const [label, from, to, period, hop] of cases) {
    it(`${label}: the same kernel inputs and the same answers`, async () => {
      for (const sid of sessions) {
        const r = await both(sid, from, to, period, hop);
        const kinds: Array<[string, (p: Piece) => boolean]> = [
          ['samples', (p) => p.kind === 'samples'],
          ['rows', (p) => p.kind === 'rows' && p.skipHop === undefined],
          ['lean rows', (p) => p.kind === 'rows' && p.skipHop !== undefined],
        ];
        for (const [kind, which] of kinds) expect([kind, bag(r.ours, which)]).toEqual([kind, bag(r.duck, which)]);
        expect(r.ours.length).toBeGreaterThan(0);
        expect(r.duckPoints.length).toBeGreaterThan(0);
        expect(r.ourPoints).toEqual(r.duckPoints);
        expect(r.ourStats).toEqual(r.duckStats);
      }
    });
  }

  it('reads a range of raw samples exactly as DuckDB holds them (every sample of the late hour)', async () => {
    for (const sid of sessions) {
      const from = Math.floor(LateTime / H) * H;
      const ours = await readSamples(pool, sid, from, from + H);
      const duck = await store.numbers(`SELECT time, hop, CASE WHEN latency < 0 THEN latency - 4194304 ELSE latency::DOUBLE / 1000 END FROM samples WHERE session_id = $1 AND time >= $2 AND time < $3 ORDER BY time, hop`, [sid, from, from + H]);
      expect(ours.length).toBe(duck[0].length);
      expect(Array.from(ours.time)).toEqual(Array.from(duck[0]));
      expect(Array.from(ours.hop)).toEqual(Array.from(duck[1]));
      expect(Array.from(ours.latency)).toEqual(Array.from(duck[2]));
      for (const late of [LateTime, LateTime2]) expect(Array.from(ours.time).filter((t) => t === late).length).toBe(HOPS);
    }
  });

  it('reads everything after a time (the ingest loader asks up to Infinity)', async () => {
    const { readStoredRollups } = await import('./samples-read.js');
    for (const sid of sessions) {
      const from = END - 3 * H;
      const ours = await readSamples(pool, sid, from, Infinity);
      const duck = await store.numbers('SELECT time FROM samples WHERE session_id = $1 AND time >= $2 ORDER BY time, hop', [sid, from]);
      expect(ours.length).toBe(duck[0].length);
      expect(ours.length).toBeGreaterThan(0);
      expect(Array.from(ours.time)).toEqual(Array.from(duck[0]));
      const rows = await readStoredRollups(pool, 60_000, sid, from, Infinity);
      const duckRows = await store.numbers('SELECT time, hop FROM rollups WHERE resolution = 60000 AND session_id = $1 AND time >= $2 ORDER BY time, hop', [sid, from]);
      expect(Array.from(rows.time)).toEqual(Array.from(duckRows[0]));
      expect(Array.from(rows.hop)).toEqual(Array.from(duckRows[1]));
    }
  });

  it('expires a day by dropping its partitions: its samples and 1-minute rows gone, the other days as they were', async () => {
    const sid = sessions[0];
    const before = await readSamples(pool, sid, Midnight1, Midnight1 + 2 * H);
    const firstDay = Midnight1 / DayMs - 1;
    const samples = await expireSampleDays(pool, Midnight1 + 5 * H); // only the first day lies wholly before it
    expect(samples.days).toEqual([firstDay]);
    expect(samples.horizon).toBe(Midnight1);
    const minutes = await expireMinuteRollupDays(pool, Midnight1);
    expect(minutes.days).toEqual([firstDay]);
    expect(await listDays(pool, SampleRounds)).toEqual([firstDay + 1, firstDay + 2]);
    expect(await listDays(pool, SampleBlocks)).toEqual([firstDay + 1, firstDay + 2]);
    expect((await listDays(pool, MinuteRollupBlocks)).includes(firstDay)).toBe(false);
    expect((await readSamples(pool, sid, T0, Midnight1)).length).toBe(0);
    const after = await readSamples(pool, sid, Midnight1, Midnight1 + 2 * H);
    expect(after.length).toBeGreaterThan(0);
    expect(Array.from(after.latency)).toEqual(Array.from(before.latency));
    // A write for the day after the drop makes its partition again (an import of old data).
    await writeSamples(batchOf(sid, [T0 + 60_000], [1], [5]));
    expect((await readSamples(pool, sid, T0, Midnight1)).length).toBe(1);
  });

  it('a read that a pack overtakes between its blocks and its plain rows still sees every sample once', async () => {
    // A session of two hours of rounds, all plain; the read's statement on the plain rows (or
    // its one statement) runs only once a pack committed in the meantime.
    const sid = 999;
    const from = Date.UTC(2026, 0, 6, 10, 0, 0);
    const b = history(sid, from, from + 2 * H);
    for (const x of b) await writeSamples(x);
    const written = b.reduce((n, x) => n + x.length, 0);
    let packs = 0;
    const racing = {
      query: async (q: { text: string }) => {
        if (q.text.includes(SampleRounds.name) && !packs++) await packClosed(pool);
        return pool.query(q as never);
      },
    } as unknown as pg.Pool;
    const read = await readSamples(racing, sid, from, from + 2 * H);
    expect(packs).toBe(1);
    expect(Number((await pool.query(`SELECT count(*) AS n FROM ${SampleBlocks.name} WHERE session_id = $1`, [sid])).rows[0].n)).toBeGreaterThan(0);
    expect(read.length).toBe(written);
    expect(read.length).toBe((await readSamples(pool, sid, from, from + 2 * H)).length);
  });

  it('the same for rollup rows: a pack between the blocks and the plain rows loses no row', async () => {
    const { readStoredRollups } = await import('./samples-read.js');
    const sid = 998;
    const from = T0 + 2 * H;
    // Session 1's 1-minute rows of two hours, as another session's, all plain.
    const rows = rowsFromStoredColumns(
      await store.numbers(`SELECT ${RollupStoredColumns} FROM rollups WHERE resolution = 60000 AND session_id = $1 AND time >= $2 AND time < $3 ORDER BY time, hop`, [sessions[0], from, from + 2 * H]),
    );
    await writeRollups([{ resolution: 60_000, sessionId: sid, rows }]);
    let packs = 0;
    const racing = {
      query: async (q: { text: string }) => {
        if (q.text.includes(MinuteRollupRows.name) && !packs++) await packClosed(pool);
        return pool.query(q as never);
      },
    } as unknown as pg.Pool;
    const read = await readStoredRollups(racing, 60_000, sid, from, from + 2 * H);
    expect(packs).toBe(1);
    expect(Number((await pool.query(`SELECT count(*) AS n FROM ${MinuteRollupBlocks.name} WHERE session_id = $1`, [sid])).rows[0].n)).toBeGreaterThan(0);
    expect(rows.time.length).toBeGreaterThan(0);
    expect(Array.from(read.time)).toEqual(Array.from(rows.time));
    expect(Array.from(read.sum)).toEqual(Array.from(rows.sum));
  });
});
