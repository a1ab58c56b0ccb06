// npm run bench:import-bomb (issue 39 item 5): the worst data file the import still takes
// (docs/data-file.md "Limits"), imported through ImportPP2File's own path (importDataFile:
// checks, then the transaction), while the event loop's delay (perf_hooks
// monitorEventLoopDelay) and the process's RSS are watched. The file is what a decompression
// bomb within the limits can be: MaxImportSamples samples of regular columns (27 MB; with
// a constant latency smaller still), in row groups of MaxRowGroupSamples (the largest
// allowed: each is read in pieces), one round a minute over 30 hops (each sample its own
// 1-minute rollup row: the most rollup rows a sample can make) for 6.3 years, and metadata
// up to MaxMetadataBytes (route changes, each inserted by the import). Prints the file, the
// import's time and phases, event-loop delay p50 / p99 / max, and the peak RSS during the
// import against the RSS before it (with the JS and DuckDB shares). BOMB_SAMPLES=n for a
// smaller file (a quick look); the figures in docs/benchmarks.md are of the default.
import { existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, closeSync } from 'node:fs';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dist = (p) => fileURLToPath(new URL(`../dist/${p}`, import.meta.url));
if (!existsSync(dist('server/datafiles/import.js'))) {
  console.error('dist/ is missing: run "npm run build" first');
  process.exit(1);
}
(await import('./server-flags.mjs')).underServerFlags(import.meta.url);
const { DuckDBInstance } = await import('@duckdb/node-api');
const { Store } = await import(dist('server/store/db.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { loadConfig } = await import(dist('server/config.js'));
const { importDataFile } = await import(dist('server/datafiles/import.js'));
const { MaxImportSamples, MaxMetadataBytes, MaxRowGroupSamples, MetaKey, DataFileFormat, DataFileVersion, asciiJson } = await import(dist('server/datafiles/format.js'));

const samples = Number(process.env.BOMB_SAMPLES ?? MaxImportSamples);
const HOPS = 30;
const MINUTE = 60_000;
const T0 = Date.UTC(2020, 0, 1);
const lit = (s) => `'${s.replace(/'/g, "''")}'`;
const mb = (b) => `${(b / 1e6).toFixed(0)} MB`;
const dir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-bomb-'));
const file = join(dir, 'bomb.pp2');

/** The footer's length: the 4 bytes before the closing PAR1. */
function footerBytes(path) {
  const fd = openSync(path, 'r');
  const b = Buffer.alloc(4);
  readSync(fd, b, 0, 4, statSync(path).size - 8);
  closeSync(fd);
  return b.readUInt32LE(0);
}

/** The bomb: regular columns (DELTA_BINARY_PACKED makes them almost nothing) and metadata up to the limit. */
async function writeBomb(routeChanges) {
  const last = T0 + Math.floor((samples - 1) / HOPS) * MINUTE;
  const meta = {
    [MetaKey.Format]: DataFileFormat,
    [MetaKey.Version]: String(DataFileVersion),
    [MetaKey.Target]: asciiJson({ OriginalTarget: 'bomb.example.test', TargetName: 'bomb.example.test', TargetIP: '10.251.0.99', Description: '', TraceIntervalMs: MINUTE, DynamicDnsMode: 0, FinalHopOnly: false, StartTime: T0, EndTime: last, AgentName: 'bench', SourceSessionId: 1 }),
    [MetaKey.Range]: asciiJson({ Begin: T0, End: last, Samples: samples, Cut: false }),
    [MetaKey.Configuration]: asciiJson({ Name: 'Default', Warn: 100, Bad: 200, Scale: 0 }),
    [MetaKey.Hosts]: asciiJson(Array.from({ length: HOPS }, (_, h) => ({ Hop: h + 1, Address: `10.251.0.${h + 1}`, DnsName: '', Name: '', Notes: '' }))),
    [MetaKey.Comments]: '[]',
    [MetaKey.RouteChanges]: asciiJson(Array.from({ length: routeChanges }, (_, k) => ({ Time: T0 + k * MINUTE, Hop: 1 + (k % HOPS), OldAddress: `10.251.${k % 250}.${k % 200}`, NewAddress: `10.252.${k % 250}.${k % 200}` }))),
  };
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    await c.run(
      `COPY (SELECT (${T0} + i // ${HOPS} * ${MINUTE})::BIGINT AS time_ms, (1 + i % ${HOPS})::SMALLINT AS hop, (1000 + i % 7)::INTEGER AS latency_us FROM range(${samples}) t(i))
       TO ${lit(file)} (FORMAT parquet, PARQUET_VERSION V2, COMPRESSION zstd, ROW_GROUP_SIZE ${MaxRowGroupSamples},
       KV_METADATA {${Object.entries(meta).map(([k, v]) => `${lit(k)}: ${lit(v)}`).join(', ')}})`,
    );
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

// As many route changes as keep the footer within the limit (about 95 bytes each).
let routeChanges = Math.floor((MaxMetadataBytes - 400_000) / 95);
await writeBomb(routeChanges);
while (footerBytes(file) > MaxMetadataBytes) {
  routeChanges = Math.floor(routeChanges * 0.97);
  await writeBomb(routeChanges);
}

const store = await Store.open(join(dir, 'db'));
const events = new DomainEventBus();
try {
  console.log(`bench:import-bomb ${new Date().toISOString()} node ${process.version} on ${cpus().length} cores (${cpus()[0].model}), load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(
    `file: ${samples.toLocaleString('en-US')} hop samples (${HOPS} hops, a round a minute), row groups of ${MaxRowGroupSamples.toLocaleString('en-US')}, ${routeChanges.toLocaleString('en-US')} route changes: ` +
      `${statSync(file).size.toLocaleString('en-US')} bytes, footer ${footerBytes(file).toLocaleString('en-US')} bytes (limit ${MaxMetadataBytes.toLocaleString('en-US')})`,
  );
  const account = await store.one(`INSERT INTO accounts (name) VALUES ('bench') RETURNING id`);
  const principal = { userId: 1, accountId: account.id, username: 'bench', isRoot: true, claims: ['TargetManagement', 'SessionManagement'] };
  const deps = { store, events, config: loadConfig({}) };

  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  let peakJs = 0;
  let peakDuck = 0;
  const watch = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peakJs = Math.max(peakJs, m.heapUsed + m.arrayBuffers);
  }, 20);
  // DuckDB's own accounting (its buffer manager: blocks of tables and of the open transaction).
  let sampling = true;
  const duck = (async () => {
    while (sampling) {
      const r = await store.read((q) => q.one(`SELECT sum(memory_usage_bytes)::BIGINT AS b FROM duckdb_memory()`));
      peakDuck = Math.max(peakDuck, Number(r.b));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const c0 = process.cpuUsage();
  const t = performance.now();
  const { ID, phases } = await importDataFile(deps, principal, { path: file, name: 'bomb.pp2' });
  const wall = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(c0);
  delay.disable();
  clearInterval(watch);
  sampling = false;
  await duck;
  peak = Math.max(peak, process.memoryUsage().rss);

  const stored = await store.one(`SELECT sample_count::BIGINT AS n FROM sessions WHERE id = $1`, [ID]);
  const rollups = await store.one(`SELECT count(*)::BIGINT AS n FROM rollups WHERE session_id = $1`, [ID]);
  const ms = (ns) => (ns / 1e6).toFixed(1);
  const s = (x) => (x / 1000).toFixed(1);
  console.log(`import: ${wall.toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; ${Number(stored.n).toLocaleString('en-US')} samples and ${Number(rollups.n).toLocaleString('en-US')} rollup rows stored`);
  console.log(`  phases (s): checks ${s(phases.checks)}, session rows ${s(phases.session)}, samples INSERT ${s(phases.insert)} alongside (file read ${s(phases.read)} + rollups ${s(phases.rollup)}), rollup appends ${s(phases.append)}, COMMIT ${s(phases.commit)}`);
  console.log(`event-loop delay during the import: p50 ${ms(delay.percentile(50))} ms, p99 ${ms(delay.percentile(99))} ms, max ${ms(delay.max)} ms (goal p99 <= 50 ms)`);
  console.log(`RSS: ${mb(before)} before, peak ${mb(peak)} during the import (+${mb(peak - before)}); of it at most ${mb(peakJs)} JS (heap used and array buffers), ${mb(peakDuck)} DuckDB's buffer manager (duckdb_memory()) (load average ${loadavg().map((x) => x.toFixed(1)).join(' ')})`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
