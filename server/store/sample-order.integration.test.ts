// Migration 18 (samples in day and hop order, time as integer ms) on a database the release
// before it wrote (test/fixtures/store-release-14: made by that release's code through its
// ingest path, with the answers it gave): killed half-way, started again, every answer the
// same, no sample lost or doubled; then the packer (sample-order.ts) rewriting every closed
// day again changes no answer either. Through dist/ (the kill needs a process of its own):
// npm run build:server first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs module shared with the fixtures' generators
import { queries } from '../../test/fixtures/store-release-4/queries.mjs';
import { Store } from '../../test/support/built.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { dataPointBuckets } = await import(dist('server/data/buckets.js'));
const { traceGraphRows } = await import(dist('server/data/graph-rows.js'));
const { packSamples } = await import(dist('server/store/sample-order.js'));

const fixture = (name: string) => fileURLToPath(new URL(`../../test/fixtures/store-release-14/${name}`, import.meta.url));
const T0 = Date.UTC(2026, 0, 5, 20, 0, 0);
const Midnight = Date.UTC(2026, 0, 6);
const HOPS = 4;

/**
 * Differences between two answers. Exact: the release stored latencies in integer
 * microseconds already and its times were whole milliseconds, so nothing may move at all.
 */
function differences(a: unknown, b: unknown, path: string, out: string[]): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${path}: ${a.length} items then ${b.length}`);
    else a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) out.push(`${path}: ${JSON.stringify(a)} then ${JSON.stringify(b)}`);
  return out;
}

/**
 * Fields the answers carry since the release they are compared with, and what each must be
 * here: DataPointBuckets' Outages (issue 40; nothing records an outage, no app runs) and
 * TraceGraphRows' Details.PacketType (issue 41; the release's targets trace by ICMP). Each is
 * checked, then taken out, so that every other field is compared with the release's as before.
 */
const NewFields: Record<string, unknown> = { Outages: [], PacketType: 'ICMP' };
function withoutNewFields(value: unknown): any {
  if (Array.isArray(value)) return value.map(withoutNewFields);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k in NewFields) expect(v, k).toEqual(NewFields[k]);
    else out[k] = withoutNewFields(v);
  }
  return out;
}

describe('migration 18 (samples in day and hop order) on a database of the release before it', () => {
  let dir: string;
  let store: Awaited<ReturnType<typeof Store.open>>;
  const lines: string[] = [];
  let killedRun: { stdout: string; signal: NodeJS.Signals | null };
  const before = JSON.parse(gunzipSync(readFileSync(fixture('answers.json.gz'))).toString()) as Record<string, unknown>;
  const sessions: Record<string, number> = {};
  const answers = async () => {
    const account = await store.one<{ id: number }>('SELECT id FROM accounts');
    const got = (await queries({ store, dataPointBuckets, traceGraphRows, accountId: account!.id, sessions, T0, HOPS })) as Record<string, unknown>;
    return withoutNewFields(got);
  };
  /** Whether the session's samples of [from, to) lie in the table (rowid order) by hop, then time. */
  const inHopOrder = async (sid: number, from: number, to: number) => {
    const rows = await store.all<{ hop: number; time: number }>('SELECT hop, time FROM samples WHERE session_id = $1 AND time >= $2 AND time < $3 ORDER BY rowid', [sid, from, to]);
    expect(rows.length).toBeGreaterThan(1000);
    return rows.every((r, i) => i === 0 || rows[i - 1].hop < r.hop || (rows[i - 1].hop === r.hop && rows[i - 1].time < r.time));
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-order-'));
    writeFileSync(join(dir, 'hopwatch.duckdb'), gunzipSync(readFileSync(fixture('hopwatch.duckdb.gz'))));
    const run = spawnSync(process.execPath, [fixture('killed-migration.mjs')], {
      env: { ...process.env, DATA_DIR: dir, BATCH_ROWS: '5000', KILL_AFTER: '2' },
      encoding: 'utf8',
    });
    killedRun = { stdout: run.stdout, signal: run.signal };
    store = await Store.open(dir, { migrations: { batchRows: 5000, log: (l: string) => lines.push(l) } });
    for (const s of await store.all<{ id: number; name: string }>('SELECT id, original_target AS name FROM sessions')) sessions[s.name] = s.id;
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('was killed half-way through the samples, and the next start went on from there', () => {
    expect(killedRun.signal).toBe('SIGKILL');
    expect(killedRun.stdout).not.toContain('finished without being killed');
    expect(killedRun.stdout).toMatch(/^migration 18: ordering samples \(66,240 rows\)/m);
    expect(lines[0]).toMatch(/^migration 18: going on with samples after [1-9][\d,]* of 66,240 rows$/);
    expect(lines.at(-1)).toBe('migration 18: samples 66,240 of 66,240 rows (100%)');
  });

  it('keeps time as integer ms, and no table of the conversion', async () => {
    const types = await store.all(`SELECT column_name AS c, data_type AS type FROM information_schema.columns WHERE table_name = 'samples' ORDER BY ordinal_position`);
    expect(types).toEqual([
      { c: 'session_id', type: 'INTEGER' },
      { c: 'time', type: 'BIGINT' },
      { c: 'hop', type: 'SMALLINT' },
      { c: 'latency', type: 'INTEGER' },
    ]);
    expect(await store.all(`SELECT table_name FROM information_schema.tables WHERE table_name IN ('samples_ordered', 'sample_order_progress')`)).toEqual([]);
  });

  it('answers every question exactly as the release did, with the same sample counts', async () => {
    const after = await answers();
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(differences(before, after, 'answers', [])).toEqual([]);
    // The answers are not empty: buckets with samples and Timeouts.
    const buckets = after['finished DataPointBuckets 9 h at 600 s hop 4'] as { Points: { LatencyCount: number; LostPacketCount: number }[] };
    expect(buckets.Points.reduce((s, p) => s + p.LatencyCount, 0)).toBeGreaterThan(1000);
    expect(buckets.Points.reduce((s, p) => s + p.LostPacketCount, 0)).toBeGreaterThan(10);
    expect((after['open samples'] as { stored: number }).stored).toBe(7 * 1440 * HOPS);
  });

  it('stored each session day by hop, then time, and marked the closed days packed', async () => {
    expect(await inHopOrder(sessions.finished, T0, Midnight)).toBe(true);
    expect(await inHopOrder(sessions.open, Midnight, Midnight + 86_400_000)).toBe(true);
    // Both sessions' latest samples are more than the grace (2 h) into 6 January.
    expect(await store.all('SELECT session_id AS sid, packed_until AS until FROM sample_packing ORDER BY 1')).toEqual([
      { sid: sessions.finished, until: Midnight },
      { sid: sessions.open, until: Midnight },
    ]);
  });

  it('packs closed days written in arrival order, and no answer changes', async () => {
    // As if written by the ingest after the migration: in time order, no mark.
    await store.run('DELETE FROM sample_packing');
    await store.run('CREATE TABLE arrival AS SELECT * FROM samples ORDER BY session_id, time, hop');
    await store.run('DELETE FROM samples');
    await store.run('INSERT INTO samples SELECT * FROM arrival');
    await store.run('DROP TABLE arrival');
    expect(await inHopOrder(sessions.finished, T0, Midnight)).toBe(false);
    const report = await packSamples(store);
    expect(report).toMatchObject({ days: 2, rows: 4 * 3600 / 5 * HOPS + 4 * 3600 / 2.5 * HOPS });
    expect(await inHopOrder(sessions.finished, T0, Midnight)).toBe(true);
    expect(await inHopOrder(sessions.open, T0, Midnight)).toBe(true);
    // 6 January is not closed (the latest samples are hours into it): left as it arrived.
    expect(await inHopOrder(sessions.finished, Midnight, Midnight + 86_400_000)).toBe(false);
    expect(differences(before, await answers(), 'answers', [])).toEqual([]);
    // A second run finds nothing to do.
    expect((await packSamples(store)).days).toBe(0);
  });

  it('packs beside the writer: samples the writer commits meanwhile are kept, every answer the same', async () => {
    const count = async () => (await store.one<{ n: number }>('SELECT count(*)::DOUBLE AS n FROM samples'))!.n;
    const n0 = await count();
    await store.run('DELETE FROM sample_packing');
    await store.run('CREATE TABLE arrival AS SELECT * FROM samples ORDER BY session_id, time, hop');
    await store.run('DELETE FROM samples');
    await store.run('INSERT INTO samples SELECT * FROM arrival');
    await store.run('DROP TABLE arrival');
    // The side connection's transaction is open (its temporary table made) while the writer
    // commits new samples of a later day.
    const packing = packSamples(store);
    const later = Midnight + 86_400_000 + 3_600_000;
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) writes.push(store.transaction((q) => q.run('INSERT INTO samples VALUES ($1, $2, 1, 1000)', [sessions.open, later + i * 1000])));
    await Promise.all(writes);
    const report = await packing;
    expect(report.rows).toBeGreaterThan(0);
    expect(await count()).toBe(n0 + 20);
    expect(await inHopOrder(sessions.finished, T0, Midnight)).toBe(true);
    await store.run('DELETE FROM samples WHERE time >= $1', [later]);
    expect(differences(before, await answers(), 'answers', [])).toEqual([]);
  });
});
