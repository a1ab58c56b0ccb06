// The Insights statistics kernels against their TypeScript reference (wasm/stats-reference.ts)
// on seeded random series: ties, NaN, infinities, -0, constant runs, tiny and large inputs.
// Same inputs must give bit-identical answers; a failure names its seed. Plus the
// properties a box plot and a correlation must have whatever the implementation.
import { describe, expect, it } from 'vitest';
import { referenceDescribe, referenceMeanShift, referencePearson, referenceSegmentsAbove } from './stats-reference.js';
import { loadBuiltKernels } from './testing/built-kernels.js';
import { randomInt, seededRandom } from './testing/kernel-inputs.js';

const CASES = 400;
const BASE_SEED = 20261125;

/** A series mixing normal-ish values, ties, spikes, NaN, infinities and -0. */
function randomSeries(rnd: () => number, n: number): Float64Array {
  const out = new Float64Array(n);
  const level = rnd() * 200;
  const tieStep = rnd() < 0.3 ? 0.5 : 0;
  for (let i = 0; i < n; i++) {
    const r = rnd();
    let v = level + (rnd() + rnd() + rnd() - 1.5) * 20;
    if (tieStep) v = Math.round(v / tieStep) * tieStep;
    if (r < 0.03) v = NaN;
    else if (r < 0.04) v = rnd() < 0.5 ? Infinity : -Infinity;
    else if (r < 0.05) v = -0;
    else if (r < 0.08) v = level + rnd() * 2000; // spike
    out[i] = v;
  }
  return out;
}

const same = (a: number, b: number) => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));

describe('statistics kernels match the TypeScript reference', () => {
  const k = loadBuiltKernels().stats;

  it('describe: box plot, moments, MAD, outliers', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + c;
      const rnd = seededRandom(seed);
      const n = c < 20 ? c : randomInt(rnd, 0, c % 10 === 0 ? 20_000 : 700);
      const series = randomSeries(rnd, n);
      const got = k.describe(series);
      const want = referenceDescribe(series);
      for (const key of Object.keys(want) as (keyof typeof want)[]) {
        const g = got[key];
        const w = want[key];
        if (typeof w === 'number') expect(same(g as number, w), `seed ${seed} ${key}: ${String(g)} vs ${w}`).toBe(true);
        else expect(Array.from(g as Float64Array), `seed ${seed} ${key}`).toEqual(Array.from(w));
      }
    }
  });

  it('pearson', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 100_000 + c;
      const rnd = seededRandom(seed);
      const n = randomInt(rnd, 0, 500);
      const x = randomSeries(rnd, n);
      const coupling = rnd() * 2 - 1;
      const noise = randomSeries(rnd, n);
      const y = x.map((v, i) => coupling * v + (1 - Math.abs(coupling)) * noise[i]);
      expect(same(k.pearson(x, y), referencePearson(x, y)), `seed ${seed}`).toBe(true);
    }
  });

  it('segmentsAbove and meanShift', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 200_000 + c;
      const rnd = seededRandom(seed);
      const n = randomInt(rnd, 0, 400);
      const series = randomSeries(rnd, n);
      const threshold = rnd() * 200;
      const minRun = randomInt(rnd, 1, 6);
      const maxGap = randomInt(rnd, 0, 4);
      expect(k.segmentsAbove(series, threshold, minRun, maxGap), `seed ${seed}`).toEqual(referenceSegmentsAbove(series, threshold, minRun, maxGap));
      const minSide = randomInt(rnd, 1, 20);
      const got = k.meanShift(series, minSide);
      const want = referenceMeanShift(series, minSide);
      for (const key of ['index', 'before', 'after', 'score'] as const) expect(same(got[key], want[key]), `seed ${seed} ${key}`).toBe(true);
    }
  });
});

describe('statistics kernels: properties', () => {
  const k = loadBuiltKernels().stats;

  it('a box plot is ordered and its outliers lie beyond the whiskers', () => {
    for (let c = 0; c < 200; c++) {
      const rnd = seededRandom(BASE_SEED + 300_000 + c);
      const d = k.describe(randomSeries(rnd, randomInt(rnd, 1, 800)));
      if (d.count === 0) continue;
      expect(d.min).toBeLessThanOrEqual(d.lower);
      expect(d.lower).toBeLessThanOrEqual(d.q1);
      expect(d.q1).toBeLessThanOrEqual(d.median);
      expect(d.median).toBeLessThanOrEqual(d.q3);
      expect(d.q3).toBeLessThanOrEqual(d.upper);
      expect(d.upper).toBeLessThanOrEqual(d.max);
      expect(d.lowOutliers.length + d.highOutliers.length).toBeLessThanOrEqual(d.count);
      for (const v of d.lowOutliers) expect(v).toBeLessThan(d.lower);
      for (const v of d.highOutliers) expect(v).toBeGreaterThan(d.upper);
      expect(d.medianAbsDev).toBeGreaterThanOrEqual(0);
      expect(d.stdDev * d.stdDev).toBeCloseTo(d.variance, 6);
    }
  });

  it('known values: 1..9, a symmetric and a skewed series', () => {
    const d = k.describe([9, 1, 8, 2, 7, 3, 6, 4, 5, NaN]);
    expect(d).toMatchObject({ count: 9, min: 1, q1: 3, median: 5, mean: 5, q3: 7, max: 9, variance: 7.5, medianAbsDev: 2 });
    expect(d.skewness).toBe(0);
    expect(d.kurtosis).toBeCloseTo(-1.23, 2);
    const skewed = k.describe([1, 1, 1, 1, 1, 1, 1, 1, 1, 50]);
    expect(skewed.skewness).toBeGreaterThan(2);
    expect(Array.from(skewed.highOutliers)).toEqual([50]);
    expect(skewed.upper).toBe(1);
  });

  it('pearson: +1, -1, undefined for constant series', () => {
    const x = [1, 2, 3, 4, 5];
    expect(k.pearson(x, x.map((v) => 2 * v + 3))).toBeCloseTo(1, 12);
    expect(k.pearson(x, x.map((v) => -v))).toBeCloseTo(-1, 12);
    expect(k.pearson(x, [2, 2, 2, 2, 2])).toBeNaN();
    expect(k.pearson([1, NaN, 3], [1, 2, 3])).toBeNaN(); // two pairs only
  });

  it('segments and the mean shift find an injected step', () => {
    const series = [...Array(50).fill(10), ...Array(30).fill(40), ...Array(20).fill(10)];
    series[60] = 10; // a one-sample dip inside the step is bridged by maxGap 1
    expect(k.segmentsAbove(series, 25, 5, 1)).toEqual([{ start: 50, end: 80 }]);
    expect(k.segmentsAbove(series, 25, 5, 0)).toEqual([{ start: 50, end: 60 }, { start: 61, end: 80 }]);
    const shift = k.meanShift([...Array(40).fill(5), ...Array(60).fill(25)], 5);
    expect(shift).toMatchObject({ index: 40, before: 5, after: 25 });
  });
});
