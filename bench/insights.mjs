// npm run bench:insights: every Insights test with details over 12 h of a 30-hop target
// traced at 1 s (1.3 M hop samples), stored through the real ingest pipeline (DuckDB,
// rollups) in a temporary store, then RunTargetWisdomTests called in-process as the REST
// route calls it. Prints the server time (median of runs), the share spent in the WASM
// kernels (bucketing plus statistics), and the statistics kernels against their
// TypeScript references (wasm/stats-reference.ts) on the same series: per call and for the
// whole catalogue.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const dist = (p) => fileURLToPath(new URL(`../dist/${p}`, import.meta.url));
for (const file of ['wasm/kernels.wasm', 'server/insights/service.js', 'wasm/stats-reference.js']) {
  if (!existsSync(dist(file))) {
    console.error(`dist/${file} is missing: run "npm run build" first`);
    process.exit(1);
  }
}
(await import('./server-flags.mjs')).underServerFlags(import.meta.url);
const { Store } = await import(dist('server/store/db.js'));
const { IngestPipeline } = await import(dist('server/ingest/pipeline.js'));
const { DomainEventBus } = await import(dist('server/events.js'));
const { runTargetWisdomTests } = await import(dist('server/insights/service.js'));
const { loadSeries } = await import(dist('server/insights/load.js'));
const { runWisdomTests } = await import(dist('server/insights/catalogue.js'));
const { queryKernels } = await import(dist('server/data/kernels.js'));
const ref = await import(dist('wasm/stats-reference.js'));
const { LatencyCode } = await import(dist('engine/latency-codes.js'));

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HOPS = 30;
const INTERVAL = 1000;
const HOURS = 12;
const start = Date.UTC(2026, 0, 1, 6);
const end = start + HOURS * 3600_000;
const rounds = (HOURS * 3600_000) / INTERVAL;

const dir = mkdtempSync(join(tmpdir(), 'hopwatch-bench-insights-'));
const store = await Store.open(dir);
const events = new DomainEventBus();
try {
  // A path with work for every test: 3% loss from hop 12 on, a router at hop 6 that rate
  // limits its ICMP answers, queueing on link 20 for 10 minutes of every 30.
  const account = (await store.one(`INSERT INTO accounts (name) VALUES ('bench') RETURNING id`)).id;
  const session = (
    await store.one(
      `INSERT INTO sessions (account_id, original_target, target_name, target_ip, state, dynamic_dns_mode, trace_interval_ms, start_time, end_time, description)
       VALUES ($1, 'bench', 'bench', '10.251.91.30', 2, 0, $2, $3, $4, 'bench') RETURNING id`,
      [account, INTERVAL, start, end],
    )
  ).id;
  for (let h = 1; h <= HOPS; h++) {
    await store.run(`INSERT INTO hosts (session_id, hop, address, dns_name, name, notes, updated_at) VALUES ($1, $2, $3, '', '', '', 0)`, [session, h, `10.251.91.${h}`]);
  }
  const ingest = new IngestPipeline(store, events);
  await ingest.init();
  ingest.openSession(session, account);
  let seed = 4242;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const t0 = performance.now();
  const perBatch = 3600; // rounds per batch: one hour
  for (let r0 = 0; r0 < rounds; r0 += perBatch) {
    const n = Math.min(perBatch, rounds - r0) * HOPS;
    const batch = { length: n, session: new Int32Array(n).fill(session), time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
    for (let r = r0, i = 0; r < Math.min(rounds, r0 + perBatch); r++) {
      const minute = (r * INTERVAL) / 60_000;
      const queue = minute % 30 < 10 ? 40 + rnd() * 40 : 0;
      for (let h = 1; h <= HOPS; h++, i++) {
        batch.time[i] = start + r * INTERVAL + h;
        batch.hop[i] = h;
        const lost = (h >= 12 && rnd() < 0.03) || (h === 6 && rnd() < 0.3);
        batch.latency[i] = lost ? LatencyCode.Timeout : 1 + h * 1.5 + rnd() * 2 + (h >= 20 ? queue : 0);
      }
    }
    await ingest.addBatch(batch);
  }
  await ingest.finishSession(session);
  await ingest.close();
  console.log(`stored ${rounds * HOPS} hop samples (${HOURS} h x ${HOPS} hops at ${INTERVAL / 1000} s) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Time the statistics kernels of the query instance (the one the service uses).
  const stats = queryKernels().stats;
  let statsMs = 0;
  for (const name of ['describe', 'pearson', 'segmentsAbove', 'meanShift']) {
    const fn = stats[name].bind(stats);
    stats[name] = (...args) => {
      const t = performance.now();
      try {
        return fn(...args);
      } finally {
        statsMs += performance.now() - t;
      }
    };
  }
  const principal = { userId: 1, accountId: account, username: 'bench', isRoot: true, claims: [] };
  const deps = { store, config: { insights: true }, events };
  const args = { id: String(session), startTime: start, endTime: end, includeDetails: true };
  const runs = [];
  let last;
  for (let i = 0; i <= RUNS; i++) {
    statsMs = 0;
    const timings = { readMs: 0, kernelMs: 0 };
    const t = performance.now();
    last = await runTargetWisdomTests(deps, principal, args, timings);
    const total = performance.now() - t;
    if (i > 0) runs.push({ total, read: timings.readMs, bucket: timings.kernelMs, stats: statsMs }); // first run warms up
  }
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  const total = median('total');
  const kernel = median('bucket') + median('stats');
  console.log(`machine: ${os.cpus()[0]?.model ?? 'unknown'} x ${os.cpus().length}, node ${process.version}, ${RUNS} runs (median)`);
  console.log(`RunTargetWisdomTests, all tests with details:  ${total.toFixed(0)} ms server time (goal <= 1000 ms)`);
  console.log(`  store reads (rollups + raw samples)           ${median('read').toFixed(0)} ms`);
  console.log(`  WASM bucket kernel                            ${median('bucket').toFixed(0)} ms`);
  console.log(`  WASM statistics kernels                       ${median('stats').toFixed(0)} ms`);
  console.log(`  kernel share                                  ${((kernel / total) * 100).toFixed(0)}%`);
  console.log(`  potential issues found: ${last.Results.filter((r) => r.ResultEnum === 3 || r.ResultEnum >= 100).map((r) => `${r.ResultEnum}@${r.WisdomHosts[0]?.HopNumber}`).join(', ')}`);

  // WASM against the TypeScript reference: the whole catalogue with details on the same
  // series, for the 12 h range (details from per-minute averages) and for its last 2 h
  // (216,000 hop samples: details from the raw samples, where sorting dominates).
  const reference = {
    describe: ref.referenceDescribe,
    pearson: ref.referencePearson,
    segmentsAbove: (v, t, m = 1, g = 0) => ref.referenceSegmentsAbove(v, t, Math.max(1, Math.floor(m)), Math.max(0, Math.floor(g))),
    meanShift: (v, s = 1) => ref.referenceMeanShift(v, Math.max(1, Math.floor(s))),
  };
  const wasmStats = queryKernels().stats;
  const time = (fn) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };
  const med = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  let series;
  for (const [label, from] of [['12 h', start], ['2 h, raw details', end - 2 * 3600_000]]) {
    series = await loadSeries(store, principal, String(session), from, end, true);
    const catalogue = (k) => runWisdomTests(series, k, { includeDetails: true });
    catalogue(wasmStats);
    catalogue(reference);
    const w = [];
    const r = [];
    for (let i = 0; i < RUNS; i++) {
      w.push(time(() => catalogue(wasmStats)));
      r.push(time(() => catalogue(reference)));
    }
    console.log(`catalogue with details, ${label.padEnd(17)} WASM ${med(w).toFixed(0).padStart(4)} ms, TS reference ${med(r).toFixed(0).padStart(4)} ms, ratio ${(med(r) / med(w)).toFixed(2)}x`);
  }
  // One describe over one hop's raw samples (the 2 h series: 7,200 values; and 12 h: 43,200).
  for (const n of [7200, 43_200]) {
    const raw = new Float64Array(n);
    for (let i = 0; i < n; i++) raw[i] = 20 + rnd() * 5 + (rnd() < 0.01 ? 200 : 0);
    const dw = [];
    const dr = [];
    for (let i = 0; i < RUNS * 4; i++) {
      dw.push(time(() => wasmStats.describe(raw)));
      dr.push(time(() => ref.referenceDescribe(raw)));
    }
    console.log(`describe (box plot, moments, MAD) of ${String(n).padStart(6)} values: WASM ${med(dw).toFixed(2)} ms, TS reference ${med(dr).toFixed(2)} ms, ratio ${(med(dr) / med(dw)).toFixed(2)}x`);
  }
  const a = series.hops[14].latency;
  const b = series.hops[20].latency;
  const pw = [];
  const pr = [];
  for (let i = 0; i < RUNS * 20; i++) {
    pw.push(time(() => wasmStats.pearson(a, b)));
    pr.push(time(() => ref.referencePearson(a, b)));
  }
  console.log(`pearson of two ${a.length}-bucket series:        WASM ${med(pw).toFixed(3)} ms, TS reference ${med(pr).toFixed(3)} ms, ratio ${(med(pr) / med(pw)).toFixed(2)}x`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
