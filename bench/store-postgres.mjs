// The PostgreSQL side of bench:store (`npm run bench:store -- --store postgres`, or
// BENCH_STORE=postgres): the same generated history written into a throwaway PostgreSQL 15
// (test/support/postgres.ts, Debian's postgresql-15) through the samples backend of
// server/store/postgres/ (binary COPY of round rows, the packer, the reads, the day drop),
// with the rollup rows DuckDB's ingest made for the same history. Measures the issue's goals:
// hop samples/s written, bytes per hop sample all in (pg_total_relation_size of every sample
// and rollup table, partitions, indexes and TOAST), the first read of a 24 h range that ended
// 6 days ago (p95), and the retention of a day (its partitions dropped).
import pg from 'pg';
import { loadavg } from 'node:os';

const DAY = 86_400_000;
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (t0) => performance.now() - t0;

/**
 * `history`: { time, hop, latency, total, perBatch, start, end, hops }; `rollups(resolution)`:
 * the rollup rows DuckDB holds for the session whose samples these are (RollupRows);
 * `marks`: that session's closed marks; `producers`: concurrent writers.
 */
export async function postgresSide({ dist, history, rollupsOf, marks, producers, log }) {
  const { startPostgres } = await import(new URL('../test/support/postgres.ts', import.meta.url).href);
  const schema = await import(dist('server/store/postgres/samples-schema.js'));
  const write = await import(dist('server/store/postgres/samples-write.js'));
  const { packClosed } = await import(dist('server/store/postgres/samples-pack.js'));
  const { pgCover } = await import(dist('server/store/postgres/samples-pieces.js'));
  const retention = await import(dist('server/store/postgres/samples-retention.js'));
  const { bucketGrid, toPoints, maxHopOf } = await import(dist('server/data/buckets.js'));
  const { addPieces } = await import(dist('server/data/sources.js'));
  const { queryKernels } = await import(dist('server/data/kernels.js'));

  // Durable as a server would run it (fsync, full pages, synchronous commit: PostgreSQL's
  // defaults), with room for a bulk load: more shared buffers and WAL between checkpoints.
  const server = await startPostgres({
    settings: { fsync: 'on', full_page_writes: 'on', synchronous_commit: 'on', shared_buffers: '256MB', max_wal_size: '4GB', checkpoint_timeout: '15min' },
  });
  const pool = new pg.Pool({ connectionString: server.url, max: producers + 2 });
  const out = {};
  try {
    await schema.createSamplesSchema(pool);
    const { rows: v } = await pool.query('SHOW server_version');
    log(`PostgreSQL ${v[0].server_version} (throwaway cluster, fsync on, shared_buffers 256MB); load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    const { time, hop, latency, total, perBatch, start, end, hops } = history;
    const sessions = [1, 2];

    // 1. Samples: batches of an hour of rounds from `producers` concurrent writers, each its
    // own transaction (the day partitions made first), as ingest's flushes would write them.
    const run = async (sessionId) => {
      let next = 0;
      const produce = async () => {
        while (next < total) {
          const a = next;
          const b = Math.min(total, a + perBatch);
          next = b;
          const batch = { length: b - a, session: new Int32Array(b - a).fill(sessionId), time: time.subarray(a, b), hop: hop.subarray(a, b), latency: latency.subarray(a, b) };
          await write.prepareSampleDays(pool, batch);
          const c = await pool.connect();
          try {
            await c.query('BEGIN');
            await write.copySamples(c, batch);
            await c.query('COMMIT');
          } finally {
            c.release();
          }
        }
      };
      const t = performance.now();
      await Promise.all(Array.from({ length: producers }, produce));
      return total / (ms(t) / 1000);
    };
    const rates = [];
    for (const s of sessions) rates.push(await run(s));
    out.ingest = Math.max(...rates);
    log(`ingest into PostgreSQL (round rows by binary COPY, ${producers} writers, a transaction per hour of rounds): ${rates.map((r) => Math.round(r).toLocaleString()).join(' and ')} hop samples/s`);

    // 2. The rollup rows of the same history (DuckDB's ingest made them), per session and level.
    let t = performance.now();
    let rollupRows = 0;
    for (const s of sessions) {
      for (const resolution of [60_000, 600_000, 3_600_000]) {
        const rows = await rollupsOf(resolution);
        rollupRows += rows.time.length;
        const sets = [{ resolution, sessionId: s, rows }];
        await write.prepareRollupDays(pool, sets);
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          await write.copyRollups(c, sets);
          await c.query('COMMIT');
        } finally {
          c.release();
        }
      }
    }
    log(`rollup rows: ${rollupRows.toLocaleString()} in ${(ms(t) / 1000).toFixed(1)} s`);

    // 3. The packer: every closed hour of samples, every closed period of rollup rows.
    t = performance.now();
    const packed = await packClosed(pool);
    const packMs = ms(t);
    log(
      `packing: ${packed.samples.rows.toLocaleString()} hop samples into ${packed.samples.blocks.toLocaleString()} blocks and ` +
        `${packed.rollups.rows.toLocaleString()} rollup rows into ${packed.rollups.blocks.toLocaleString()} blocks in ${(packMs / 1000).toFixed(1)} s ` +
        `(${Math.round(packed.samples.rows / (packMs / 1000)).toLocaleString()} samples/s; ${packed.samples.transactions + packed.rollups.transactions} transactions, longest ${packed.samples.longestMs.toFixed(0)} ms)`,
    );

    // 4. Bytes: every table of samples and rollup rows, partitions, indexes and TOAST.
    await pool.query('CHECKPOINT');
    const sizes = await retention.sampleTableBytes(pool);
    const counts = await retention.sampleCounts(pool, 0);
    const bytes = sizes.reduce((s, x) => s + x.bytes, 0);
    out.bytes = bytes / counts.samples;
    const per = (names) => sizes.filter((x) => names.some((n) => x.table.startsWith(n))).reduce((s, x) => s + x.bytes, 0) / counts.samples;
    const plainLeft = await pool.query(`SELECT coalesce(sum(octet_length(hops)), 0)::float8 AS n FROM sample_rounds`);
    log(
      `disk, ${counts.samples.toLocaleString()} hop samples (${plainLeft.rows[0].n.toLocaleString()} of them still plain) and ${rollupRows.toLocaleString()} rollup rows: ` +
        `${out.bytes.toFixed(2)} bytes per hop sample all in; samples ${per(['sample_']).toFixed(2)} (round rows ${per(['sample_rounds']).toFixed(2)}, blocks ${per(['sample_blocks']).toFixed(2)}), ` +
        `rollups ${per(['rollup_']).toFixed(2)}; ${sizes.map((x) => `${x.table} ${(x.bytes / 1e6).toFixed(1)} MB`).join(', ')}`,
    );
    // The plain layout alone (what the data would take never packed): one day of round rows.
    {
      const n = Math.min(total, (DAY / history.interval) * hops);
      await pool.query('CREATE TABLE plain_probe (LIKE sample_rounds)');
      const c = await pool.connect();
      try {
        const { copyInto } = await import(dist('server/store/postgres/copy-binary.js'));
        await copyInto(c, 'plain_probe', 'session_id, time, hops, latencies', write.roundRows({ length: n, session: new Int32Array(n).fill(9), time: time.subarray(0, n), hop: hop.subarray(0, n), latency: latency.subarray(0, n) }));
      } finally {
        c.release();
      }
      await pool.query('CREATE INDEX ON plain_probe (session_id, time)');
      await pool.query('VACUUM plain_probe');
      const { rows } = await pool.query(`SELECT pg_total_relation_size('plain_probe')::float8 AS b`);
      out.plainBytes = rows[0].b / n;
      log(`the plain layout alone (a day of round rows and their index, never packed): ${out.plainBytes.toFixed(2)} bytes per hop sample`);
      await pool.query('DROP TABLE plain_probe');
    }

    // 5. DataPointBuckets' store read and bucketing of 24 h that ended 6 days ago (the bench's
    // fourth range, its hop): each call a range one more minute back, so that no call reads
    // what an earlier one read (the first read of a range). The kernels as the server runs them.
    const until = end - 6 * DAY;
    const periodMs = DAY / 600;
    const calls = [];
    let points = 0;
    const read = async (from, to) => {
      const grid = bucketGrid(from, to, periodMs);
      const gridEnd = grid.start + grid.bucketCount * grid.period;
      const pieces = await pgCover(pool, sessions[0], grid.start, gridEnd, grid.resolution, marks, grid, hops);
      const hopCount = Math.max(1, hops, ...pieces.map(maxHopOf));
      const acc = addPieces(queryKernels().begin({ start: grid.start, period: grid.period, bucketCount: grid.bucketCount, hopCount }), pieces);
      return toPoints(acc.finishBuckets({ views: true }), hops, true, hops);
    };
    await read(until - DAY - 3_600_000, until - 3_600_000); // compiles the kernels once, not measured
    for (let i = 1; i <= 100; i++) {
      const t0 = performance.now();
      points = (await read(until - DAY - i * 60_000, until - i * 60_000)).length;
      calls.push(ms(t0));
    }
    out.readP95 = pct(calls, 95);
    log(`24 h that ended 6 days ago, buckets of ${bucketGrid(until - DAY, until, periodMs).period / 1000} s, a new range each call (100 calls, ${points} points): p50 ${pct(calls, 50).toFixed(2)} p95 ${out.readP95.toFixed(2)} max ${pct(calls, 100).toFixed(2)} ms`);

    // 6. Retention of a day: the oldest whole day's partitions of samples (rounds and blocks)
    // dropped in one transaction; then its 1-minute rollup rows likewise.
    const firstWhole = (Math.floor(start / DAY) + 1) * DAY;
    t = performance.now();
    const dropped = await retention.expireSampleDays(pool, firstWhole + DAY);
    const bothMs = ms(t);
    const minuteDrop = await retention.expireMinuteRollupDays(pool, firstWhole + DAY);
    log(
      `retention: raw samples of ${dropped.days.length} days (${dropped.days.map((d) => new Date(d * DAY).toISOString().slice(0, 10)).join(', ')}) dropped in ${bothMs.toFixed(1)} ms ` +
        `(longest day ${dropped.longestMs.toFixed(1)} ms, both sessions); their 1-minute rollup rows in ${minuteDrop.longestMs.toFixed(1)} ms a day`,
    );
    out.retentionMs = dropped.longestMs; // a day: the longer of the two
    log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    return out;
  } finally {
    await pool.end();
    server.stop();
  }
}
