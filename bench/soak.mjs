// npm run bench:soak (issue 45 item 7): months of uptime, measured over hours. The built
// appliance (dist/server/main.js, its own data directory and loopback port) traces TRACES
// targets at 1 s on the simulated engine (HOPWATCH_ENGINE=simulated: the probe worker builds,
// "sends" through a simulated network and parses every probe; nothing leaves the machine), while
// CONSOLES hub clients do what an open target window does: RegisterForNewSamples and
// RegisterForComments for one target, and on HostUpdated read its TraceGraphRows again
// (batched 150 ms, as web/src/target/useLiveRows does). Every --every minutes it prints the
// server's RSS and V8 heap after a full collection (and the highest RSS between lines), its open file descriptors, the DuckDB file
// against the size the retention settings predict, and the event-loop delay p99 over the
// interval; at the end the slopes after --settle minutes and each goal met or not.
//
//   npm run bench:soak -- [--minutes 120] [--every 10] [--settle 60] [--traces 1000]
//     [--consoles 50] [--hops 6] [--raw-days 30] [--minute-days 400] [--store-memory-mb 96 (0: the default)]
//     [--snapshots 20,40 --snapshot-dir DIR]
//     [--cpu-profile FILE.cpuprofile [--cpu-profile-seconds 60]] [--smaps-dir DIR]
//     [--heaptrack FILE.gz] [--preload LIB.so]
//
// Each line also splits the RSS by kind of mapping (glibc's thread arenas, its main heap, other
// anonymous memory, mapped files: bench/proc-memory.mjs; under jemalloc its memory is all "other
// anonymous") and the descriptors by kind, so growth the heap and DuckDB's count do not explain
// has a place; --smaps-dir keeps the server's whole /proc/PID/smaps of every line for a diff by
// mapping. The server runs with glibc's settings of server/node-flags.ts under this process's
// environment (MALLOC_ARENA_MAX=2 npm run bench:soak tries glibc with two arenas); --preload puts
// a library into the server alone, for another malloc (--preload
// /usr/lib/x86_64-linux-gnu/libjemalloc.so.2, Debian's libjemalloc2); the run prints what it got.
// --heaptrack records every native allocation of the server with its call stack (Debian's
// heaptrack preloaded into the server alone, not this process; heaptrack_print FILE.gz reads it):
// for growth in glibc's heaps that the V8 heap does not explain. It slows the server: a diagnostic,
// not a goal run.
//
// The heap: the bench starts the server with --inspect=127.0.0.1:0 and asks V8 through the
// inspector (bench/inspector.mjs: HeapProfiler.collectGarbage, Runtime.getHeapUsage), so the
// product gets no route that forces a full collection (a scrape that stalls the event loop for
// as long as a major GC takes), and the same channel takes heap snapshots for diagnosis.
// The delay: the server's own histogram (prom-client's eventloop lag on /metrics, reset at
// every scrape, so each line is the interval's), behind a random HOPWATCH_METRICS_TOKEN.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { HubConnectionBuilder, HttpTransportType, LogLevel } from '@microsoft/signalr';
import { startAppliance, signIn, cpuSeconds, rssMb, hostLoad, serverLoop } from './appliance.mjs';
import { connectInspector, inspectorUrlFrom } from './inspector.mjs';
import { connectionsOnPort, descriptorsByKind, memoryMap } from './proc-memory.mjs';
import { predictedDatabaseBytes, slopePerHour, soakGoals, RowsPerHopMinute, StoredBytes } from './soak-figures.mjs';
import { defaultStoreMemoryMb } from '../dist/server/store/duck-memory.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '120' },
    every: { type: 'string', default: '10' },
    settle: { type: 'string', default: '60' },
    traces: { type: 'string', default: '1000' },
    consoles: { type: 'string', default: '50' },
    hops: { type: 'string', default: '6' },
    'raw-days': { type: 'string', default: '30' },
    'minute-days': { type: 'string', default: '400' },
    'store-memory-mb': { type: 'string', default: '96' },
    snapshots: { type: 'string', default: '' },
    'snapshot-dir': { type: 'string', default: '' },
    'cpu-profile': { type: 'string', default: '' },
    'cpu-profile-seconds': { type: 'string', default: '60' },
    'smaps-dir': { type: 'string', default: '' },
    heaptrack: { type: 'string', default: '' },
    preload: { type: 'string', default: '' },
  },
});
const MINUTES = Number(args.minutes);
const EVERY = Number(args.every);
const SETTLE = Math.min(Number(args.settle), MINUTES - EVERY);
const TRACES = Number(args.traces);
const CONSOLES = Math.min(Number(args.consoles), TRACES);
/** Every trace's interval (the goal's "1,000 traces at 1 s"). */
const TraceIntervalMs = 1000;
const HOPS = Math.max(1, Number(args.hops));
const retention = { rawDays: Number(args['raw-days']), minuteDays: Number(args['minute-days']) };
const snapshotAt = args.snapshots ? args.snapshots.split(',').map(Number) : [];
const snapshotDir = args['snapshot-dir'] || join(tmpdir(), `hopwatch-soak-snapshots-${process.pid}`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const port = 20000 + Math.floor(Math.random() * 1000);
const work = mkdtempSync(join(tmpdir(), 'hopwatch-bench-soak-'));
const metricsToken = randomBytes(16).toString('hex');

// One scenario a target: HOPS - 1 shared routers, then the target; a little jitter, no loss.
const scenarios = join(work, 'scenarios');
mkdirSync(scenarios);
const targetOf = (i) => `10.253.${Math.floor(i / 250)}.${(i % 250) + 1}`;
for (let i = 0; i < TRACES; i++) {
  const hops = Array.from({ length: HOPS - 1 }, (_, h) => ({ v4: `10.252.0.${h + 1}`, rttMs: 0.4 + h * 0.6, jitterMs: 0.2 }));
  writeFileSync(join(scenarios, `t${String(i).padStart(5, '0')}.json`), JSON.stringify({ name: `soak-${i}`, hops, target: { v4: targetOf(i), rttMs: 0.4 + HOPS * 0.6, jitterMs: 0.2 } }));
}

const dataDir = join(work, 'data');
// Both are the server's LD_PRELOAD: the second would silently replace the first.
if (args.heaptrack && args.preload) {
  rmSync(work, { recursive: true, force: true });
  throw new Error('--heaptrack and --preload both preload into the server: use one (heaptrack records glibc\'s malloc)');
}
const heaptrack = args.heaptrack ? startHeaptrack(args.heaptrack) : undefined;
const appliance = await startAppliance({
  port,
  dataDir,
  nodeFlags: ['--inspect=127.0.0.1:0'],
  stdio: ['ignore', 'ignore', 'pipe'],
  env: {
    HOPWATCH_ENGINE: 'simulated',
    HOPWATCH_SIM_SCENARIOS: scenarios,
    HOPWATCH_ENTITLED_TRACES: String(TRACES + 100),
    HOPWATCH_METRICS_TOKEN: metricsToken,
    HOPWATCH_RETENTION_RAW_DAYS: String(retention.rawDays),
    HOPWATCH_RETENTION_MINUTE_DAYS: String(retention.minuteDays),
    // DuckDB's cache keeps every block it writes until its limit (docs/store.md "DuckDB's memory"),
    // so it grows at the file's rate until then: set low enough that it is full inside the
    // settling hour, so the slope after it measures what is not bounded. 0: the appliance's default.
    ...(Number(args['store-memory-mb']) > 0 ? { HOPWATCH_STORE_MEMORY_MB: args['store-memory-mb'] } : {}),
    ...heaptrack?.env,
    ...(args.preload ? { LD_PRELOAD: args.preload } : {}),
  },
}).catch((e) => {
  rmSync(work, { recursive: true, force: true });
  throw e;
});
const { url, server } = appliance;
// The server's stderr: the inspector's address, then warnings passed through.
let stderrText = '';
server.stderr.setEncoding('utf8');
server.stderr.on('data', (s) => {
  if (!inspectorUrlFrom(stderrText)) stderrText += s;
  else process.stderr.write(s.replace(/^(Debugger listening|Debugger ending|For help, see|Debugger attached|Waiting for the debugger).*\n/gm, ''));
});
const consoles = [];
let inspector;
/** Hop samples committed while measuring, once the measuring is over (the file's breakdown then follows). */
let measured;
let stopping = false;

async function main() {
  for (let i = 0; !inspectorUrlFrom(stderrText); i++) {
    if (i > 100) throw new Error('no inspector address on the server stderr');
    await sleep(50);
  }
  inspector = await connectInspector(inspectorUrlFrom(stderrText));
  const cookie = await signIn(url);
  const get = async (path) => {
    const r = await fetch(url + path, { headers: { cookie } });
    if (!r.ok) throw Object.assign(new Error(`${path}: ${r.status} ${await r.text()}`), { status: r.status });
    return r.json();
  };

  console.log(`bench:soak ${new Date().toISOString()}: ${TRACES} traces at 1 s of ${HOPS} hops on the SIMULATED engine (HOPWATCH_ENGINE=simulated; no packets), ${CONSOLES} live consoles, ${MINUTES} min, a line every ${EVERY} min, slopes after minute ${SETTLE}; retention raw ${retention.rawDays} d, 1-minute rows ${retention.minuteDays} d; ${hostLoad()}`);
  const t0 = Date.now();
  const ids = new Array(TRACES);
  // Eight at a time, as a user's script adding targets would.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < TRACES) {
        const i = next++;
        ids[i] = (await get(`/cmd/newtarget?target=${targetOf(i)}&traceInterval=${TraceIntervalMs / 1000}`)).ID;
        if ((i + 1) % 100 === 0) console.log(`  ${i + 1} traces started after ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
    }),
  );
  console.log(`${TRACES} traces started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  // The consoles: one target window each, spread over the targets.
  // Failures by HTTP status ('error': no answer): a 503 is the server shedding load (its reads
  // refused with Retry-After, server/store/db.ts ReadPool), not a hang.
  const consoleStats = { reads: 0, failures: 0, events: 0, failedBy: {} };
  for (let c = 0; c < CONSOLES; c++) {
    const id = ids[Math.floor((c * TRACES) / CONSOLES)];
    const hub = new HubConnectionBuilder()
      .withUrl(`${url}/mainHub`, { transport: HttpTransportType.WebSockets, headers: { cookie } })
      .withAutomaticReconnect()
      .configureLogging(LogLevel.None)
      .build();
    // One read at a time, as the console's (web/src/target/useLiveRows, logic/coalescedRuns):
    // updates while a read is out make one more read after it.
    let due = null;
    let reading = false;
    let again = false;
    const read = () => {
      due = null;
      reading = true;
      get(`/api/data/TraceGraphRows?listType=Target&uniqueID=${id}&requests%5B0%5D.ID=${id}`)
        .then(
          () => consoleStats.reads++,
          (e) => {
            consoleStats.failures++;
            const key = e?.status ?? 'error';
            consoleStats.failedBy[key] = (consoleStats.failedBy[key] ?? 0) + 1;
          },
        )
        .finally(() => {
          reading = false;
          if (again && !stopping) {
            again = false;
            due = setTimeout(read, 150);
          }
        });
    };
    hub.on('HostUpdated', () => {
      consoleStats.events++;
      if (stopping) return;
      if (reading) again = true;
      else due ??= setTimeout(read, 150);
    });
    hub.on('RouteChanged', () => undefined);
    // A start may fail on a host this busy (the negotiated connection gone before the socket
    // opened): tried again, as the console's reconnect does.
    for (let attempt = 1; ; attempt++) {
      try {
        await hub.start();
        break;
      } catch (e) {
        if (attempt === 5) throw e;
        await sleep(1000 * attempt);
      }
    }
    await hub.invoke('RegisterForNewSamples', id);
    await hub.invoke('RegisterForComments', id);
    consoles.push(hub);
  }
  console.log(`${CONSOLES} consoles registered; measuring from ${new Date().toISOString()}`);

  const dbFile = join(dataDir, 'hopwatch.duckdb');
  // The file and its WAL: rows not checkpointed yet are in the WAL, uncompressed (DuckDB
  // checkpoints at 16 MB of it), so both count, as the storage settings page counts them.
  const sizeOf = (path) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  const walBytes = () => sizeOf(`${dbFile}.wal`);
  const fileBytes = () => sizeOf(dbFile) + walBytes();
  await serverLoop(url, metricsToken); // resets the delay histogram: the first line is its own interval's
  const threadsAtStart = threadCpu(server.pid);
  const first = await serverLoop(url, metricsToken);
  const start = { at: Date.now(), file: fileBytes(), committed: first.committed, storeLimit: first.storeLimit, cpu: cpuSeconds(server.pid), reads: consoleStats.reads };
  const points = [];
  let cpuBefore = start.cpu;
  let readsBefore = start.reads;
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  // The bench's default limit is smaller than the appliance's (a quarter of the RAM, 256 MiB to
  // 1 GiB) so that DuckDB's cache, which fills at the file's rate up to its limit, is full within
  // the first hour: a 2-hour run then shows whether anything ELSE grows. Said on every run.
  const defaultNote = Number(args['store-memory-mb']) > 0 ? `set by the bench; NOT the appliance's default of ${defaultStoreMemoryMb()} MiB on this machine (--store-memory-mb 0 runs with it)` : "the appliance's default";
  console.log(`DuckDB's memory limit: ${mb(start.storeLimit)} MB (${defaultNote}; its cache fills at the file's rate up to it)`);
  // Read from the server itself: the malloc its loader mapped, and what glibc's was started with.
  const jemalloc = readFileSync(`/proc/${server.pid}/maps`, 'utf8').match(/\S*libjemalloc\S*/)?.[0];
  const mallocEnv = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0').filter((v) => v.startsWith('MALLOC_') || v.startsWith('GLIBC_TUNABLES='));
  const glibcSettings = `${mallocEnv.join(' ') || "none (glibc's defaults)"}${mallocEnv.some((v) => v.startsWith('MALLOC_ARENA_MAX=')) ? '' : " (arenas: glibc's default, 8 a core)"}`;
  console.log(`the server's malloc: ${jemalloc ? `jemalloc (${jemalloc}; glibc's settings unused)` : `glibc's: ${glibcSettings}`}`);
  console.log('min | RSS MB after GC (highest between lines) | heap after GC MB (of V8 heap total) | array buffers MB | DuckDB memory MB (spilled) | RSS by mapping MB: glibc arenas (heaps) / main heap / other anon / files | fds (sockets/pipes/anon/files; connections the clients hold open/left in CLOSE_WAIT) | DuckDB file+WAL MB (WAL; free blocks) | predicted MB | file/predicted | delay p99 ms (max) | hop samples committed | server CPU % | console reads (failed) | host');
  // The RSS of the slope is read right after the full collection each line asks for (what stays);
  // between collections the garbage of the consoles' reads (DuckDB's result vectors, handed to JS
  // as external buffers) holds more, so each line also shows the highest RSS sampled every 5 s.
  let rssPeak = 0;
  const rssSampler = setInterval(() => {
    try {
      rssPeak = Math.max(rssPeak, rssMb(server.pid));
    } catch {} // the server gone: the run ends anyway
  }, 5000);
  const snapshotsLeft = [...snapshotAt].sort((a, b) => a - b);
  // The server's main thread (the hub, the ingest, the simulated engine) profiled over the first
  // seconds of the measuring, for where its CPU goes (bench/cpu-profile-summary.mjs FILE).
  const profiled = args['cpu-profile']
    ? inspector.cpuProfile(args['cpu-profile'], Number(args['cpu-profile-seconds']) * 1000).then(() => console.log(`  CPU profile of ${args['cpu-profile-seconds']} s: ${args['cpu-profile']}`))
    : null;
  for (let k = 1; k * EVERY <= MINUTES; k++) {
    const due = start.at + k * EVERY * 60_000;
    while (snapshotsLeft.length && start.at + snapshotsLeft[0] * 60_000 <= due) {
      const m = snapshotsLeft.shift();
      await sleep(Math.max(0, start.at + m * 60_000 - Date.now()));
      mkdirSync(snapshotDir, { recursive: true });
      const file = join(snapshotDir, `soak-${String(m).padStart(4, '0')}min.heapsnapshot`);
      await inspector.snapshot(file);
      console.log(`  heap snapshot at ${m} min: ${file}`);
    }
    await sleep(Math.max(0, due - Date.now()));
    const loop = await serverLoop(url, metricsToken);
    const peak = Math.max(rssPeak, rssMb(server.pid));
    const heap = await inspector.heapAfterFullGc();
    // Read at once: the consoles' reads go on, and an HTTP round trip later (the storage call
    // below) their new garbage had added 31 to 66 MB (2026-11-29's run: the RSS column then
    // read late, slope +26.3 MB/hour; the same run's smaps right after the collection, +8.8).
    const rssAfterGc = rssMb(server.pid);
    rssPeak = 0;
    const map = memoryMap(server.pid);
    const fdKinds = descriptorsByKind(server.pid);
    const accepted = connectionsOnPort(port);
    if (args['smaps-dir']) {
      mkdirSync(args['smaps-dir'], { recursive: true });
      writeFileSync(join(args['smaps-dir'], `smaps-${String(k * EVERY).padStart(4, '0')}min.txt`), map.text);
    }
    const storage = await get('/api/settings/storage');
    const cpu = cpuSeconds(server.pid);
    const samples = loop.committed - start.committed;
    const p = {
      minutes: (Date.now() - start.at) / 60_000,
      rss: rssAfterGc,
      rssPeak: peak,
      heap: heap.used / 1024 / 1024,
      heapTotal: heap.total / 1024 / 1024,
      arrayBuffers: heap.arrayBuffers / 1024 / 1024,
      storeMemory: loop.storeMemory / 1024 / 1024,
      storeSpilled: loop.storeSpilled / 1024 / 1024,
      // DuckDB's cache swings by tens of MB from line to line below its limit (a bound, not
      // growth), and RSS with it: the rest is fitted on its own too.
      rssLessStore: rssAfterGc - loop.storeMemory / 1024 / 1024,
      arenas: map.kinds.arenas / 1024,
      arenaHeaps: map.kinds.arenaHeaps,
      brk: map.kinds.brk / 1024,
      otherAnon: map.kinds.anon / 1024,
      mappedFiles: map.kinds.files / 1024,
      // One reading of /proc/PID/fd for the total and its kinds, so the columns agree.
      fds: fdKinds.sockets + fdKinds.pipes + fdKinds.anon + fdKinds.files,
      clients: accepted.established,
      closeWait: accepted.closeWait,
      fdKinds,
      freeBlocks: storage.DatabaseBytes - storage.UsedBytes,
      file: fileBytes(),
      wal: walBytes(),
      samples,
      predicted: predictedDatabaseBytes({ baseBytes: start.file, samples, elapsedMs: Date.now() - start.at, retention, intervalMs: TraceIntervalMs }),
      delayP99: loop.p99,
      delayMax: loop.max,
    };
    points.push(p);
    console.log(
      [
        p.minutes.toFixed(1),
        `${p.rss.toFixed(1)} (${p.rssPeak.toFixed(0)})`,
        `${p.heap.toFixed(1)} (of ${p.heapTotal.toFixed(0)})`,
        p.arrayBuffers.toFixed(1),
        `${p.storeMemory.toFixed(1)} (${p.storeSpilled.toFixed(1)})`,
        `${p.arenas.toFixed(1)} (${p.arenaHeaps}) / ${p.brk.toFixed(1)} / ${p.otherAnon.toFixed(1)} / ${p.mappedFiles.toFixed(1)}`,
        `${p.fds} (${p.fdKinds.sockets}/${p.fdKinds.pipes}/${p.fdKinds.anon}/${p.fdKinds.files}; ${p.clients}/${p.closeWait})`,
        `${mb(p.file)} (WAL ${mb(p.wal)}; free ${mb(p.freeBlocks)})`,
        mb(p.predicted),
        (p.file / p.predicted).toFixed(3),
        `${p.delayP99.toFixed(1)} (${p.delayMax.toFixed(0)})`,
        (loop.committed - start.committed).toLocaleString('en-US'),
        (((cpu - cpuBefore) / (EVERY * 60)) * 100).toFixed(1),
        `${consoleStats.reads - readsBefore} (${consoleStats.failures})`,
        hostLoad(),
      ].join(' | '),
    );
    cpuBefore = cpu;
    readsBefore = consoleStats.reads;
  }

  clearInterval(rssSampler);
  await profiled;
  measured = points.length ? (await serverLoop(url, metricsToken)).committed - start.committed : undefined;
  // What the load costs: the server's CPU (its main thread with the simulated engine, the ingest
  // worker, DuckDB's threads) over the whole measuring, in cores, and per 1,000 traces at 1 s.
  const cores = (cpuSeconds(server.pid) - start.cpu) / ((Date.now() - start.at) / 1000);
  const threads = threadCpu(server.pid);
  const byThread = [...threads].map(([name, s]) => [name, s - (threadsAtStart.get(name) ?? 0)]).sort((a, b) => b[1] - a[1]);
  const elapsedS = (Date.now() - start.at) / 1000;
  const readsPerSecond = (consoleStats.reads - start.reads) / ((Date.now() - start.at) / 1000);
  console.log(
    `\nserver CPU over ${((Date.now() - start.at) / 60_000).toFixed(1)} min: ${cores.toFixed(3)} cores for ${TRACES} traces at 1 s + ${CONSOLES} consoles reading ${readsPerSecond.toFixed(1)} rows a second = ${((cores * 1000) / TRACES).toFixed(3)} cores per 1,000 traces with the consoles counted in (simulated engine included; --consoles 0 for the traces alone)`,
  );
  console.log(`  by thread (cores): ${byThread.filter(([, s]) => s / elapsedS >= 0.001).map(([name, s]) => `${name} ${(s / elapsedS).toFixed(3)}`).join(', ')} (MainThread: the hub, the ingest, the engine; libuv-worker: DuckDB's statements; WorkerThread: the ingest worker)`);

  const after = points.filter((p) => p.minutes >= SETTLE - 0.5);
  const slope = (key) => slopePerHour(after.map((p) => [p.minutes, p[key]]));
  console.log(`\nafter minute ${SETTLE} (${after.length} points): RSS ${slope('rss').toFixed(2)} MB/hour (less DuckDB's count ${slope('rssLessStore').toFixed(2)}), heap ${slope('heap').toFixed(2)} MB/hour, array buffers ${slope('arrayBuffers').toFixed(2)} MB/hour, DuckDB memory ${slope('storeMemory').toFixed(2)} MB/hour, glibc arenas ${slope('arenas').toFixed(2)} MB/hour, main heap ${slope('brk').toFixed(2)} MB/hour, other anonymous ${slope('otherAnon').toFixed(2)} MB/hour, mapped files ${slope('mappedFiles').toFixed(2)} MB/hour, fds ${slope('fds').toFixed(2)}/hour, delay p99 ${slope('delayP99').toFixed(2)} ms/hour`);
  const rowBytes = (rows) => ((rows * StoredBytes.rollupRow * TraceIntervalMs) / 60_000).toFixed(3);
  console.log(`prediction: base file + hop samples x (${StoredBytes.raw} B raw for ${retention.rawDays} d, ${StoredBytes.unpacked.toFixed(2)} B more until their UTC day is packed + ${rowBytes(RowsPerHopMinute.minute)} B 1-minute rows for ${retention.minuteDays} d + ${rowBytes(RowsPerHopMinute.coarse)} B 10-minute and 1-hour rows for ever: ${StoredBytes.rollupRow.toFixed(1)} B a rollup row, rows per hop and minute at a ${TraceIntervalMs / 1000} s interval) (bench/soak-figures.mjs)`);
  // The file's growth per hop sample before and after the settling time, from the run's own
  // data: the prediction's bytes are bench:store's (other latencies, other compression), this
  // says whether a hop sample costs the file more as the run goes on.
  if (after.length >= 2) {
    const [s0, s1] = [after[0], after[after.length - 1]];
    const per = (a, b) => ((b.file - a.file) / (b.samples - a.samples)).toFixed(2);
    console.log(`the file's growth per hop sample committed (file + WAL): minutes 0-${s0.minutes.toFixed(0)} ${per({ file: start.file, samples: 0 }, s0)} B, minutes ${s0.minutes.toFixed(0)}-${s1.minutes.toFixed(0)} ${per(s0, s1)} B`);
  }
  for (const g of soakGoals(after)) console.log(`${g.met ? 'met    ' : 'NOT met'} ${g.goal}: ${g.figure}`);
  console.log(`(${CONSOLES} consoles: ${consoleStats.events} HostUpdated received, ${consoleStats.reads} row reads, ${consoleStats.failures} failed${consoleStats.failures ? ` (${Object.entries(consoleStats.failedBy).map(([k, n]) => `${k}: ${n}`).join(', ')})` : ''}; a shortened or loaded run is not the goal's 2 hours on a quiet machine: say so with the figures)`);
}

/** CPU seconds per thread name of a process (/proc/PID/task/TID/stat utime + stime), threads of one name summed. */
function threadCpu(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
    } catch {} // a thread that ended meanwhile
  }
  return out;
}

/**
 * Where the file's bytes are, once the server has stopped (its close checkpoints the WAL into
 * the file): each table's blocks, measured as what a DROP TABLE frees after a CHECKPOINT
 * (bench/store-disk.mjs), per hop sample; and the file's free blocks. It drops the tables: the
 * run is over.
 */
async function fileBreakdown(samples) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(join(dataDir, 'hopwatch.duckdb'));
  const conn = await db.connect();
  const store = {
    run: (sql) => conn.run(sql),
    one: async (sql) => {
      const row = (await conn.runAndReadAll(sql)).getRowObjectsJS()[0];
      return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
    },
  };
  try {
    await store.run('CHECKPOINT');
    const size = await store.one('SELECT used_blocks, free_blocks, total_blocks, block_size FROM pragma_database_size() WHERE database_name = current_database()');
    const { n } = await store.one('SELECT count(*)::DOUBLE AS n FROM samples');
    const tables = (await conn.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal ORDER BY estimated_size DESC`)).getRowObjectsJS().map((r) => r.table_name);
    const { tableBytes } = await import('./store-disk.mjs');
    // Views first: a DROP TABLE refuses while a view names the table.
    for (const v of (await conn.runAndReadAll(`SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND NOT internal`)).getRowObjectsJS()) await store.run(`DROP VIEW "${v.view_name}"`);
    const per = [];
    for (const t of tables) per.push([t, await tableBytes(store, `"${t}"`).catch(() => NaN)]);
    const mbOf = (b) => (b / 1024 / 1024).toFixed(1);
    const bs = size.block_size;
    console.log(
      `\nthe file at the end (after the server's closing checkpoint): ${mbOf(size.total_blocks * bs)} MB = ${mbOf(size.used_blocks * bs)} MB used + ${mbOf(size.free_blocks * bs)} MB free blocks; ${n.toLocaleString('en-US')} hop samples in it (${samples.toLocaleString('en-US')} committed while measuring)`,
    );
    console.log(`  by table (bytes a DROP TABLE frees, per hop sample in the file): ${per.filter(([, b]) => b).map(([t, b]) => `${t} ${mbOf(b)} MB (${(b / n).toFixed(2)} B)`).join(', ')}; the rest of the used blocks (metadata, tables under one block) ${mbOf(size.used_blocks * bs - per.reduce((s, [, b]) => s + (b || 0), 0))} MB`);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/**
 * heaptrack's own launcher without its shell: the preload library writes to a FIFO that its
 * interpreter reads (compressed as it goes; raw, an hour would be tens of GB). The library takes
 * both variables out of the server's environment when it loads, so the server's children are not traced.
 */
function startHeaptrack(output) {
  const lib = '/usr/lib/heaptrack';
  if (!existsSync(`${lib}/libheaptrack_preload.so`) || !existsSync(`${lib}/libexec/heaptrack_interpret`)) {
    rmSync(work, { recursive: true, force: true });
    throw new Error(`--heaptrack needs Debian's heaptrack (${lib}): apt-get install heaptrack`);
  }
  const fifo = join(work, 'heaptrack.fifo');
  execFileSync('mkfifo', [fifo]);
  const interpreter = spawn('sh', ['-c', `"${lib}/libexec/heaptrack_interpret" < "$0" | gzip -1 > "$1"`, fifo, output], { stdio: 'inherit' });
  const done = new Promise((r) => interpreter.once('exit', r));
  return { env: { LD_PRELOAD: `${lib}/libheaptrack_preload.so`, DUMP_HEAPTRACK_OUTPUT: fifo }, done };
}

/** The consoles close first: the server's shutdown waits for its open hub connections. */
async function cleanUp() {
  stopping = true;
  await Promise.allSettled(consoles.map((c) => c.stop()));
  inspector?.close();
  await appliance.stop();
  if (heaptrack) {
    await heaptrack.done;
    console.log(`heaptrack's record: ${args.heaptrack} (heaptrack_print ${args.heaptrack})`);
  }
  if (measured !== undefined) await fileBreakdown(measured).catch((e) => console.log(`(the file's breakdown failed: ${e.message})`));
  rmSync(work, { recursive: true, force: true });
}

// Ctrl-C or a kill: the server and the data directory go too (a finally block does not run then).
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
try {
  await main();
} finally {
  await cleanUp();
}
