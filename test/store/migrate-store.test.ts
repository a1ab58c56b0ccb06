// `hopwatch migrate-store` (issue 42 item 4; docs/deploy.md "Moving an appliance onto
// PostgreSQL") on a database the current release wrote (test/fixtures/migrate-store: three
// sessions over several UTC days, rollups at every resolution, users, alerts, LiveShare...):
// the command runs as a child process (dist/server/cli/main.js), is killed with SIGKILL once its
// progress passed 50%, runs again to the end, and then every DataPointBuckets and
// TraceGraphRows answer of every session (several ranges and periods, every hop) and the rows
// of every table are compared between the DuckDB source and PostgreSQL. Needs PostgreSQL 15
// (test/setup.sh) and `npm run build:server`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import type * as DbModule from '../../server/store/db.js';
import type * as TablesModule from '../../server/store/sample-tables.js';
import type * as BucketsModule from '../../server/data/buckets.js';
import type * as GraphRowsModule from '../../server/data/graph-rows.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store, DuckStore } = (await import(dist('server/store/db.js'))) as typeof DbModule;
const { readRawSamples, readRollupRows } = (await import(dist('server/store/sample-tables.js'))) as typeof TablesModule;
const { dataPointBuckets } = (await import(dist('server/data/buckets.js'))) as typeof BucketsModule;
const { traceGraphRows } = (await import(dist('server/data/graph-rows.js'))) as typeof GraphRowsModule;

const cli = fileURLToPath(new URL('../../dist/server/cli/main.js', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/migrate-store/hopwatch.duckdb.gz', import.meta.url));
const T0 = Date.UTC(2026, 0, 5, 20, 0, 0);
const H = 3_600_000;
const End = 8.64e15;
const Resolutions = [60_000, 600_000, 3_600_000];
/** The password in the target URL: trust authentication ignores it; no output may show it. */
const Password = 'pw-must-not-show';

type Store = Awaited<ReturnType<typeof Store.open>>;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the command; `killAt`: SIGKILL once a progress line says at least that percent. */
function migrate(args: string[], opts: { killAt?: number; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, [cli, 'migrate-store', ...args], {
      env: { ...process.env, HOPWATCH_MIGRATE_PROGRESS_MS: '0', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => {
      stderr += d;
      if (opts.killAt === undefined) return;
      for (const m of stderr.matchAll(/ (\d+)% /g)) if (Number(m[1]) >= opts.killAt) child.kill('SIGKILL');
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Every answer compared: DataPointBuckets of every hop at several ranges and periods, TraceGraphRows of several ranges. */
async function answers(store: Store, accountId: number, sessions: { id: number; hops: number }[]): Promise<Record<string, unknown>> {
  const principal = { userId: 0, accountId, username: 'test', isRoot: true, claims: [] };
  const out: Record<string, unknown> = {};
  const ranges: [string, number, number, number][] = [
    ['10 min at 5 s', T0 + 2 * H, T0 + 2 * H + 600_000, 5],
    ['3 h at 60 s', T0 + H, T0 + 4 * H, 60],
    ['across midnight at 180 s', T0 + 2 * H, T0 + 8 * H, 180],
    ['a day at 600 s', T0 + 4 * H, T0 + 28 * H, 600],
    ['everything at 3600 s', T0 - H, T0 + 60 * H, 3600],
    ['the second midnight at 30 s', T0 + 27 * H, T0 + 29 * H, 30],
  ];
  for (const { id, hops } of sessions) {
    for (const [label, from, to, periodSeconds] of ranges)
      for (let hop = 1; hop <= hops; hop++)
        out[`${id} DataPointBuckets ${label} hop ${hop}`] = await dataPointBuckets(store, principal, {
          targetId: `${id}_h_${hop}`,
          startTime: from,
          endTime: to,
          periodSeconds,
          includeJitter: true,
        });
    for (const [label, from, to] of [
      ['everything', T0, T0 + 60 * H],
      ['an hour', T0 + 5 * H, T0 + 6 * H],
      ['10 min', T0 + 3 * H, T0 + 3 * H + 600_000],
      ['across midnight', T0 + 3 * H, T0 + 5 * H],
    ] as [string, number, number][])
      out[`${id} TraceGraphRows ${label}`] = await traceGraphRows(store, principal, {
        requests: [{ ID: String(id), Start: String(from), End: String(to) }],
        columnNames: [],
        listType: 'Target',
        uniqueID: String(id),
      });
  }
  return out;
}

/** Rows of every table (samples and rollup rows per session and level, through each backend's layout). */
async function tableRows(store: Store, tables: string[], sessions: number[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = Number((await store.one<{ n: number }>(`SELECT count(*)::BIGINT AS n FROM "${t}"`))!.n);
  await store.read(async (q) => {
    for (const s of sessions) {
      out[`samples of ${s}`] = (await readRawSamples(q, s, -End, End)).length;
      for (const r of Resolutions) out[`rollups ${r} of ${s}`] = (await readRollupRows(q, r, s, -End, End)).time.length;
    }
  });
  return out;
}

/** The chunks the target records as copied. */
async function chunksDone(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT count(*) AS n FROM migrate_store_chunks')).rows[0].n);
  } finally {
    await c.end();
  }
}

describe.runIf(postgresInstalled())('migrate-store: an embedded appliance into PostgreSQL', () => {
  let server: ThrowawayPostgres;
  let dir: string;
  let url: string;
  let killed: Run;
  let doneAtKill: number;
  let chunks: number;
  let finished: Run;

  beforeAll(async () => {
    server = await startPostgres();
    url = server.url.replace('hopwatch@', `hopwatch:${Password}@`);
    dir = mkdtempSync(join(tmpdir(), 'hopwatch-migrate-'));
    writeFileSync(join(dir, 'hopwatch.duckdb'), gunzipSync(readFileSync(fixture)));
    // Slowed a little per chunk (test only), so the kill lands while it copies, not after.
    killed = await migrate(['--to', url, '--from', dir], { killAt: 50, env: { HOPWATCH_MIGRATE_CHUNK_DELAY_MS: '150' } });
    doneAtKill = await chunksDone(server.url);
    finished = await migrate(['--to', url, '--from', dir]);
    chunks = await chunksDone(server.url);
  }, 120_000);
  afterAll(() => {
    server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('was killed half-way, and the second run went on from there to the end', () => {
    expect(killed.signal).toBe('SIGKILL');
    expect(doneAtKill).toBeGreaterThan(0);
    expect(doneAtKill).toBeLessThan(chunks);
    expect(finished.stderr).toMatch(/going on after \d+ of \d+ chunks/);
    expect(finished.code).toBe(0);
    expect(finished.stdout).toMatch(/verified/);
    expect(finished.stdout).toContain('HOPWATCH_DATABASE_URL');
    for (const r of [killed, finished]) expect(r.stdout + r.stderr).not.toContain(Password);
  });

  it('shows its progress on stderr: rows, MB and the time left', () => {
    expect(killed.stderr).toMatch(/[\d,]+ of [\d,]+ rows \d+% [\d.]+ of [\d.]+ MB/);
    expect(killed.stderr).toMatch(/left/);
  });

  it('answers every DataPointBuckets and TraceGraphRows question as the DuckDB store does, with the same rows in every table', async () => {
    const source = await DuckStore.openReadOnly(dir);
    const targetDir = mkdtempSync(join(tmpdir(), 'hopwatch-migrated-'));
    const target = await Store.open(targetDir, { databaseUrl: server.url });
    try {
      const account = (await source.one<{ id: number }>('SELECT min(id) AS id FROM accounts'))!.id;
      const sessions = await source.all<{ id: number; hops: number }>('SELECT session_id AS id, max(hop)::INTEGER AS hops FROM hosts GROUP BY 1 ORDER BY 1');
      expect(sessions.length).toBe(3);
      const before = await answers(source as unknown as Store, account, sessions);
      const after = await answers(target, account, sessions);
      expect(Object.keys(after).length).toBe(3 * 4 + 6 * (4 + 3 + 5));
      expect(after).toEqual(before);
      // Not empty answers: samples counted, and Timeouts among them.
      const points = (before[`${sessions[0].id} DataPointBuckets everything at 3600 s hop 4`] as { Points: { LatencyCount: number; LostPacketCount: number }[] }).Points;
      expect(points.reduce((s, p) => s + p.LatencyCount, 0)).toBeGreaterThan(10_000);
      expect(points.reduce((s, p) => s + p.LostPacketCount, 0)).toBeGreaterThan(100);

      const tables = (await source.all<{ t: string }>(`SELECT table_name AS t FROM duckdb_tables() WHERE table_name NOT IN ('samples', 'rollups', 'schema_migrations') ORDER BY 1`)).map((r) => r.t);
      expect(tables).toEqual(expect.arrayContaining(['users', 'alerts', 'alert_targets', 'notifications', 'liveshare_links', 'liveshare_history', 'comments', 'hop_hosts', 'kvp']));
      const ids = sessions.map((s) => s.id);
      const rowsBefore = await tableRows(source as unknown as Store, tables, ids);
      expect(rowsBefore['users']).toBe(2);
      expect(rowsBefore[`rollups 3600000 of ${ids[0]}`]).toBeGreaterThan(0);
      expect(await tableRows(target, tables, ids)).toEqual(rowsBefore);
      // The rows themselves, not only their number: a table with text, arrays and timestamps.
      const users = 'SELECT id, name, email, roles, is_root, created_at::VARCHAR AS created FROM users ORDER BY id';
      expect((await target.all(users)).map((u) => ({ ...u, created: new Date(String(u.created)).getTime() }))).toEqual(
        (await source.all(users)).map((u) => ({ ...u, created: new Date(String(u.created)).getTime() })),
      );
      // Ids go on where the appliance left them.
      const next = await target.one<{ id: number }>(`SELECT nextval('session_id_seq')::INTEGER AS id`);
      expect(next!.id).toBe(Math.max(...ids) + 1);
      // Samples and rollup rows live in PostgreSQL's layout: packed blocks, day partitions.
      const blocks = await target.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM sample_blocks`);
      expect(blocks!.n).toBeGreaterThan(0);
      const days = await target.one<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM pg_inherits WHERE inhparent = 'sample_blocks'::regclass`);
      expect(days!.n).toBeGreaterThanOrEqual(3);
    } finally {
      await source.close();
      await target.close();
      rmSync(targetDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a target that holds another appliance, and a running appliance, saying what to do', async () => {
    const other = mkdtempSync(join(tmpdir(), 'hopwatch-other-'));
    try {
      const s = await Store.open(other);
      await s.run(`INSERT INTO accounts (name) VALUES ('another')`);
      await s.close();
      const refused = await migrate(['--to', url, '--from', other]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/^migrate-store failed: .*another appliance/m);
      expect(refused.stderr).not.toContain(Password);

      // An appliance that crashed left its alert outbox journal: replayed by a start first.
      mkdirSync(join(other, 'alerts-outbox'));
      writeFileSync(join(other, 'alerts-outbox', 'outbox-00000001.jsonl'), '{"seq":1}\n');
      const crashed = await migrate(['--to', url, '--from', other]);
      expect(crashed.code).not.toBe(0);
      expect(crashed.stderr).toMatch(/^migrate-store failed: the appliance did not stop cleanly: .*start the appliance once and stop it/m);
      rmSync(join(other, 'alerts-outbox'), { recursive: true });

      // Its own copy in a database of its own; then the appliance ran again (a session more):
      // going on would mix two states of it, so the next run is refused.
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query('CREATE DATABASE other');
      await admin.end();
      const otherUrl = url.replace(/\/hopwatch$/, '/other');
      expect((await migrate(['--to', otherUrl, '--from', other])).code).toBe(0);
      const ran = await Store.open(other);
      await ran.run(`INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time) VALUES (1, 'x', 'x', '10.0.0.1', 1, 0, 1000, 0)`);
      await ran.close();
      const changed = await migrate(['--to', otherUrl, '--from', other]);
      expect(changed.code).not.toBe(0);
      expect(changed.stderr).toMatch(/^migrate-store failed: the appliance's data changed since this copy began/m);

      // A running appliance holds the DuckDB file's lock: refused, naming what to do.
      const running = await Store.open(other);
      try {
        const r = spawnSync(process.execPath, [cli, 'migrate-store', '--to', url, '--from', other], { encoding: 'utf8' });
        expect(r.status).not.toBe(0);
        expect(r.stderr).toMatch(/^migrate-store failed: the appliance is running .*stop it/m);
      } finally {
        await running.close();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('fails with "{what} failed: {why}" and no password when PostgreSQL cannot be reached', () => {
    const copy = mkdtempSync(join(tmpdir(), 'hopwatch-copy-'));
    try {
      cpSync(join(dir, 'hopwatch.duckdb'), join(copy, 'hopwatch.duckdb'));
      const r = spawnSync(process.execPath, [cli, 'migrate-store', '--to', `postgres://hopwatch:${Password}@127.0.0.1:1/nothing`, '--from', copy], {
        encoding: 'utf8',
        env: { ...process.env, HOPWATCH_MIGRATE_CONNECT_TIMEOUT_MS: '500' },
      });
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/^migrate-store failed: cannot connect to PostgreSQL at hopwatch@127\.0\.0\.1:1\/nothing/m);
      expect(r.stdout + r.stderr).not.toContain(Password);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
