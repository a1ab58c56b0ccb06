// The PostgreSQL store itself (issue 42 items 1, 2, 5): the baseline is DuckDB's schema after
// migrations 1 to 22, column by column; replicas starting at once migrate once (advisory lock);
// a migration from 23 on runs on both backends, with its PostgreSQL hook where the dialects
// differ; an unreachable server stops the start naming its host, never the password; and two
// writers that do not conflict run at the same time (no in-process lock between them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../db.js';
import { list } from '../dialect.js';
import { migrations } from '../migrations.js';
import { BaselineMigration } from './baseline.js';
import { RollupLevels } from './samples-schema.js';
import { DatabaseUnreachable } from './connect.js';
import { postgresInstalled, startPostgres, type ThrowawayPostgres } from '../../../test/support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-pgstore-'));
let cluster: ThrowawayPostgres;
let n = 0;

/** A new, empty database on the cluster. */
async function database(): Promise<string> {
  const name = `t${++n}`;
  const c = new pg.Client(cluster.url);
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(cluster.url);
  u.pathname = `/${name}`;
  return u.toString();
}

describe.runIf(postgresInstalled())('the PostgreSQL store', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts at DuckDB\'s schema of migrations 1 to 22: the same tables, columns, types and nullability', async () => {
    const duck = await Store.open(join(dir, 'duck'));
    const pgStore = await Store.open(join(dir, 'pg'), { databaseUrl: await database() });
    try {
      // DuckDB's types by PostgreSQL's names (the compat domains: DOUBLE, TINYINT).
      const same: Record<string, string> = { VARCHAR: 'text', 'character varying': 'text', INTEGER: 'integer', BIGINT: 'bigint', SMALLINT: 'smallint', BOOLEAN: 'boolean', DOUBLE: 'double', TINYINT: 'tinyint', 'TIMESTAMP WITH TIME ZONE': 'timestamptz', 'timestamp with time zone': 'timestamptz', 'VARCHAR[]': 'text[]', ARRAY: 'text[]' };
      const norm = (t: string) => same[t] ?? t;
      const duckCols = await duck.all<{ t: string; c: string; type: string; nullable: boolean }>(
        `SELECT table_name AS t, column_name AS c, data_type AS type, is_nullable AS nullable FROM duckdb_columns() WHERE NOT internal AND schema_name = 'main' ORDER BY t, column_index`,
      );
      const pgCols = await pgStore.all<{ t: string; c: string; type: string; nullable: boolean }>(
        `SELECT table_name AS t, column_name AS c, CASE WHEN domain_name IS NOT NULL THEN domain_name ELSE data_type END AS type, is_nullable = 'YES' AS nullable
         FROM information_schema.columns WHERE table_schema = 'public' ORDER BY t, ordinal_position`,
      );
      const shape = (rows: { t: string; c: string; type: string; nullable: boolean }[]) => rows.map((r) => `${r.t}.${r.c} ${norm(r.type)}${r.nullable ? '' : ' NOT NULL'}`);
      // Samples and rollup rows are the exception (migration 25): DuckDB's tables there, the
      // PostgreSQL layout here (samples-schema.ts), and nothing else of either.
      const layout = new Set(['sample_rounds', 'sample_blocks', ...RollupLevels.flatMap((l) => [l.rows, l.blocks])]);
      const partition = (t: string) => /_d\d+$/.test(t);
      // And the server keys (migration 27): files of the data directory on DuckDB, rows here.
      layout.add('server_keys');
      expect(shape(pgCols.filter((r) => !layout.has(r.t) && !partition(r.t)))).toEqual(shape(duckCols.filter((r) => r.t !== 'samples' && r.t !== 'rollups')));
      expect(new Set(pgCols.map((r) => r.t).filter((t) => layout.has(t)))).toEqual(layout);
      const applied = await pgStore.all<{ id: number }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(applied.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
      // The seeded row and the view that folds the tallies read alike.
      expect(await pgStore.all('SELECT id, name FROM configurations')).toEqual(await duck.all('SELECT id, name FROM configurations'));
      const acc = (await pgStore.one<{ id: number }>(`INSERT INTO accounts (name) VALUES ('a') RETURNING id`))!;
      const ses = (await pgStore.one<{ id: number }>(
        `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time) VALUES ($1, 'x', 'x', '1.2.3.4', 1, 0, 1000, 5) RETURNING id`,
        [acc.id],
      ))!;
      await pgStore.run('INSERT INTO sample_tallies VALUES ($1, 30, 1000, 2000), ($1, 10, 500, 1500)', [ses.id]);
      expect(await pgStore.one('SELECT sample_count, first_sample, latest_sample FROM sessions_counted WHERE id = $1', [ses.id])).toEqual({ sample_count: 40, first_sample: 500, latest_sample: 2000 });
    } finally {
      await duck.close();
      await pgStore.close();
    }
  });

  it('migrates once when replicas start together (an advisory lock), and a second start applies nothing', async () => {
    const url = await database();
    const stores = await Promise.all([1, 2, 3].map((i) => Store.open(join(dir, `replica-${i}`), { databaseUrl: url })));
    try {
      const rows = await stores[0].all<{ id: number; n: number }>('SELECT id, count(*)::INTEGER AS n FROM schema_migrations GROUP BY id ORDER BY id');
      expect(rows.map((r) => r.n)).toEqual(migrations.map(() => 1));
    } finally {
      for (const s of stores) await s.close();
    }
  });

  it('refuses text with U+0000, which PostgreSQL cannot store, as the caller\'s bad input (status 400), alone and in a list', async () => {
    const store = await Store.open(join(dir, 'nul'), { databaseUrl: await database() });
    try {
      expect(await store.one('SELECT $1::VARCHAR AS v', ['a b'])).toEqual({ v: 'a b' });
      for (const param of ['a\u0000b', list(['x', '\u0000'])]) {
        const err = (await store.one('SELECT $1::VARCHAR AS v', [param]).catch((e: unknown) => e)) as { statusCode?: number; message?: string };
        expect(err.statusCode).toBe(400);
        expect(err.message).toBe('Text with the NUL character (U+0000) cannot be stored or looked up.');
      }
    } finally {
      await store.close();
    }
  });

  it('runs work of one name alone across processes sharing the database (Store.alone), other names beside it', async () => {
    const url = await database();
    const [a, b] = await Promise.all([Store.open(join(dir, 'alone-a'), { databaseUrl: url }), Store.open(join(dir, 'alone-b'), { databaseUrl: url })]);
    try {
      const steps: string[] = [];
      const work = (who: string) => async () => {
        steps.push(`${who} in`);
        await new Promise((r) => setTimeout(r, 200));
        steps.push(`${who} out`);
      };
      await Promise.all([a.alone('first start', work('a')), b.alone('first start', work('b'))]);
      // One after the other, whichever came first.
      expect([
        ['a in', 'a out', 'b in', 'b out'],
        ['b in', 'b out', 'a in', 'a out'],
      ]).toContainEqual(steps);
      steps.length = 0;
      await Promise.all([a.alone('one', work('a')), b.alone('another', work('b'))]);
      expect(steps.slice(0, 2).sort()).toEqual(['a in', 'b in']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('runs a migration from 23 on both backends, PostgreSQL\'s hook where the dialects differ', async () => {
    const next = Math.max(...migrations.map((m) => m.id)) + 1;
    expect(next).toBeGreaterThan(BaselineMigration);
    migrations.push({
      id: next,
      name: 'test: one text for both, one statement per dialect',
      up: ['CREATE TABLE test_both (id INTEGER PRIMARY KEY, v DOUBLE)', `CREATE TABLE test_dialect AS SELECT 'duckdb' AS d`],
      postgres: ['CREATE TABLE test_both (id INTEGER PRIMARY KEY, v DOUBLE)', `CREATE TABLE test_dialect AS SELECT 'postgres'::text AS d`],
    });
    try {
      const duck = await Store.open(join(dir, 'duck-next'));
      const pgStore = await Store.open(join(dir, 'pg-next'), { databaseUrl: await database() });
      try {
        for (const [s, d] of [[duck, 'duckdb'], [pgStore, 'postgres']] as const) {
          await s.run('INSERT INTO test_both VALUES (1, 2.5) ON CONFLICT (id) DO UPDATE SET v = excluded.v');
          expect(await s.all('SELECT * FROM test_both')).toEqual([{ id: 1, v: 2.5 }]);
          expect(await s.one('SELECT d FROM test_dialect')).toEqual({ d });
          expect(await s.one('SELECT max(id) AS id FROM schema_migrations')).toEqual({ id: next });
        }
      } finally {
        await duck.close();
        await pgStore.close();
      }
    } finally {
      migrations.pop();
    }
  });

  it('stops the start with an error naming the unreachable host, never the password', async () => {
    const closed = `postgres://hopwatch:s3cret@127.0.0.1:${cluster.port + 1}/hopwatch`;
    const lines: string[] = [];
    const err = await Store.open(join(dir, 'unreachable'), { databaseUrl: closed, connectTimeoutMs: 1500, log: (l) => lines.push(l) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseUnreachable);
    expect((err as Error).message).toMatch(new RegExp(`^cannot connect to PostgreSQL at hopwatch@127\\.0\\.0\\.1:${cluster.port + 1}/hopwatch: `));
    expect((err as Error).message).not.toContain('s3cret');
    expect(lines.join('\n')).toMatch(/^waiting for PostgreSQL at hopwatch@127\.0\.0\.1/);
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('runs two writers that do not conflict at the same time; row locks order two that do', async () => {
    const s = await Store.open(join(dir, 'writers'), { databaseUrl: await database() });
    try {
      await s.run('CREATE TABLE w (id INTEGER PRIMARY KEY, v INTEGER)');
      await s.run('INSERT INTO w VALUES (1, 0), (2, 0)');
      // The first transaction stays open until the second has committed: with one writer lane
      // (DuckDB's) the second would wait for the first and this would never settle.
      let secondDone!: () => void;
      const second = new Promise<void>((r) => (secondDone = r));
      const first = s.transaction(async (q) => {
        await q.run('UPDATE w SET v = v + 1 WHERE id = 1');
        await second;
      });
      await s.transaction(async (q) => q.run('UPDATE w SET v = v + 1 WHERE id = 2'));
      secondDone();
      await first;
      // Conflicting writers: 20 increments of one row at once, none lost.
      await Promise.all(Array.from({ length: 20 }, () => s.transaction((q) => q.run('UPDATE w SET v = v + 1 WHERE id = 1'))));
      expect(await s.all('SELECT id, v FROM w ORDER BY id')).toEqual([{ id: 1, v: 21 }, { id: 2, v: 1 }]);
    } finally {
      await s.close();
    }
  });
});
