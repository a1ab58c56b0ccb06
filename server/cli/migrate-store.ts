// `hopwatch migrate-store --to postgres://... [--from DATA_DIR]` (issue 42 item 4; docs/deploy.md
// "Moving an appliance onto PostgreSQL"): copies a stopped embedded appliance's DuckDB store into
// PostgreSQL. The schema comes from the normal PostgreSQL migrations (baseline and history);
// every table's rows follow in chunks, samples and rollup rows through the PostgreSQL sample
// layout (sample-tables.ts), each chunk in a transaction that records it done, so a run after a
// kill goes on where the last one stopped; sequences are carried over, closed data packed into
// blocks, and a verification pass compares the rows and a sample of answers on both stores.
import { createHash } from 'node:crypto';
import { Store, type DuckStore } from '../store/db.js';
import { pgPoolOf } from '../store/sample-tables.js';
import { packClosed } from '../store/postgres/samples-pack.js';
import { describeUrl } from '../store/postgres/connect.js';
import { MigrateError } from '../store/migrate-store/errors.js';
import { applianceOf, openSource, sourceBytes } from '../store/migrate-store/source.js';
import { CopyTables, checkTarget } from '../store/migrate-store/target.js';
import { planChunks, sourceTables, type Chunk, type SourceColumn } from '../store/migrate-store/plan.js';
import { carrySequences, readSampleChunk, readTableChunk, writeChunk, type SampleChunk } from '../store/migrate-store/copy.js';
import { ProgressBar, duration, grouped } from '../store/migrate-store/progress.js';
import { verify } from './verify.js';

/**
 * Sample chunks written at once by default. One: on the 2-core machine of the measurements
 * (docs/deploy.md "Rate") three writers took longer than one with DuckDB reading ahead; a
 * database server with cores to spare may take more (HOPWATCH_MIGRATE_WRITERS).
 */
export const Writers = 1;

export interface MigrateOptions {
  /** postgres://... */
  to: string;
  /** The appliance's data directory (its hopwatch.duckdb). */
  from: string;
  stdout?: { write(s: string): unknown };
  stderr?: NodeJS.WriteStream | { write(s: string): unknown; isTTY?: boolean };
  /** Between two progress lines when stderr is not a terminal (ms). */
  progressEveryMs?: number;
  /** How long to wait for an unreachable PostgreSQL (ms). */
  connectTimeoutMs?: number;
  /** Chunks written at once (Writers). */
  writers?: number;
  /** Tests only: a pause after each chunk, so a kill lands while it copies. */
  chunkDelayMs?: number;
}

export interface MigrateResult {
  /** Source MB per second of this run's copy (packing included). */
  mbPerSecond: number;
  copiedBytes: number;
  seconds: number;
  verified: boolean;
}

/** Runs the move; throws MigrateError ("{what} failed: {why}") when it cannot go on or the verification finds a difference. */
export async function migrateStore(o: MigrateOptions): Promise<MigrateResult> {
  const stdout = o.stdout ?? process.stdout;
  const stderr = o.stderr ?? process.stderr;
  const say = (line: string) => stderr.write(`${line}\n`);
  const connectTimeoutMs = o.connectTimeoutMs ?? 10_000;
  const source = await openSource(o.from, say);
  let target: Store | undefined;
  try {
    const appliance = await applianceOf(source);
    const prior = await checkTarget(o.to, appliance, connectTimeoutMs);
    target = await Store.open(o.from, { databaseUrl: o.to, connectTimeoutMs, log: say }).catch((err: Error) => {
      throw new MigrateError(/^cannot connect/.test(err.message) ? 'migrate-store' : 'applying the PostgreSQL migrations', err.message);
    });
    for (const sql of CopyTables) await target.run(sql);

    const tables = await copiedTables(source, target, say);
    const chunks = await source.read((q) => planChunks(q, tables.map((t) => t.table)));
    const totalRows = chunks.reduce((s, c) => s + c.rows, 0);
    // What the source held when the copy began: a run after the appliance ran again would mix two states.
    const state = createHash('sha256').update(JSON.stringify(chunks.map((c) => [c.key, c.rows]))).digest('hex').slice(0, 32);
    if (prior.copy && prior.copy.state !== state)
      throw new MigrateError(
        'migrate-store',
        `the appliance's data changed since this copy began (it ran meanwhile): drop and create the database ${describeUrl(o.to)} again, then run migrate-store again with the appliance stopped`,
      );
    if (!prior.copy) await target.run(`INSERT INTO migrate_store_source (id, appliance, state, source_path) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`, [appliance, state, source.path]);

    const done = new Map((await target.all<{ chunk: string; rows: number }>('SELECT chunk, rows FROM migrate_store_chunks')).map((r) => [r.chunk, Number(r.rows)]));
    const doneRows = chunks.filter((c) => done.has(c.key)).reduce((s, c) => s + c.rows, 0);
    const todo = chunks.filter((c) => !done.has(c.key));
    const bytes = await sourceBytes(source, o.from);
    say(`migrate-store: ${source.path} (${(bytes / 1e6).toFixed(1)} MB in use, ${tables.length} tables, ${grouped(totalRows)} rows) into PostgreSQL at ${describeUrl(o.to)}`);
    if (done.size === chunks.length) say('migrate-store: every chunk was copied by an earlier run: carrying the sequences, packing and verifying again');
    else if (done.size) say(`migrate-store: going on after ${done.size} of ${chunks.length} chunks (${grouped(doneRows)} rows copied by an earlier run)`);

    const columnsOf = new Map(tables.map((t) => [t.table, t.columns]));
    const bar = new ProgressBar({ totalRows, doneRows, totalBytes: bytes, out: stderr, everyMs: o.progressEveryMs });
    const started = performance.now();
    const read = (c: Chunk): Promise<SampleChunk | Record<string, unknown>[]> =>
      source.read<SampleChunk | Record<string, unknown>[]>((q) => (c.kind === 'samples' ? readSampleChunk(q, c) : readTableChunk(q, c, columnsOf.get(c.table)!)));
    // Where the time went (printed with the rate): DuckDB's reads, PostgreSQL's writes (summed over the writers), the packing.
    const took = { reading: 0, writing: 0, packing: 0 };
    // Plain tables one chunk after another (accounts before the users that refer to them), then
    // the sample chunks, `writers` at once, each chunk its own transaction. DuckDB reads the
    // chunks one at a time, ahead of the writers (its reads side by side were slower in sum).
    const copyAll = async (list: Chunk[], count: number) => {
      let at = 0;
      let readChain: Promise<unknown> = Promise.resolve();
      const reads = new Map<number, ReturnType<typeof read>>();
      const readAhead = (from: number) => {
        for (let k = from; k < Math.min(list.length, from + count + 1); k++) {
          if (reads.has(k)) continue;
          const c = list[k];
          const p = readChain.then(() => read(c));
          p.catch(() => undefined); // awaited by its writer
          readChain = p.catch(() => undefined);
          reads.set(k, p);
        }
      };
      const writer = async () => {
        while (at < list.length) {
          const k = at++;
          const c = list[k];
          readAhead(k);
          let t = performance.now();
          const data = await reads.get(k)!.catch((err: Error) => {
            throw new MigrateError(`reading ${label(c)} from DuckDB`, err.message);
          });
          took.reading += performance.now() - t; // waiting for it: reads ahead overlap the writes
          reads.delete(k);
          t = performance.now();
          await writeChunk(target!, c, data, c.kind === 'table' ? columnsOf.get(c.table) : undefined).catch((err: Error) => {
            throw new MigrateError(`copying ${label(c)}`, err.message);
          });
          took.writing += performance.now() - t;
          bar.add(c.rows);
          if (o.chunkDelayMs) await new Promise((r) => setTimeout(r, o.chunkDelayMs));
        }
      };
      // The first failure stops the others taking chunks; each ends (or fails) its current one first.
      const ends = await Promise.allSettled(Array.from({ length: count }, () => writer().catch((err) => ((at = list.length), Promise.reject(err)))));
      const failed = ends.find((e): e is PromiseRejectedResult => e.status === 'rejected');
      if (failed) throw failed.reason;
    };
    await copyAll(todo.filter((c) => c.kind === 'table'), 1);
    await copyAll(todo.filter((c) => c.kind === 'samples'), Math.max(1, o.writers ?? Writers));
    const sequences = await carrySequences(source, target);
    bar.finish();
    say(`migrate-store: ${sequences} sequences carried over; packing closed samples and rollup rows into blocks`);
    const packStart = performance.now();
    const packed = await packClosed(pgPoolOf(target)!).catch((err: Error) => {
      throw new MigrateError('packing the copied samples', err.message);
    });
    took.packing = performance.now() - packStart;
    const seconds = (performance.now() - started) / 1000;
    const copiedBytes = totalRows ? ((totalRows - doneRows) / totalRows) * bytes : 0;
    const mbPerSecond = seconds > 0 ? copiedBytes / 1e6 / seconds : 0;
    await target.run(`UPDATE migrate_store_source SET finished_at = coalesce(finished_at, now())`);
    stdout.write(
      `migrate-store: copied ${(copiedBytes / 1e6).toFixed(1)} MB of ${(bytes / 1e6).toFixed(1)} MB in ${duration(seconds * 1000)}: ${mbPerSecond.toFixed(1)} MB/s ` +
        `(${grouped(packed.samples.rows)} hop samples and ${grouped(packed.rollups.rows)} rollup rows packed into ${grouped(packed.samples.blocks + packed.rollups.blocks)} blocks; ` +
        `waiting for DuckDB's reads ${secs(took.reading)}, PostgreSQL's writes ${secs(took.writing)}, packing ${secs(took.packing)})\n`,
    );

    say('migrate-store: verifying (rows of every table, and answers of both stores)');
    const v = await verify(source, target, tables.map((t) => t.table)).catch((err: Error) => {
      throw new MigrateError('verification', `${err.message} (the copy is in PostgreSQL; the DuckDB file is unchanged)`);
    });
    if (v.differences.length)
      throw new MigrateError(
        'verification',
        `${v.differences.length} differences between DuckDB and PostgreSQL: ${v.differences.slice(0, 5).join('; ')}${v.differences.length > 5 ? '; ...' : ''} (the DuckDB file is unchanged: keep the appliance on it and report this)`,
      );
    stdout.write(
      [
        `migrate-store: verified: ${v.tables} tables and ${grouped(v.rows)} rows the same on both stores; ${v.answers} answers (DataPointBuckets, TraceGraphRows) of ${v.sessions} sessions equal.`,
        'Next:',
        `  1. Set HOPWATCH_DATABASE_URL=postgres://${describeUrl(o.to)} (with its password) for the appliance: compose .env, Helm database.existingSecret, or the environment.`,
        '  2. Start the appliance: it opens PostgreSQL and goes on where the DuckDB store ended (the data directory keeps the key files: keep it).',
        `  3. Keep ${source.path} as the backup until you are content; the appliance no longer writes it.`,
        '',
      ].join('\n'),
    );
    return { mbPerSecond, copiedBytes, seconds, verified: true };
  } finally {
    await target?.close().catch(() => undefined);
    await source.close().catch(() => undefined);
  }
}

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const label = (c: Chunk) => (c.kind === 'table' ? `table ${c.table} (rows ${grouped(c.from)} to ${grouped(c.to)})` : `samples of session ${c.sessionId}, ${new Date(c.from).toISOString().slice(0, 10)}`);

/** The source's tables the target has (every column of them); what the target has no table for is DuckDB's own bookkeeping, said and left. */
async function copiedTables(source: DuckStore, target: Store, say: (l: string) => void): Promise<{ table: string; columns: SourceColumn[] }[]> {
  const all = await source.read((q) => sourceTables(q));
  const cols = await target.all<{ t: string; c: string }>(`SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()`);
  const has = new Map<string, Set<string>>();
  for (const r of cols) has.set(r.t, (has.get(r.t) ?? new Set()).add(r.c));
  const left = all.filter((t) => !has.has(t.table)).map((t) => t.table);
  if (left.length) say(`migrate-store: not copied (DuckDB's own, no table in PostgreSQL's schema): ${left.join(', ')}`);
  const out = all.filter((t) => has.has(t.table));
  for (const t of out) {
    const missing = t.columns.filter((c) => !has.get(t.table)!.has(c.name)).map((c) => c.name);
    if (missing.length) throw new MigrateError('migrate-store', `PostgreSQL's table ${t.table} has no column ${missing.join(', ')}: the schemas differ (is the target at this release's migration?)`);
  }
  return out;
}
