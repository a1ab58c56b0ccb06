// npm run bench:kernels: the WASM kernels (dist/wasm) against the plain TypeScript
// reference (dist/wasm/reference.js) on the same arrays: 7 days x 30 hops at 2.5 s
// (~7.3 M hop samples) into 600 buckets, plus the rollup merge and row statistics.
// Prints median timings (WASM and reference runs alternate) and the ratio reference / WASM.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const dist = (p) => fileURLToPath(new URL(`../dist/wasm/${p}`, import.meta.url));
for (const file of ['kernels.wasm', 'loader.js', 'reference.js']) {
  if (!existsSync(dist(file))) {
    console.error(`dist/wasm/${file} is missing: run "npm run build" first`);
    process.exit(1);
  }
}
const { loadKernels, rollupRowsFromBuckets } = await import(dist('loader.js'));
const ref = await import(dist('reference.js'));
const { LatencyCode } = await import(fileURLToPath(new URL('../dist/engine/latency-codes.js', import.meta.url)));

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const DAY = 86_400_000;
const HOPS = 30;
const INTERVAL = 2500;
const start = Date.UTC(2026, 0, 1);
const rounds = (7 * DAY) / INTERVAL;
const n = rounds * HOPS;

// A deterministic history: per-hop base latency, noise, 2% timeouts, hop 7 never answers
// (NotParticipating), one stop/start marker per day.
let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const samples = { time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
for (let r = 0, i = 0; r < rounds; r++) {
  const t = start + r * INTERVAL;
  for (let h = 1; h <= HOPS; h++, i++) {
    samples.time[i] = t;
    samples.hop[i] = h;
    const x = rnd();
    samples.latency[i] =
      h === 7 ? LatencyCode.NotParticipating
      : x < 0.02 ? LatencyCode.Timeout
      : r % 34560 === 0 && h === 1 ? LatencyCode.StopStart
      : 1 + h * 1.7 + x * 8;
  }
}
const spec = { start, period: (7 * DAY) / 600, bucketCount: 600, hopCount: HOPS };

/** One timed call of fn(setup()); setup runs untimed. */
function timed(fn, setup) {
  const prepared = setup?.();
  const t0 = process.hrtime.bigint();
  const result = fn(prepared);
  return { result, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}

/**
 * WASM and reference alternately, RUNS times each after a warm-up of each, so both see the
 * same machine load (other processes share these cores). Medians.
 */
function compare(wasmFn, referenceFn, wasmSetup) {
  timed(wasmFn, wasmSetup);
  timed(referenceFn);
  const wasm = [];
  const reference = [];
  for (let i = 0; i < RUNS; i++) {
    wasm.push(timed(wasmFn, wasmSetup));
    reference.push(timed(referenceFn));
  }
  const median = (runs) => {
    const times = runs.map((r) => r.ms).sort((x, y) => x - y);
    return { ms: times[Math.floor(times.length / 2)], result: runs[runs.length - 1].result };
  };
  return [median(wasm), median(reference)];
}

function same(a, b) {
  for (const key of Object.keys(b)) {
    if (!ArrayBuffer.isView(b[key])) continue;
    for (let i = 0; i < b[key].length; i++) if (!Object.is(a[key][i], b[key][i])) return false;
  }
  return true;
}

const kernels = loadKernels();
const line = (name, count, [wasm, reference]) =>
  console.log(
    `${name.padEnd(44)} ${String(count).padStart(10)}  WASM ${wasm.ms.toFixed(1).padStart(7)} ms` +
      `  TS reference ${reference.ms.toFixed(1).padStart(7)} ms  ratio ${(reference.ms / wasm.ms).toFixed(2)}x` +
      `  ${same(wasm.result, reference.result) ? 'identical' : 'DIFFERENT'}`,
  );

console.log(
  `bench:kernels  ${new Date().toISOString()}  node ${process.version}  ${os.cpus()[0]?.model ?? ''} x${os.cpus().length}` +
    `  load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(`history: 7 days x ${HOPS} hops at ${INTERVAL / 1000} s = ${n.toLocaleString('en')} hop samples; median of ${RUNS} runs`);
console.log(`${'kernel'.padEnd(44)} ${'input rows'.padStart(10)}`);

line(
  'bucketSamples 7 d raw -> 600 buckets',
  n,
  compare(() => kernels.bucketSamples(samples, spec), () => ref.referenceBucketSamples(samples, spec)),
);

// The same kernel with the input already in WASM memory (the zero-copy stageSamples path, as
// when a caller decodes straight into the staging views): the cost of the kernel alone.
// The staging fill is done before the clock starts (finish reuses that area for output).
function stagedRun() {
  const accumulator = kernels.begin(spec);
  const staged = accumulator.stageSamples(n);
  staged.time.set(samples.time);
  staged.hop.set(samples.hop);
  staged.latency.set(samples.latency);
  return accumulator;
}
line(
  'bucketSamples 7 d raw, input already staged',
  n,
  compare(
    (accumulator) => accumulator.addStagedSamples(n).finishBuckets(),
    () => ref.referenceBucketSamples(samples, spec),
    stagedRun,
  ),
);

const last24h = { from: start + 6 * DAY, to: start + 7 * DAY };
line(
  'rowStats 7 d raw (24 h range)',
  n,
  compare(() => kernels.rowStats(samples, last24h, HOPS), () => ref.referenceRowStats(samples, last24h, HOPS)),
);

// Rollups as the store would keep them: 1-minute rows, then merged into the same 600 buckets.
const minuteSpec = { start, period: 60_000, bucketCount: (7 * DAY) / 60_000, hopCount: HOPS };
const minuteRows = rollupRowsFromBuckets(kernels.bucketSamples(samples, minuteSpec));
line(
  'mergeRollups 7 d of 1-min rows -> 600 buckets',
  minuteRows.time.length,
  compare(() => kernels.mergeRollups(minuteRows, spec), () => ref.referenceMergeRollups(minuteRows, spec)),
);
const tenMinuteSpec = { ...minuteSpec, period: 600_000, bucketCount: (7 * DAY) / 600_000 };
const tenMinuteRows = rollupRowsFromBuckets(kernels.bucketSamples(samples, tenMinuteSpec));
line(
  'mergeRollups 7 d of 10-min rows -> 600 buckets',
  tenMinuteRows.time.length,
  compare(() => kernels.mergeRollups(tenMinuteRows, spec), () => ref.referenceMergeRollups(tenMinuteRows, spec)),
);
