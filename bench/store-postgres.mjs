// The PostgreSQL side of bench:store (`npm run bench:store -- --store postgres`, or
// BENCH_STORE=postgres): the same generated history written into a throwaway PostgreSQL 15
// (test/support/postgres.ts, Debian's postgresql-15) as an appliance started with
// HOPWATCH_DATABASE_URL writes it: the app's PgStore (migrations and all), the ingest pipeline
// (server/ingest: its worker, the flush's binary COPY of round rows, the rollup groups), the
// packer as the retention runner runs it, the DataPointBuckets call itself, and the expiry of
// a day (its partitions dropped). Measures the issue 42 goals: hop samples/s through the
// pipeline, bytes per hop sample all in (pg_total_relation_size of every table of the
// database, indexes and TOAST included), the first read of a 24 h range that ended 6 days ago
// (p95 of 100 calls), and the retention of a day.
import { mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir, loadavg } from 'node:os';

const DAY = 86_400_000;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (t0) => performance.now() - t0;
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/**
 * `history`: { time, hop, latency, total, perBatch, start, end, hops, interval }; `producers`:
 * concurrent senders (as in the DuckDB run); `newSession(store, accountId, name)`: a session
 * row and its hosts, by the same SQL text as the DuckDB run.
 */
export async function postgresSide({ dist, history, producers, newSession, log }) {
  const { startPostgres, PostgresBin } = await import(new URL('../test/support/postgres.ts', import.meta.url).href);
  const { Store } = await import(dist('server/store/db.js'));
  const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
  const { DomainEventBus } = await import(dist('server/events.js'));
  const { dataPointBuckets, bucketGrid } = await import(dist('server/data/buckets.js'));
  const { pgPoolOf, storedCounts } = await import(dist('server/store/sample-tables.js'));
  const { packClosed } = await import(dist('server/store/postgres/samples-pack.js'));
  const { sampleTableBytes } = await import(dist('server/store/postgres/samples-retention.js'));
  const { deleteSessionRows } = await import(dist('server/sessions/repository.js'));
  const { expireOnce } = await import(dist('server/store/retention.js'));

  // Durable as a server would run it (fsync, full pages, synchronous commit: PostgreSQL's
  // defaults), with room for a bulk load: more shared buffers and WAL between checkpoints.
  const server = await startPostgres({
    settings: { fsync: 'on', full_page_writes: 'on', synchronous_commit: 'on', shared_buffers: '256MB', max_wal_size: '4GB', checkpoint_timeout: '15min' },
  });
  const dir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-pg-'));
  let store = await Store.open(dir, { databaseUrl: server.url });
  const events = new DomainEventBus();
  const out = {};
  try {
    const { server_version: version } = await store.one('SHOW server_version');
    log(`PostgreSQL ${version} (throwaway cluster, fsync on, shared_buffers 256MB), the app's PgStore; load average ${load()}`);
    const { time, hop, latency, total, perBatch, start, end, hops } = history;
    const account = await store.one(`INSERT INTO accounts (name) VALUES ('bench') RETURNING id`);
    const sid = await newSession(store, account.id, 'bench');
    const sid2 = await newSession(store, account.id, 'bench-2');

    // 1. Ingest through the pipeline, as the DuckDB run: an unmeasured 8 hours of another
    // session first (the worker compiles its kernels, the JIT warms up; deleted after), then
    // each target's 7 days as batches of an hour of rounds from `producers` concurrent senders,
    // each sending its next batch once the previous one is committed. Two runs, the faster counts.
    const ingest = new IngestPipeline(store, events);
    await ingest.init();
    const batchAt = (sessionId, a, b) => ({ length: b - a, session: new Int32Array(b - a).fill(sessionId), time: time.subarray(a, b), hop: hop.subarray(a, b), latency: latency.subarray(a, b) });
    const warm = await newSession(store, account.id, 'warm-up');
    ingest.openSession(warm, account.id);
    for (let a = 0; a < 8 * perBatch; a += perBatch) await ingest.addBatch(batchAt(warm, a, a + perBatch));
    await ingest.finishSession(warm);
    await store.transaction((q) => deleteSessionRows(q, [warm]));
    const ingestRun = async (sessionId) => {
      ingest.openSession(sessionId, account.id);
      let next = 0;
      const produce = async () => {
        while (next < total) {
          const a = next;
          const b = Math.min(total, a + perBatch);
          next = b;
          await ingest.addBatch(batchAt(sessionId, a, b));
        }
      };
      const t = performance.now();
      await Promise.all(Array.from({ length: producers }, produce));
      return total / (ms(t) / 1000);
    };
    const rates = [await ingestRun(sid), await ingestRun(sid2)];
    out.ingest = Math.max(...rates);
    log(`ingest through the pipeline (server/ingest: worker, binary COPY of round rows per flush, rollup groups), ${producers} senders: ${rates.map((r) => Math.round(r).toLocaleString()).join(' and ')} hop samples/s`);

    // 2. The packer, as the retention runner runs it (every closed hour of samples, every
    // closed period of rollup rows; the last 15 minutes and the open hours stay plain).
    let t = performance.now();
    const packed = await packClosed(pgPoolOf(store));
    const packMs = ms(t);
    log(
      `packing: ${packed.samples.rows.toLocaleString()} hop samples into ${packed.samples.blocks.toLocaleString()} blocks and ` +
        `${packed.rollups.rows.toLocaleString()} rollup rows into ${packed.rollups.blocks.toLocaleString()} blocks in ${(packMs / 1000).toFixed(1)} s ` +
        `(${Math.round(packed.samples.rows / (packMs / 1000)).toLocaleString()} samples/s; ${packed.samples.transactions + packed.rollups.transactions} transactions, longest ${packed.samples.longestMs.toFixed(0)} ms)`,
    );

    // 3. Bytes: pg_total_relation_size (heap, indexes, TOAST) of every table of the database
    // (partitions included), over the hop samples stored; and of the sample and rollup tables alone.
    const pool = pgPoolOf(store);
    await pool.query('VACUUM');
    await pool.query('CHECKPOINT');
    const counts = await storedCounts(store, 0);
    const { rows: all } = await pool.query(
      `SELECT c.relname AS table, pg_total_relation_size(c.oid)::float8 AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'`,
    );
    const allBytes = all.reduce((s, x) => s + x.bytes, 0);
    const sizes = await sampleTableBytes(pool);
    const per = (names) => sizes.filter((x) => names.some((n) => x.table.startsWith(n))).reduce((s, x) => s + x.bytes, 0) / counts.samples;
    out.bytes = allBytes / counts.samples;
    out.samplesAndRollupBytes = per(['sample_', 'rollup_']);
    const { rows: plainLeft } = await pool.query(`SELECT coalesce(sum(octet_length(hops)), 0)::float8 AS n FROM sample_rounds`);
    const others = all.filter((x) => !/^(sample_|rollup_)/.test(x.table)).sort((a, b) => b.bytes - a.bytes);
    log(
      `disk, ${counts.samples.toLocaleString()} hop samples (${plainLeft[0].n.toLocaleString()} of them still plain) and ${counts.rollups.toLocaleString()} rollup rows: ` +
        `${out.bytes.toFixed(2)} bytes per hop sample all in (every table of the database, ${(allBytes / 1e6).toFixed(1)} MB); ` +
        `samples ${per(['sample_']).toFixed(2)} (round rows ${per(['sample_rounds']).toFixed(2)}, blocks ${per(['sample_blocks']).toFixed(2)}), rollups ${per(['rollup_']).toFixed(2)}, ` +
        `the other tables ${((allBytes - sizes.reduce((s, x) => s + x.bytes, 0)) / counts.samples).toFixed(2)} (largest: ${others.slice(0, 3).map((x) => `${x.table} ${(x.bytes / 1e6).toFixed(2)} MB`).join(', ')})`,
    );

    // 4. DataPointBuckets of 24 h that ended 6 days ago (the call itself, as the DuckDB run
    // makes it), the first read of a range: each call a range one more minute back, so that the
    // process's cache of closed rows (closed-reads.ts) never has it and every call reads the
    // store. PostgreSQL's own buffers stay as a running server has them (the OS page cache is
    // not dropped: a shared machine). First an unmeasured call (it compiles the query kernels).
    const principal = { userId: 0, accountId: account.id, username: 'bench', isRoot: true, claims: [] };
    const until = end - 6 * DAY;
    const periodSeconds = DAY / 600 / 1000;
    const call = (shift) => dataPointBuckets(store, principal, { targetId: `${sid}_h_${hops}`, startTime: until - DAY - shift, endTime: until - shift, periodSeconds, includeJitter: true }, ingest);
    await call(0);
    const calls = [];
    let points = 0;
    for (let i = 1; i <= 100; i++) {
      const t0 = performance.now();
      points = (await call(i * 60_000)).Points.length;
      calls.push(ms(t0));
    }
    out.readP95 = pct(calls, 95);
    log(
      `DataPointBuckets, 24 h that ended 6 days ago, buckets of ${bucketGrid(until - DAY, until, periodSeconds * 1000).period / 1000} s, a new range each call ` +
        `(100 calls, ${points} points; load average ${load()}): p50 ${pct(calls, 50).toFixed(2)} p95 ${out.readP95.toFixed(2)} max ${pct(calls, 100).toFixed(2)} ms`,
    );
    // The same after a restart of PostgreSQL (its shared buffers empty; the OS page cache not
    // dropped) and a new store (its caches empty): the first call after each of 5 restarts.
    await ingest.close();
    const restarts = [];
    for (let i = 0; i < 5; i++) {
      await store.close();
      const root = process.getuid?.() === 0;
      // -l: the server's output to its log file (else pg_ctl hands it the caller's pipe, which then never closes).
      const ctl = [join(PostgresBin, 'pg_ctl'), '-D', join(server.dir, 'data'), '-l', join(server.dir, 'log'), '-m', 'fast', '-w', 'restart'];
      execFileSync(root ? 'runuser' : ctl[0], root ? ['-u', 'postgres', '--', ...ctl] : ctl.slice(1), { stdio: 'ignore' });
      store = await Store.open(dir, { databaseUrl: server.url });
      await dataPointBuckets(store, principal, { targetId: `${sid}_h_${hops}`, startTime: end - 600_000, endTime: end, periodSeconds: 1, includeJitter: true }); // kernels compiled, not this range
      const t0 = performance.now();
      await dataPointBuckets(store, principal, { targetId: `${sid}_h_${hops}`, startTime: until - DAY - (200 + i) * 60_000, endTime: until - (200 + i) * 60_000, periodSeconds, includeJitter: true });
      restarts.push(ms(t0));
    }
    out.restartReads = restarts;
    log(`the same, the first call after a restart of PostgreSQL (shared buffers empty) and a new store, 5 restarts: ${restarts.map((x) => x.toFixed(1)).join(', ')} ms`);

    // 5. Retention of a day: the expiry the retention runner runs (retention.ts expireOnce),
    // raw samples kept 5 days: the days wholly before the horizon go, one transaction (their
    // partitions of round rows and blocks dropped) a day.
    t = performance.now();
    const expired = await expireOnce(store, end, { rawDays: 5, minuteDays: 400 });
    out.retentionMs = expired.longestMs;
    log(
      `retention: ${expired.transactions} days of raw samples (${expired.samples.toLocaleString()} hop samples of both targets) dropped in ${ms(t).toFixed(1)} ms ` +
        `all told (with the count of what they held); the longest day (its one transaction) ${expired.longestMs.toFixed(1)} ms`,
    );
    log(`load average at the end: ${load()}`);
    return out;
  } finally {
    await store.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
