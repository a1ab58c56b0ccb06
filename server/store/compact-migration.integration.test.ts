// Migration 5 on a database the release before it wrote (test/fixtures/store-release-4:
// made by that release's code through its ingest path, with the answers it gave): killed
// half-way, started again, every answer the same within the documented precision (1
// microsecond, docs/store.md "Compact samples"), no sample lost or doubled. Through dist/
// (the kill needs a process of its own): npm run build:server first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs module shared with the fixture's generator
import { queries } from '../../test/fixtures/store-release-4/queries.mjs';
import { Store } from '../../test/support/built.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { dataPointBuckets } = await import(dist('server/data/buckets.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));

const fixture = (name: string) => fileURLToPath(new URL(`../../test/fixtures/store-release-4/${name}`, import.meta.url));
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const HOPS = 4;
/** The documented precision of a stored latency, in ms. */
const Precision = 0.001;

/**
 * Differences between two answers beyond the precision (numbers), or anywhere else. Fields
 * the release's answers did not have are later features (the hop details of issue 16: the
 * Hosts, MPLS, AS, Country, NAT and DSCP columns), nothing migration 5 could change; the
 * release's "no hop details" was '', it is null since.
 */
function differences(a: unknown, b: unknown, path: string, out: string[]): string[] {
  if (path.endsWith('.HopDetails') && a === '' && b === null) return out;
  if (typeof a === 'number' && typeof b === 'number') {
    if (!(Math.abs(a - b) <= Precision + 1e-9 * Math.abs(a))) out.push(`${path}: ${a} then ${b}`);
  } else if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items then ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set(Object.keys(a));
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (a !== b) out.push(`${path}: ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
  return out;
}

describe('migration 5 (compact samples) on a database of the release before it', () => {
  let dir: string;
  let store: Awaited<ReturnType<typeof Store.open>>;
  const lines: string[] = [];
  let killedRun: { stdout: string; signal: NodeJS.Signals | null };
  const before = JSON.parse(gunzipSync(readFileSync(fixture('answers.json.gz'))).toString()) as Record<string, unknown>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-compact-'));
    writeFileSync(join(dir, 'hopwatch.duckdb'), gunzipSync(readFileSync(fixture('hopwatch.duckdb.gz'))));
    const run = spawnSync(process.execPath, [fixture('killed-migration.mjs')], {
      env: { ...process.env, DATA_DIR: dir, BATCH_ROWS: '5000', KILL_AFTER: '3' },
      encoding: 'utf8',
    });
    killedRun = { stdout: run.stdout, signal: run.signal };
    store = await Store.open(dir, { migrations: { batchRows: 5000, log: (l: string) => lines.push(l) } });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('was killed half-way through the samples, and the next start went on from there', () => {
    expect(killedRun.signal).toBe('SIGKILL');
    expect(killedRun.stdout).not.toContain('finished without being killed');
    expect(lines.some((l) => /^migration 5: going on with samples after [1-9][\d,]* of [\d,]+ rows$/.test(l))).toBe(true);
    expect(lines.some((l) => /^migration 5: converting rollups /.test(l))).toBe(true);
    // Its last line (migration 18, sample-order.integration.test.ts, logs after it).
    expect(lines.filter((l) => l.startsWith('migration 5: ')).at(-1)).toMatch(/^migration 5: rollups ([\d,]+) of \1 rows \(100%\)$/);
    expect(lines.at(-1)).toMatch(/^migration 18: samples ([\d,]+) of \1 rows \(100%\)$/);
  });

  it('keeps latencies and rollup statistics as integers', async () => {
    const types = await store.all<{ t: string; c: string; type: string }>(
      `SELECT table_name AS t, column_name AS c, data_type AS type FROM information_schema.columns
       WHERE table_name IN ('samples', 'rollups') AND column_name IN ('latency', 'sum', 'min', 'last') ORDER BY 1, 2`,
    );
    expect(types).toEqual([
      { t: 'rollups', c: 'last', type: 'INTEGER' },
      { t: 'rollups', c: 'min', type: 'INTEGER' },
      { t: 'rollups', c: 'sum', type: 'BIGINT' },
      { t: 'samples', c: 'latency', type: 'INTEGER' },
    ]);
    expect(await store.all(`SELECT table_name FROM information_schema.tables WHERE table_name LIKE '%compact%'`)).toEqual([]);
  });

  it('answers every question as the release did, within 1 microsecond, with the same sample counts', async () => {
    const account = await store.one<{ id: number }>('SELECT id FROM accounts');
    const sessions = Object.fromEntries((await store.all<{ id: number; name: string }>('SELECT id, original_target AS name FROM sessions')).map((s) => [s.name, s.id]));
    const after = (await queries({ store, dataPointBuckets, traceGraphRows, accountId: account!.id, sessions, T0, HOPS })) as Record<string, unknown>;
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(differences(before, after, 'answers', [])).toEqual([]);
    // The answers are not empty: buckets with samples, Timeouts, and the hops' rows.
    const buckets = after['finished DataPointBuckets 9 h at 600 s hop 4'] as { Points: { LatencyCount: number; LostPacketCount: number }[] };
    expect(buckets.Points.reduce((s, p) => s + p.LatencyCount, 0)).toBeGreaterThan(1000);
    expect(buckets.Points.reduce((s, p) => s + p.LostPacketCount, 0)).toBeGreaterThan(10);
    expect((after['open samples'] as { stored: number }).stored).toBe(7 * 1440 * HOPS);
  });

  it('changed some latency by rounding it to the microsecond, no more', async () => {
    // The fixture's latencies are full floats: the precision is really used, and kept.
    const [first] = await store.numbers(`SELECT latency FROM samples WHERE latency > 0 LIMIT 1`);
    expect(Number.isInteger(first[0])).toBe(true);
  });
});
