// Typed entry points over the Insights statistics kernels (wasm/assembly/stats.ts). They
// share the module's memory with the bucket kernels: a statistics call retires any
// accumulation in progress on the same Kernels (one job at a time per instance).
import type { StatsExports } from './kernel-exports.js';
import { LinearMemory, align8, copyIn } from './linear-memory.js';
import type { Description, MeanShift, Segment } from './stats-types.js';

// Slot indices of describe()'s output (wasm/assembly/stats.ts DESCRIBE_*).
const D = { count: 0, min: 1, lower: 2, q1: 3, median: 4, mean: 5, q3: 6, upper: 7, max: 8, variance: 9, stdDev: 10, skewness: 11, kurtosis: 12, medianAbsDev: 13, low: 14, high: 15 } as const;
/** Room for the sort's range stack after the values (64 ranges of two i32). */
const SORT_STACK = 64;

export class StatsKernels {
  readonly #x: StatsExports;
  readonly #memory: LinearMemory;
  readonly #base: number;
  readonly #retire: () => void;

  constructor(exports: StatsExports, memory: LinearMemory, retire: () => void) {
    this.#x = exports;
    this.#memory = memory;
    this.#base = align8(exports.heapBase());
    this.#retire = retire;
    const slots = exports.DESCRIBE_SLOTS?.value;
    if (slots !== 16) throw new Error(`WASM kernels are stale: DESCRIBE_SLOTS is ${String(slots)}, expected 16; rebuild with "npm run build:wasm"`);
  }

  /** Box plot, moments and MAD of the finite values (NaN and infinities are skipped). */
  describe(values: ArrayLike<number>): Description {
    this.#retire();
    const n = values.length;
    const valuesPtr = this.#base;
    const scratchPtr = valuesPtr + (n + SORT_STACK) * 8;
    const outPtr = scratchPtr + (n + SORT_STACK) * 8;
    this.#memory.ensure(outPtr + 16 * 8);
    copyIn(this.#memory.f64, valuesPtr / 8, values, 0, n);
    const m = this.#x.describe(valuesPtr, n, scratchPtr, outPtr);
    const f64 = this.#memory.f64;
    const o = outPtr / 8;
    const low = f64[o + D.low];
    const high = f64[o + D.high];
    const v = valuesPtr / 8;
    return {
      count: f64[o + D.count],
      min: f64[o + D.min],
      lower: f64[o + D.lower],
      q1: f64[o + D.q1],
      median: f64[o + D.median],
      mean: f64[o + D.mean],
      q3: f64[o + D.q3],
      upper: f64[o + D.upper],
      max: f64[o + D.max],
      variance: f64[o + D.variance],
      stdDev: f64[o + D.stdDev],
      skewness: f64[o + D.skewness],
      kurtosis: f64[o + D.kurtosis],
      medianAbsDev: f64[o + D.medianAbsDev],
      lowOutliers: f64.slice(v, v + low),
      highOutliers: f64.slice(v + m - high, v + m),
    };
  }

  /** Pearson correlation over the indices where both series are finite (NaN if undefined). */
  pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
    this.#retire();
    const n = Math.min(x.length, y.length);
    const xPtr = this.#base;
    const yPtr = xPtr + n * 8;
    this.#memory.ensure(yPtr + n * 8);
    const f64 = this.#memory.f64;
    copyIn(f64, xPtr / 8, x, 0, n);
    copyIn(f64, yPtr / 8, y, 0, n);
    return this.#x.pearson(xPtr, yPtr, n);
  }

  /**
   * Index runs where the series is above `threshold`, joining runs `maxGap` indices apart
   * or closer and dropping runs shorter than `minRun`.
   */
  segmentsAbove(values: ArrayLike<number>, threshold: number, minRun = 1, maxGap = 0): Segment[] {
    this.#retire();
    const n = values.length;
    const ptr = this.#base;
    const outPtr = ptr + n * 8;
    this.#memory.ensure(outPtr + (n + 1) * 8);
    copyIn(this.#memory.f64, ptr / 8, values, 0, n);
    const count = this.#x.segmentsAbove(ptr, n, threshold, Math.max(1, Math.floor(minRun)), Math.max(0, Math.floor(maxGap)), outPtr);
    const i32 = this.#memory.i32;
    const out: Segment[] = [];
    for (let k = 0; k < count; k++) out.push({ start: i32[outPtr / 4 + 2 * k], end: i32[outPtr / 4 + 2 * k + 1] });
    return out;
  }

  /** The best split of the finite values into two means, at least `minSide` values each side. */
  meanShift(values: ArrayLike<number>, minSide = 1): MeanShift {
    this.#retire();
    const n = values.length;
    const ptr = this.#base;
    const outPtr = ptr + n * 8;
    this.#memory.ensure(outPtr + 4 * 8);
    copyIn(this.#memory.f64, ptr / 8, values, 0, n);
    this.#x.meanShift(ptr, n, Math.max(1, Math.floor(minSide)), outPtr);
    const f64 = this.#memory.f64;
    const o = outPtr / 8;
    return { index: f64[o], before: f64[o + 1], after: f64[o + 2], score: f64[o + 3] };
  }
}
