// `hopwatch migrate-store` from a RUNNING appliance (issue 42 item 4, "a running or stopped
// appliance"; docs/deploy.md "Moving an appliance onto PostgreSQL"): the built appliance
// (dist/server/main.js, simulated engine) traces a target and keeps writing samples; the
// command asks it for a snapshot, copies and verifies that while the appliance keeps running
// and answering; then the appliance is stopped (SIGTERM) and the same command's catch-up pass
// copies what came after. Then every DataPointBuckets and TraceGraphRows answer and every
// table's rows are equal between the stopped DuckDB file and PostgreSQL. Needs PostgreSQL 15
// (test/setup.sh) and `npm run build:server`.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../support/postgres.js';
import { signIn, startAppliance, type Appliance } from '../support/appliance.js';
import type * as DbModule from '../../server/store/db.js';
import type { GraphRowsResult } from '../../server/contract/targets.js';
import { answers, tableRows, type Store as ComparedStore } from './migrate-store-compare.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url).href;
const { Store, DuckStore } = (await import(dist('server/store/db.js'))) as typeof DbModule;
type Store = ComparedStore;
const cli = fileURLToPath(new URL('../../dist/server/cli/main.js', import.meta.url));
const H = 3_600_000;
// Topology id 142 (addresses only: nothing is sent on the simulated network).
const scenario = {
  name: 'migrate-store-running-142',
  hops: [
    { v4: '10.251.142.2', rttMs: 0.4 },
    { v4: '10.251.142.6', rttMs: 0.9 },
  ],
  target: { v4: '10.251.142.9', rttMs: 1.4 },
};

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the command; `killAfter`: SIGKILL once stderr matches it. */
function migrate(args: string[], opts: { killAfter?: RegExp; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, 'migrate-store', ...args], { env: { ...process.env, HOPWATCH_MIGRATE_PROGRESS_MS: '0', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (opts.killAfter?.test(stderr)) child.kill('SIGKILL');
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Hop samples in PostgreSQL's layout: round rows (a byte a hop) and packed blocks. */
async function samplesIn(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const q = `SELECT (SELECT coalesce(sum(octet_length(hops)), 0) FROM sample_rounds) + (SELECT coalesce(sum(n), 0) FROM sample_blocks) AS n`;
    return Number((await c.query(q)).rows[0].n);
  } finally {
    await c.end();
  }
}

// The appliance is an embedded one (DuckDB) whatever the test matrix says (HOPWATCH_TEST_STORE=postgres would put it on PostgreSQL).
describe.runIf(postgresInstalled() && process.env.HOPWATCH_TEST_STORE !== 'postgres')('migrate-store: a running appliance, then the catch-up after it stopped', () => {
  let server: ThrowawayPostgres;
  let scenarioDir: string;
  let hw: Appliance;
  let cookie: string;
  let id: number;
  let whileRunning: Run;
  let killedCatchUp: Run;
  let catchUp: Run;
  let countBefore: number;
  let countAfterCopy: number;
  let samplesAtSnapshot: number;
  const totalCount = async () => {
    const r = await fetch(`${hw.url}/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests[0].ID=${id}&requests[0].Start=0`, { headers: { cookie } });
    expect(r.status).toBe(200);
    return Math.max(0, ...((await r.json()) as GraphRowsResult).Rows.map((row) => row.TotalCount));
  };
  const waitForCount = async (atLeast: number) => {
    for (const deadline = Date.now() + 30_000; ; ) {
      const n = await totalCount();
      if (n >= atLeast) return n;
      if (Date.now() > deadline) throw new Error(`only ${n} rounds`);
      await new Promise((ok) => setTimeout(ok, 200));
    }
  };

  beforeAll(async () => {
    server = await startPostgres();
    scenarioDir = mkdtempSync(join(tmpdir(), 'hopwatch-running-scenario-'));
    writeFileSync(join(scenarioDir, 'scenario.json'), JSON.stringify(scenario));
    hw = await startAppliance({ env: { HOPWATCH_ROOT_PASSWORD: 'running-pw', HOPWATCH_ENGINE: 'simulated', HOPWATCH_SIM_SCENARIOS: join(scenarioDir, 'scenario.json') } });
    cookie = await signIn(hw.url, 'admin', 'running-pw');
    const started = await fetch(`${hw.url}/cmd/newtarget?target=10.251.142.9&traceInterval=0.1`, { headers: { cookie } });
    expect(started.status).toBe(200);
    id = ((await started.json()) as { ID: number }).ID;
    countBefore = await waitForCount(30);
    whileRunning = await migrate(['--to', server.url, '--from', hw.dataDir]);
    samplesAtSnapshot = await samplesIn(server.url);
    // Still running, still tracing and answering after the copy.
    countAfterCopy = await waitForCount(countBefore + 20);
    const stopped = await hw.stop();
    expect(stopped.code).toBe(0);
    // The catch-up killed once it copied a chunk (slowed a little per chunk, test only), then run again.
    killedCatchUp = await migrate(['--to', server.url, '--from', hw.dataDir], {
      killAfter: /catching up[^]*\n.* rows \d+% /,
      env: { HOPWATCH_MIGRATE_CHUNK_DELAY_MS: '150' },
    });
    catchUp = await migrate(['--to', server.url, '--from', hw.dataDir]);
  }, 150_000);
  afterAll(async () => {
    await hw?.dispose();
    server?.stop();
    if (scenarioDir) rmSync(scenarioDir, { recursive: true, force: true });
  });

  it('copies a snapshot of the running appliance and says to stop it and run again', () => {
    expect(whileRunning.stderr).toMatch(/waiting for the appliance's snapshot/);
    expect(whileRunning.code, whileRunning.stderr).toBe(0);
    expect(whileRunning.stdout).toMatch(/verified/);
    expect(whileRunning.stdout).toMatch(/copied as of \d{4}-\d\d-\d\dT/);
    expect(whileRunning.stdout).toMatch(/stop the appliance and run the same command again/);
    expect(hw.output()).toMatch(/migrate-store snapshot/);
    expect(countAfterCopy).toBeGreaterThan(countBefore);
    // The snapshot is removed once copied (it is a whole copy of the store).
    expect(existsSync(join(hw.dataDir, 'migrate-snapshot.duckdb'))).toBe(false);
  });

  it('catches up on the stopped appliance, killed and run again: what came after the snapshot, then the whole store verified', () => {
    expect(killedCatchUp.signal, killedCatchUp.stderr).toBe('SIGKILL');
    expect(killedCatchUp.stderr).toMatch(/catching up on what changed since the snapshot of \d{4}-/);
    expect(catchUp.code, catchUp.stderr).toBe(0);
    expect(catchUp.stderr).toMatch(/going on after \d+ of \d+ chunks/);
    expect(catchUp.stdout).toMatch(/verified/);
    expect(catchUp.stdout).toContain('HOPWATCH_DATABASE_URL');
  });

  it('answers every DataPointBuckets and TraceGraphRows question as the stopped DuckDB store, with the same rows in every table', async () => {
    const source = await DuckStore.openReadOnly(hw.dataDir);
    const targetDir = mkdtempSync(join(tmpdir(), 'hopwatch-migrated-'));
    const target = await Store.open(targetDir, { databaseUrl: server.url });
    try {
      const account = (await source.one<{ id: number }>('SELECT min(id) AS id FROM accounts'))!.id;
      const sessions = await source.all<{ id: number; hops: number }>('SELECT session_id AS id, max(hop)::INTEGER AS hops FROM hosts GROUP BY 1 ORDER BY 1');
      expect(sessions.map((s) => s.id)).toEqual([id]);
      const span = (await source.one<{ a: number; b: number }>('SELECT min(time)::DOUBLE AS a, max(time)::DOUBLE AS b FROM samples'))!;
      const [a, b] = [span.a - 1000, span.b + 1000];
      const buckets: [string, number, number, number][] = [
        ['everything at 1 s', a, b, 1],
        ['everything at 5 s', a, b, 5],
        ['everything at 60 s', a - H, b + H, 60],
        ['the second half at 2 s', Math.round((a + b) / 2), b, 2],
      ];
      const graphs: [string, number, number][] = [
        ['everything', a, b],
        ['the second half', Math.round((a + b) / 2), b],
      ];
      const before = await answers(source as unknown as Store, account, sessions, buckets, graphs);
      const after = await answers(target, account, sessions, buckets, graphs);
      const points = (before[`${id} DataPointBuckets everything at 60 s hop 1`] as { Points: { LatencyCount: number }[] }).Points;
      // All the rounds the appliance made, the last ones after the snapshot included.
      expect(points.reduce((s, p) => s + p.LatencyCount, 0)).toBeGreaterThanOrEqual(countAfterCopy);
      expect(after).toEqual(before);

      const tables = (await source.all<{ t: string }>(`SELECT table_name AS t FROM duckdb_tables() WHERE table_name NOT IN ('samples', 'rollups', 'schema_migrations') ORDER BY 1`)).map((r) => r.t);
      const rowsBefore = await tableRows(source as unknown as Store, tables, [id]);
      // The snapshot's copy held samples of the day the catch-up wrote again, and fewer than now.
      expect(samplesAtSnapshot).toBeGreaterThan(0);
      expect(rowsBefore[`samples of ${id}`]).toBeGreaterThan(samplesAtSnapshot);
      expect(await tableRows(target, tables, [id])).toEqual(rowsBefore);
      const next = await target.one<{ id: number }>(`SELECT nextval('session_id_seq')::INTEGER AS id`);
      expect(next!.id).toBe(id + 1);
    } finally {
      await source.close();
      await target.close();
      rmSync(targetDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('still refuses another appliance after the catch-up', async () => {
    const other = mkdtempSync(join(tmpdir(), 'hopwatch-other-'));
    try {
      const s = await Store.open(other);
      await s.run(`INSERT INTO accounts (name) VALUES ('another')`);
      await s.close();
      const refused = await migrate(['--to', server.url, '--from', other]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/another appliance/);
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      expect(Number((await c.query('SELECT count(*) AS n FROM accounts')).rows[0].n)).toBe(1);
      await c.end();
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
