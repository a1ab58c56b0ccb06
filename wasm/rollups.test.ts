// The rollup design: bucketing raw samples into fine rollup rows and merging those into
// coarser buckets gives the same answer as bucketing the raw samples directly (counts,
// flags, min/max/first/last exactly; sums and jitter up to float rounding). So the store
// can answer long ranges from rollups, and mix rollups with recent raw samples.

import { describe, expect, it } from 'vitest';
import { rollupRowsFromBuckets, type BucketSpec, type SampleColumns } from './loader.js';
import { loadBuiltKernels } from './testing/built-kernels.js';
import { firstDifference, randomInt, randomSamples, seededRandom } from './testing/kernel-inputs.js';

const CASES = 200;
const BASE_SEED = 7_300_000;

function slice(samples: SampleColumns, from: number, to: number): SampleColumns {
  const keep: number[] = [];
  for (let i = 0; i < samples.time.length; i++) {
    if (samples.time[i] >= from && samples.time[i] < to) keep.push(i);
  }
  return {
    time: keep.map((i) => samples.time[i]),
    hop: keep.map((i) => samples.hop[i]),
    latency: keep.map((i) => samples.latency[i]),
  };
}

/** A coarse grid and a finer one whose period divides it, both starting together. */
function grids(rnd: () => number): { coarse: BucketSpec; fine: BucketSpec } {
  const finePeriod = [1000, 2500, 10_000][randomInt(rnd, 0, 2)];
  const ratio = randomInt(rnd, 1, 12);
  const coarse = {
    start: 1.7e12 + randomInt(rnd, 0, 1e6) * 1000,
    period: finePeriod * ratio,
    bucketCount: randomInt(rnd, 1, 20),
    hopCount: randomInt(rnd, 1, 35),
  };
  const fine = { ...coarse, period: finePeriod, bucketCount: coarse.bucketCount * ratio };
  return { coarse, fine };
}

/** Input times sorted (rollups need time order), rounded so fine buckets hold several. */
function sortedSamples(rnd: () => number, spec: BucketSpec): SampleColumns {
  const s = randomSamples(rnd, spec, randomInt(rnd, 0, 800));
  const order = Array.from(s.time, (_, i) => i).sort((a, b) => s.time[a] - s.time[b] || a - b);
  return {
    time: order.map((i) => s.time[i]),
    hop: order.map((i) => s.hop[i]),
    latency: order.map((i) => s.latency[i]),
  };
}

describe('rollups', () => {
  const kernels = loadBuiltKernels();

  it('merging fine rollup rows equals bucketing the raw samples', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + c;
      const rnd = seededRandom(seed);
      const { coarse, fine } = grids(rnd);
      const samples = sortedSamples(rnd, coarse);
      const rows = rollupRowsFromBuckets(kernels.bucketSamples(samples, fine));
      const direct = kernels.bucketSamples(samples, coarse);
      const merged = kernels.mergeRollups(rows, coarse);
      expect(firstDifference({ ...merged }, { ...direct }, 1e-9), `seed ${seed}`).toBeUndefined();
      // Integers, extremes and flags are exact, whatever the addition order.
      for (const key of ['count', 'lost', 'jitterPairs', 'flags', 'min', 'max', 'first', 'lastValid', 'last', 'routeBitMask', 'routeLength'] as const) {
        expect(firstDifference({ [key]: merged[key] }, { [key]: direct[key] }), `seed ${seed} ${key}`).toBeUndefined();
      }
    }
  });

  it('rollup rows for the older part plus raw samples for the rest equal raw throughout', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 50_000 + c;
      const rnd = seededRandom(seed);
      const { coarse, fine } = grids(rnd);
      const samples = sortedSamples(rnd, coarse);
      // Rolled up until a fine-bucket boundary; raw from there on (the not-yet-rolled tail).
      const cut = fine.start + fine.period * randomInt(rnd, 0, fine.bucketCount);
      const older = rollupRowsFromBuckets(kernels.bucketSamples(slice(samples, -Infinity, cut), fine));
      const mixed = kernels.begin(coarse).addRollups(older).addSamples(slice(samples, cut, Infinity)).finishBuckets();
      const direct = kernels.bucketSamples(samples, coarse);
      expect(firstDifference({ ...mixed }, { ...direct }, 1e-9), `seed ${seed}`).toBeUndefined();
    }
  });

  it('one hop whole from one piece and the others from another that skips it equal all rows in one', () => {
    // A timeline graph's store read (server/data/sources.ts): every column of its hop, the lean
    // columns of all hops with that hop skipped. Here the second piece keeps every column, so
    // the merge must equal the plain one exactly, cell for cell.
    let withRows = 0;
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 70_000 + c;
      const rnd = seededRandom(seed);
      const { coarse, fine } = grids(rnd);
      const samples = sortedSamples(rnd, coarse);
      const rows = rollupRowsFromBuckets(kernels.bucketSamples(samples, fine));
      const hop = randomInt(rnd, 1, coarse.hopCount);
      const own = Array.from(rows.hop, (h, i) => (h === hop ? i : -1)).filter((i) => i >= 0);
      const ownRows = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, own.map((i) => (v as ArrayLike<number>)[i])])) as unknown as typeof rows;
      const split = kernels.begin(coarse).addRollups(ownRows).addRollups(rows, hop).finishBuckets();
      const whole = kernels.mergeRollups(rows, coarse);
      expect(firstDifference({ ...split }, { ...whole }), `seed ${seed}`).toBeUndefined();
      if (own.some((i) => rows.count[i] > 0)) {
        withRows++;
        // Not skipped, the hop's rows would count twice.
        const twice = kernels.begin(coarse).addRollups(ownRows).addRollups(rows).finishBuckets();
        expect(firstDifference({ count: twice.count }, { count: whole.count }), `seed ${seed}`).toBeDefined();
      }
    }
    expect(withRows).toBeGreaterThan(CASES / 2);
    expect(() => kernels.begin({ start: 0, period: 1000, bucketCount: 1, hopCount: 1 }).addRollups({ time: [0], hop: [1], count: [1], lost: [0], sum: [1], min: [1], max: [1], first: [1], lastValid: [1], jitterSum: [0], jitterPairs: [0], last: [1], flags: [0] }, -1)).toThrow(RangeError);
  });

  it('row statistics from rollups equal row statistics from raw samples', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 90_000 + c;
      const rnd = seededRandom(seed);
      const { coarse, fine } = grids(rnd);
      const samples = sortedSamples(rnd, coarse);
      const range = { from: coarse.start, to: coarse.start + coarse.period * coarse.bucketCount };
      const rows = rollupRowsFromBuckets(kernels.bucketSamples(samples, fine));
      const fromRollups = kernels.rowStatsFromRollups(rows, range, coarse.hopCount);
      const fromSamples = kernels.rowStats(samples, range, coarse.hopCount);
      expect(firstDifference({ ...fromRollups }, { ...fromSamples }, 1e-9), `seed ${seed}`).toBeUndefined();
    }
  });
});

describe('rollup rows read back from SQL', () => {
  it('treat null in the float columns as no value (NaN), not as 0', () => {
    const kernels = loadBuiltKernels();
    const spec = { start: 0, period: 60_000, bucketCount: 2, hopCount: 2 };
    const rows = rollupRowsFromBuckets(
      kernels.bucketSamples(
        { time: [0, 0, 1000, 1000, 70_000], hop: [1, 2, 1, 2, 2], latency: [4, -4194305, 6, -4194305, -4194306] },
        { start: 0, period: 10_000, bucketCount: 12, hopCount: 2 },
      ),
    );
    const asSql = (column: Float64Array) => Array.from(column, (v) => (Number.isNaN(v) ? null : v));
    const fromSql = {
      ...rows,
      min: asSql(rows.min), max: asSql(rows.max), first: asSql(rows.first),
      lastValid: asSql(rows.lastValid), last: asSql(rows.last),
    };
    expect(fromSql.min).toContain(null);
    const merged = kernels.mergeRollups(fromSql, spec);
    expect(merged).toEqual(kernels.mergeRollups(rows, spec));
    expect(Array.from(merged.count)).toEqual([2, 2, 0, 0]);
    expect(merged.min[1]).toBeNaN();
    expect(merged.last[3]).toBe(-4194306);
  });
});
