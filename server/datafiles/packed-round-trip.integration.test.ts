// A data file round trip of a session whose closed day the store has packed (docs/store.md
// "Sample order": the hourly packer rewrites a closed UTC day of a session's samples in hop,
// then time order). The session spans two UTC days and goes in through the real ingest
// pipeline (rounds a few seconds late, timeouts, the other codes, a gap across midnight);
// then the packer runs on it (packSamples, the function of the server's hourly run), the
// session is exported (writeDataFile, DownloadPP2File's) and imported (importDataFile,
// ImportPP2File's), and the imported target must answer as the original: TraceGraphRows,
// DataPointBuckets over several ranges and periods (raw samples and every rollup level,
// over the packed day too), the rollup rows and the raw samples themselves. The packed day
// holds more samples than the import rolls up in one step (bulk-import.ts, 1 M): a smaller
// file is rolled up in one piece, whatever its order. Through dist/ (the pipeline runs a
// Piscina worker): npm run build:server first. Runs on the matrix's store
// (HOPWATCH_TEST_STORE=duckdb|postgres): on PostgreSQL the packer is its own (closed hours into
// blocks, postgres/samples-pack.ts, as the retention runner runs it) and the rows are read
// back through sample-tables.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore } from '../store/testing/test-store.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { dataPointBuckets } = await import(dist('server/data/buckets.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));
const { packSamples } = await import(dist('server/store/sample-order.js'));
const { writeDataFile } = await import(dist('server/datafiles/export.js'));
const { importDataFile } = await import(dist('server/datafiles/import.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));
const { Claim } = await import(dist('server/contract/account.js'));
const { readRawSamples, readRollupRows, pgPoolOf } = await import(dist('server/store/sample-tables.js'));
const { packClosed } = await import(dist('server/store/postgres/samples-pack.js'));
const { RollupResolutionsMs } = await import(dist('server/rollups/levels.js'));

const onPostgres = process.env.HOPWATCH_TEST_STORE === 'postgres';
const End = 8.64e15;
// PostgreSQL decodes a day of raw samples in JS per raw read: the two tests that read them most take a minute or two there.
const SlowOnPostgres = onPostgres ? 300_000 : undefined;

type StoreT = InstanceType<typeof Store>;

/** The first few differences between two answers (a short message where toEqual would print megabytes). */
function differences(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 5) return out;
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) return differences(Array.from(a as Float64Array), Array.from(b as Float64Array), path, out);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items, then ${b.length}`);
    for (let i = 0; i < Math.min(a.length, b.length) && out.length < 5; i++) differences(a[i], b[i], `${path}[${i}]`, out);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) out.push(`${path}: ${JSON.stringify(a)}, then ${JSON.stringify(b)}`);
  return out;
}

const HOPS = 16;
const H = 3_600_000;
const Midnight = Date.UTC(2026, 0, 6);
const T0 = Midnight - 24 * H + 17_345; // 5 January, 00:00:17.345: not on a minute
const IntervalMs = 1000;
// To 6 January, 04:00: the packer closes 5 January (grace 2 h), 1.38 M hop samples.
const Rounds = (28 * H) / IntervalMs;

/** The samples in the order an agent delivers them: some rounds 5 s late, a gap across midnight. */
function delivered() {
  const order: number[] = [];
  const gapFrom = Math.floor((Midnight - 7 * 60_000 - T0) / IntervalMs);
  for (let r = 0; r < Rounds; r++) if (r < gapFrom || r >= gapFrom + 200) order.push(r);
  // Every 97th round arrives 2 rounds (2 s) late: after the rounds sent after it.
  for (let i = 0; i + 2 < order.length; i += 97) order.splice(i, 3, order[i + 1], order[i + 2], order[i]);
  const n = order.length * HOPS;
  const time = new Float64Array(n);
  const hop = new Int32Array(n);
  const latency = new Float64Array(n);
  let k = 0;
  for (const r of order) {
    for (let h = 1; h <= HOPS; h++, k++) {
      time[k] = T0 + r * IntervalMs + h;
      hop[k] = h;
      const x = (r * 7919 + h * 104729) % 1000;
      latency[k] =
        x < 40 ? LatencyCode.Timeout : x < 45 ? LatencyCode.NotParticipating : r === gapFrom + 200 && h === 1 ? LatencyCode.StopStart : 1 + h * 1.7 + (x % 233) / 37.123457;
    }
  }
  return { time, hop, latency, n, rounds: order.length };
}

describe('data file round trip of a session with a packed day', () => {
  let dir: string;
  let store: StoreT;
  let original: number;
  let imported: number;
  let principal: { userId: number; accountId: number; username: string; isRoot: boolean; claims: string[] };
  let packed: { days: number; rows: number };
  const s = delivered();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-packed-round-trip-'));
    store = await openTestStore(dir);
    const accountId = (await store.one(`INSERT INTO accounts (name) VALUES ('packed') RETURNING id`)).id;
    principal = { userId: 0, accountId, username: 'packed', isRoot: true, claims: [Claim.TargetManagement] };
    original = (
      await store.one(
        `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time)
         VALUES ($1, 'gw.example.test', 'gw.example.test', '127.0.0.1', 1, 0, $2, $3) RETURNING id`,
        [accountId, IntervalMs, T0],
      )
    ).id;

    // The live path: rounds in the order an agent sends them, 50 to 250 rounds a batch (a
    // few late rounds across a batch's edge).
    const ingest = new IngestPipeline(store, new DomainEventBus());
    await ingest.init();
    ingest.openSession(original, accountId);
    const pending: Promise<void>[] = [];
    for (let r = 0, size = 50; r < s.rounds; r += size, size = (size % 250) + 50) {
      const a = r * HOPS;
      const b = Math.min(s.rounds, r + size) * HOPS;
      pending.push(ingest.addBatch({ length: b - a, session: new Int32Array(b - a).fill(original), time: s.time.slice(a, b), hop: s.hop.slice(a, b), latency: s.latency.slice(a, b) }));
    }
    await Promise.all(pending);
    await ingest.finishSession(original);
    await ingest.close();

    // The server's hourly packing: 5 January is closed (it ended more than 2 h before the
    // latest sample). PostgreSQL's packer: every hour that ended 15 minutes before it.
    if (onPostgres) {
      const r = await packClosed(pgPoolOf(store));
      packed = { days: 0, rows: r.samples.rows };
    } else packed = await packSamples(store);

    const file = join(dir, 'packed.pp2');
    await writeDataFile(store, principal, { ID: String(original) }, file);
    const result = await importDataFile({ store, events: new DomainEventBus(), config: {} }, principal, { path: file, name: 'packed.pp2' });
    imported = result.ID;
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packed the first day of the original (hop, then time, in the table)', async () => {
    if (onPostgres) {
      // Every hour to 03:00 of 6 January in blocks (the 5th whole), none of its round rows left.
      const inBlocks = await store.one(`SELECT coalesce(sum(n), 0)::DOUBLE AS n FROM sample_blocks WHERE session_id = $1 AND period < $2`, [original, Midnight]);
      const plain = await store.one(`SELECT count(*)::DOUBLE AS n FROM sample_rounds WHERE session_id = $1 AND time < $2`, [original, Midnight + 3 * H]);
      const before = s.time.filter((t: number) => t < Midnight).length;
      expect([inBlocks.n, plain.n]).toEqual([before, 0]);
      expect(packed.rows).toBe(s.time.filter((t: number) => t < Midnight + 3 * H).length);
      return;
    }
    expect(packed.days).toBe(1);
    const rows = await store.all(`SELECT hop, time FROM samples WHERE session_id = $1 AND time < $2 ORDER BY rowid`, [original, Midnight]);
    expect(packed.rows).toBe(rows.length);
    expect(rows.every((r: { hop: number; time: number }, i: number) => i === 0 || rows[i - 1].hop < r.hop || (rows[i - 1].hop === r.hop && rows[i - 1].time < r.time))).toBe(true);
    // Not in time order: the pack is what this test is about.
    expect(rows.every((r: { time: number }, i: number) => i === 0 || rows[i - 1].time <= r.time)).toBe(false);
  });

  it('imports every raw sample', async () => {
    const samples = async (id: number) => {
      const r = await store.read((q: never) => readRawSamples(q, id, -End, End));
      return [r.time, Float64Array.from(r.hop), r.latency];
    };
    const theirs = await samples(original);
    expect(theirs[0].length).toBe(s.n);
    expect(differences(theirs, await samples(imported))).toEqual([]);
    const counters = (id: number) => store.one(`SELECT sample_count, first_sample, latest_sample FROM sessions_counted WHERE id = $1`, [id]);
    expect(await counters(imported)).toEqual(await counters(original));
  }, SlowOnPostgres);

  it('answers the same DataPointBuckets over the packed day, across midnight and after it', async () => {
    const ranges = [
      [T0 - 60_000, T0 + 28 * H + 60_000, [60, 600, 3600]], // all of it
      [T0, Midnight, [10, 60, 3600]], // the packed day
      [Midnight - H - 12_345, Midnight + H + 4321, [2, 10, 60, 600]], // across midnight and the gap
      [Midnight + 30 * 60_000, Midnight + 4 * H, [10, 60, 600]], // the day not packed
    ] as const;
    let answered = 0;
    for (const [startTime, endTime, periods] of ranges) {
      for (const period of periods) {
        for (const hop of [1, 9, HOPS]) {
          const args = (id: number) => ({ targetId: `${id}_h_${hop}`, startTime, endTime, periodSeconds: period, includeJitter: true });
          const theirs = await dataPointBuckets(store, principal, args(original));
          answered += theirs.Points.reduce((n: number, p: { LatencyCount: number }) => n + p.LatencyCount, 0);
          expect(differences(theirs, await dataPointBuckets(store, principal, args(imported)), `${startTime}..${endTime} at ${period} s, hop ${hop}`)).toEqual([]);
        }
      }
    }
    expect(answered).toBeGreaterThan(0);
  }, SlowOnPostgres);

  it('answers the same TraceGraphRows', async () => {
    for (const [from, to] of [
      [T0, T0 + 28 * H],
      [T0 + 17 * 60_000 + 321, T0 + 95 * 60_000],
      [Midnight - 2 * H, Midnight + 2 * H],
    ]) {
      const rows = async (id: number) => {
        const r = await traceGraphRows(store, principal, { listType: 'Target', uniqueID: String(id), columnNames: [], requests: [{ ID: String(id), Start: new Date(from).toISOString(), End: new Date(to).toISOString() }] });
        return r.Rows.map((row: { UniqueID: string }) => ({ ...row, UniqueID: row.UniqueID.replace(`${id}_h_`, 'X_h_') }));
      };
      const theirs = await rows(original);
      expect(theirs.length).toBeGreaterThan(0);
      expect(differences(theirs, await rows(imported), `${from}..${to}`)).toEqual([]);
    }
  });

  it('stores the same rollup rows at every level', async () => {
    const rows = async (id: number) => {
      const out: Record<string, unknown>[] = [];
      for (const resolution of RollupResolutionsMs) {
        const r = await store.read((q: never) => readRollupRows(q, resolution, id, -End, End));
        for (let i = 0; i < r.time.length; i++) out.push({ resolution, ...Object.fromEntries(Object.entries(r).map(([k, c]) => [k, (c as ArrayLike<number>)[i]])) });
      }
      return out;
    };
    const theirs = await rows(original);
    expect(theirs.length).toBeGreaterThan(28 * 60 * HOPS);
    expect(differences(theirs, await rows(imported))).toEqual([]);
  });
});
