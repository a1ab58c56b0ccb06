// npm run bench:files: a generated history of 7 days x 30 hops at 2.5 s (~7.3 M hop samples)
// ingested through the real pipeline (as bench:store seeds it), its closed days packed as the
// server's hourly run does (sample-order.ts: stored by hop, then time), then
//   export: DownloadPP2File's writer (server/datafiles/export.ts) against DuckDB's own
//           COPY ... TO (FORMAT parquet) of the same rows, in the same run;
//   import: ImportPP2File's bulk reader and writer (checks, samples, rollups in one transaction) against
//           DuckDB's own COPY ... FROM of the same file into a table;
//   delete: the database file's size before and after deleting the two sessions.
// Prints what it measured (seconds, bytes per hop sample, ratios).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = (p) => fileURLToPath(new URL(`../dist/${p}`, import.meta.url));
if (!existsSync(dist('server/datafiles/export.js'))) {
  console.error('dist/ is missing: run "npm run build" first');
  process.exit(1);
}
(await import('./server-flags.mjs')).underServerFlags(import.meta.url);
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));
const { writeDataFile } = await import(dist('server/datafiles/export.js'));
const { importDataFile } = await import(dist('server/datafiles/import.js'));
const { deleteForGood } = await import(dist('server/sessions/service.js'));
const { loadConfig } = await import(dist('server/config.js'));
const { packSamples } = await import(dist('server/store/sample-order.js'));

const DAY = 86_400_000;
const HOPS = 30;
const INTERVAL = 2500;
const rounds = (7 * DAY) / INTERVAL;
const total = rounds * HOPS;
const end = Math.floor(Date.now() / 60_000) * 60_000;
const start = end - 7 * DAY;

let seed = 4242;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const time = new Float64Array(total);
const hop = new Int32Array(total);
const latency = new Float64Array(total);
for (let r = 0, i = 0; r < rounds; r++) {
  const t = start + r * INTERVAL;
  for (let h = 1; h <= HOPS; h++, i++) {
    time[i] = t;
    hop[i] = h;
    latency[i] = rnd() < 0.02 ? LatencyCode.Timeout : 1 + h * 0.8 + rnd() * 4;
  }
}

const s = (t0) => (performance.now() - t0) / 1000;
const fmt = (x, d = 2) => x.toFixed(d);
const dir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-files-'));
const store = await Store.open(dir);
const events = new DomainEventBus();
const ingest = new IngestPipeline(store, events);
await ingest.init();
try {
  console.log(`bench:files ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0].model}), load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`history: 7 days x ${HOPS} hops at ${INTERVAL / 1000} s = ${total.toLocaleString()} hop samples`);
  const account = await store.one(`INSERT INTO accounts (name) VALUES ('bench') RETURNING id`);
  const sid = (
    await store.one(
      `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, end_time)
       VALUES ($1, 'bench.example.test', 'bench.example.test', '10.0.0.1', 2, 0, $2, $3, $4) RETURNING id`,
      [account.id, INTERVAL, start, end],
    )
  ).id;
  for (let h = 1; h <= HOPS; h++) await store.run(`INSERT INTO hosts (session_id, hop, address, updated_at) VALUES ($1, $2, $3, 0)`, [sid, h, `10.0.0.${h}`]);
  ingest.openSession(sid, account.id);
  const perBatch = (3_600_000 / INTERVAL) * HOPS;
  for (let a = 0; a < total; a += perBatch) {
    await ingest.addBatch({ length: perBatch, session: new Int32Array(perBatch).fill(sid), time: time.subarray(a, a + perBatch), hop: hop.subarray(a, a + perBatch), latency: latency.subarray(a, a + perBatch) });
  }
  await ingest.finishSession(sid);
  // The closed days as a server holds them: packed by its hourly run.
  const packed = await packSamples(store);
  console.log(`packed: ${packed.days} closed days (${packed.rows.toLocaleString()} hop samples) stored by hop, then time`);
  await store.run('CHECKPOINT');
  const principal = { userId: 1, accountId: account.id, username: 'bench', isRoot: true, claims: ['TargetManagement', 'SessionManagement'] };

  // Export, alternating with DuckDB's own COPY; each side's faster of two runs counts.
  const ours = [];
  const peer = [];
  const ourFile = join(dir, 'export.pp2');
  const peerFile = join(dir, 'peer.parquet');
  for (let run = 0; run < 2; run++) {
    rmSync(ourFile, { force: true });
    let t = performance.now();
    await writeDataFile(store, principal, { ID: String(sid) }, ourFile);
    ours.push(s(t));
    rmSync(peerFile, { force: true });
    t = performance.now();
    await store.read((q) => q.run(`COPY (SELECT time, hop, latency FROM samples WHERE session_id = ${sid}) TO '${peerFile}' (FORMAT parquet)`));
    peer.push(s(t));
  }
  const ourBytes = statSync(ourFile).size;
  const peerBytes = statSync(peerFile).size;
  const e = Math.min(...ours);
  const p = Math.min(...peer);
  console.log(`export  DownloadPP2File: ${fmt(e)} s, ${ourBytes.toLocaleString()} bytes = ${fmt(ourBytes / total)} bytes/hop sample (goals <= 3 s, <= 4 bytes)`);
  console.log(`        DuckDB COPY TO parquet (default snappy): ${fmt(p)} s, ${peerBytes.toLocaleString()} bytes = ${fmt(peerBytes / total)} bytes/hop sample`);
  console.log(`        ratio ours/DuckDB: time ${fmt(e / p)}x, size ${fmt(ourBytes / peerBytes)}x`);

  // Import: the whole ImportPP2File path against DuckDB's COPY FROM of the same file.
  const deps = { store, events, config: loadConfig({}), ingest };
  const { readMetadata, checkSamples } = await import(dist('server/datafiles/read-file.js'));
  let t = performance.now();
  await store.read(async (q) => checkSamples(q, ourFile, 'export.pp2', await readMetadata(q, ourFile, 'export.pp2')));
  const checks = s(t);
  // CPU seconds of the process (JS and DuckDB's threads) beside the wall time: on a shared
  // machine the wall time grows with the load, the CPU time far less.
  const cpuOf = (c) => {
    const d = process.cpuUsage(c);
    return (d.user + d.system) / 1e6;
  };
  let c0 = process.cpuUsage();
  t = performance.now();
  const { ID: imported, phases } = await importDataFile(deps, principal, { path: ourFile, name: 'export.pp2' });
  const i = s(t);
  const iCpu = cpuOf(c0);
  const ph = (ms) => fmt(ms / 1000);
  await store.run('CREATE TABLE copy_peer (time_ms BIGINT, hop SMALLINT, latency_us INTEGER)');
  c0 = process.cpuUsage();
  t = performance.now();
  await store.run(`COPY copy_peer FROM '${ourFile}' (FORMAT parquet)`);
  const ip = s(t);
  const ipCpu = cpuOf(c0);
  await store.run('DROP TABLE copy_peer');
  console.log(`import  ImportPP2File (bulk: metadata and layout checks, then one transaction: the samples' INSERT ... SELECT from the file while a read connection reads it again, checks and rolls it up): ${fmt(i)} s, CPU ${fmt(iCpu)} s (goal <= 6 s)`);
  console.log(`        of which: checks ${ph(phases.checks)} s, transaction ${ph(phases.transaction)} s: session rows ${ph(phases.session)}, samples INSERT ${ph(phases.insert)} s alongside (file read ${ph(phases.read)} + rollups ${ph(phases.rollup)}), rollup appends ${ph(phases.append)}, COMMIT ${ph(phases.commit)}; the full SQL value scan alone (checkSamples, run only for a file that fails): ${fmt(checks)} s`);
  console.log(`        DuckDB COPY FROM parquet into a table: ${fmt(ip)} s, CPU ${fmt(ipCpu)} s; ratio ${fmt(i / ip)}x, CPU ${fmt(iCpu / ipCpu)}x (load average ${loadavg()[0].toFixed(1)})`);

  // Deleting: the database file and its blocks before and after (pragma_database_size).
  const blocks = async () => {
    const b = await store.one(`SELECT used_blocks::BIGINT AS used, free_blocks::BIGINT AS free FROM pragma_database_size()`);
    return `${(statSync(store.path).size / 1e6).toFixed(1)} MB file, ${b.used} used + ${b.free} free blocks`;
  };
  await store.run('CHECKPOINT');
  const before = await blocks();
  t = performance.now();
  await deleteForGood({ store }, [sid]);
  const d1 = s(t);
  const afterOne = await blocks();
  await deleteForGood({ store }, [imported]);
  const afterBoth = await blocks();
  console.log(`delete  the original (7.26 M samples, the imported copy written after it): ${fmt(d1)} s`);
  console.log(`        before: ${before}; after: ${afterOne}; after deleting the copy too: ${afterBoth}`);
} finally {
  await ingest.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
