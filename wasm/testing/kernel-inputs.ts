// Shared by the kernel tests: seeded random inputs and a field-by-field comparison that
// names the seed, field and index of the first difference so a failure reproduces.

import { LatencyCode } from '../../engine/latency-codes.js';
import type { BucketSpec, RollupColumns, SampleColumns } from '../kernel-types.js';

/** mulberry32: tiny, fast, good enough to drive property tests reproducibly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomInt(rnd: () => number, lo: number, hi: number): number {
  return lo + Math.floor(rnd() * (hi - lo + 1));
}

const PERIODS = [1, 2.5, 7.3, 1000, 2500, 10_000, 60_000];
const CODES = [
  LatencyCode.Timeout,
  LatencyCode.NotParticipating,
  LatencyCode.Pending,
  LatencyCode.StopStart,
  LatencyCode.Ignore,
  LatencyCode.Ignore - 17, // an unknown code: skipped like Ignore
];

export function randomSpec(rnd: () => number): BucketSpec {
  return {
    start: 1.7e12 + randomInt(rnd, 0, 1e9),
    period: PERIODS[randomInt(rnd, 0, PERIODS.length - 1)],
    bucketCount: randomInt(rnd, 1, 24),
    hopCount: randomInt(rnd, 1, 40),
  };
}

/** One latency: mostly measurements, often codes, sometimes NaN or 0. */
export function randomLatency(rnd: () => number): number {
  const r = rnd();
  if (r < 0.55) return Math.round(rnd() * 300_000) / 1000;
  if (r < 0.58) return 0;
  if (r < 0.59) return NaN;
  return CODES[randomInt(rnd, 0, CODES.length - 1)];
}

/**
 * Samples around the grid (some before, some after), mostly in time order with a few
 * swaps, hops including 0, negatives and beyond hopCount.
 */
export function randomSamples(rnd: () => number, spec: BucketSpec, n: number): SampleColumns {
  const span = spec.period * (spec.bucketCount + 4);
  const from = spec.start - 2 * spec.period;
  const time = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // One in ten exactly on a computed bucket boundary, where rounding decides the bucket.
    time[i] =
      rnd() < 0.1
        ? spec.start + randomInt(rnd, -2, spec.bucketCount + 2) * spec.period
        : from + Math.floor(rnd() * span * 1000) / 1000;
  }
  time.sort();
  for (let s = 0; s < n / 20; s++) {
    const i = randomInt(rnd, 0, n - 1);
    const j = randomInt(rnd, 0, n - 1);
    [time[i], time[j]] = [time[j], time[i]];
  }
  const hop = new Int32Array(n);
  const latency = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    hop[i] = rnd() < 0.05 ? randomInt(rnd, -1, spec.hopCount + 2) : randomInt(rnd, 1, spec.hopCount);
    latency[i] = randomLatency(rnd);
    if (hop[i] === 0 && rnd() < 0.5) latency[i] = LatencyCode.StopStart;
  }
  return { time, hop, latency };
}

/**
 * Rollup rows made up directly (not from the kernel): plausible aggregates, with garbage
 * (0, NaN or null, as a NULL read back might be) in the fields that only matter when valid > 0.
 */
export function randomRollupRows(rnd: () => number, spec: BucketSpec, n: number): RollupColumns {
  const span = spec.period * (spec.bucketCount + 4);
  const from = spec.start - 2 * spec.period;
  const rows = {
    time: [] as number[], hop: [] as number[], count: [] as number[], lost: [] as number[],
    sum: [] as number[], min: [] as (number | null)[], max: [] as (number | null)[],
    first: [] as (number | null)[], lastValid: [] as (number | null)[], jitterSum: [] as number[],
    jitterPairs: [] as number[], last: [] as (number | null)[], flags: [] as number[],
  };
  const times = Array.from({ length: n }, () => from + Math.floor(rnd() * span));
  times.sort((a, b) => a - b);
  for (let r = 0; r < n; r++) {
    const count = rnd() < 0.1 ? 0 : randomInt(rnd, 1, 50);
    const lost = rnd() < 0.2 ? count : randomInt(rnd, 0, count);
    const valid = count - lost;
    rows.time.push(times[r]);
    rows.hop.push(rnd() < 0.05 ? randomInt(rnd, -1, spec.hopCount + 2) : randomInt(rnd, 1, spec.hopCount));
    rows.count.push(count);
    rows.lost.push(lost);
    if (valid > 0) {
      const values = Array.from({ length: valid }, () => Math.round(rnd() * 300_000) / 1000);
      let jitterSum = 0;
      for (let i = 1; i < valid; i++) jitterSum += Math.abs(values[i] - values[i - 1]);
      rows.sum.push(values.reduce((a, b) => a + b, 0));
      rows.min.push(Math.min(...values));
      rows.max.push(Math.max(...values));
      rows.first.push(values[0]);
      rows.lastValid.push(values[valid - 1]);
      rows.jitterSum.push(jitterSum);
      rows.jitterPairs.push(valid - 1);
    } else {
      const junk = [0, NaN, null][randomInt(rnd, 0, 2)];
      rows.sum.push(0);
      rows.min.push(junk);
      rows.max.push(junk);
      rows.first.push(junk);
      rows.lastValid.push(junk);
      rows.jitterSum.push(0);
      rows.jitterPairs.push(0);
    }
    const lastKind = rnd();
    rows.last.push(
      lastKind < 0.1 ? NaN : lastKind < 0.2 ? null : lastKind < 0.4 ? LatencyCode.Timeout : lastKind < 0.5 ? LatencyCode.NotParticipating : rnd() * 300,
    );
    rows.flags.push(randomInt(rnd, 0, 3));
  }
  return rows;
}

type Columns = Record<string, unknown>;

/**
 * Compares every array field (and plain numbers) of two results. `tolerance` is relative,
 * for sums whose addition order legitimately differs; 0 means bit-identical (Object.is).
 */
export function firstDifference(
  actual: Columns,
  expected: Columns,
  tolerance = 0,
): string | undefined {
  for (const key of Object.keys(expected)) {
    const e = expected[key];
    const a = actual[key];
    if (typeof e === 'number') {
      if (!Object.is(a, e)) return `${key}: ${String(a)} != ${e}`;
      continue;
    }
    if (!ArrayBuffer.isView(e)) continue;
    const ea = e as unknown as ArrayLike<number>;
    const aa = a as ArrayLike<number> | undefined;
    if (!aa || aa.length !== ea.length) return `${key}: length ${aa?.length} != ${ea.length}`;
    if (a?.constructor !== e.constructor) return `${key}: ${a?.constructor.name} != ${e.constructor.name}`;
    for (let i = 0; i < ea.length; i++) {
      const x = aa[i];
      const y = ea[i];
      if (Object.is(x, y)) continue;
      const close = tolerance > 0 && Math.abs(x - y) <= tolerance * Math.max(1, Math.abs(y));
      if (!close) return `${key}[${i}]: ${x} != ${y}`;
    }
  }
  return undefined;
}
