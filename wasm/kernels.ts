// Typed entry points over the WASM kernels. One Kernels per thread (it owns one instance
// and its memory). Memory layout per call, from heapBase: [cells][staging or output].
// Inputs are streamed through the staging area in chunks (one copy in), results are
// copied out once into fresh typed arrays that stay valid after later calls.

import type { KernelExports, StatsExports } from './kernel-exports.js';
import type {
  BucketResult,
  BucketSpec,
  RollupColumns,
  RowStatsResult,
  SampleColumns,
  TimeRange,
} from './kernel-types.js';
import { LinearMemory, align8, copyIn } from './linear-memory.js';
import { emptyRollupRows } from './rollup-rows.js';
import { StatsKernels } from './stats.js';

export interface KernelOptions {
  /** Rows staged per kernel call; small enough to stay in cache after the copy in. */
  chunkRows?: number;
}

/** 16.7 M cells x 72 bytes: a bit over 1 GB of scratch, well past any sane request. */
const MAX_CELLS = 1 << 24;

function checkSpec(spec: BucketSpec): void {
  const { start, period, bucketCount, hopCount } = spec;
  if (!Number.isFinite(start)) throw new RangeError('start must be a finite time in ms');
  if (!(Number.isFinite(period) && period > 0)) throw new RangeError('period must be > 0 ms');
  if (!(Number.isInteger(bucketCount) && bucketCount >= 1)) {
    throw new RangeError('bucketCount must be an integer >= 1');
  }
  if (!(Number.isInteger(hopCount) && hopCount >= 1)) {
    throw new RangeError('hopCount must be an integer >= 1');
  }
  if (bucketCount * hopCount > MAX_CELLS) {
    throw new RangeError(`bucketCount x hopCount must be at most ${MAX_CELLS}`);
  }
}

function rowCount(columns: object, names: readonly string[]): number {
  const cols = columns as Record<string, ArrayLike<number> | undefined>;
  const n = cols[names[0]]?.length;
  if (n === undefined) throw new TypeError(`column ${names[0]} is missing`);
  for (const name of names) {
    if (cols[name]?.length !== n) {
      throw new RangeError(`column ${name} has ${cols[name]?.length} rows, expected ${n}`);
    }
  }
  return n;
}

const SAMPLE_COLUMNS = ['time', 'hop', 'latency'] as const;
// The columns of rollup rows as emptyRollupRows lays them out, floats and integers apart
// (staged in that order); accumulateRollups takes their pointers by name below.
const rowTemplate = emptyRollupRows(0) as unknown as Record<string, Float64Array | Int32Array>;
const ROLLUP_F64 = Object.keys(rowTemplate).filter((k) => rowTemplate[k] instanceof Float64Array) as (keyof RollupColumns)[];
const ROLLUP_I32 = Object.keys(rowTemplate).filter((k) => rowTemplate[k] instanceof Int32Array) as (keyof RollupColumns)[];

export class Kernels {
  readonly #x: KernelExports;
  readonly #memory: LinearMemory;
  readonly #cellsPtr: number;
  readonly #cellSize: number;
  readonly #chunkRows: number;
  #generation = 0;
  /** The Insights statistics kernels on the same instance (a call retires any accumulation). */
  readonly stats: StatsKernels;

  constructor(exports: KernelExports, options: KernelOptions = {}) {
    this.#x = exports;
    this.#memory = new LinearMemory(exports.memory);
    this.stats = new StatsKernels(exports as unknown as StatsExports, this.#memory, () => {
      this.#generation++;
    });
    this.#cellsPtr = align8(exports.heapBase());
    this.#cellSize = exports.cellSize();
    this.#chunkRows = Math.max(1, Math.floor(options.chunkRows ?? 65536));
  }

  /**
   * Starts an accumulation over the grid `spec`: feed it samples and/or rollup rows in time
   * order, then finish. Starting another one (or any one-shot call) retires this one.
   */
  begin(spec: BucketSpec): BucketAccumulator {
    checkSpec(spec);
    const generation = ++this.#generation;
    const cellCount = spec.bucketCount * spec.hopCount;
    const stagingPtr = align8(this.#cellsPtr + cellCount * this.#cellSize);
    this.#memory.ensure(stagingPtr);
    this.#x.resetCells(this.#cellsPtr, cellCount);
    return new BucketAccumulator(
      this.#x,
      this.#memory,
      { ...spec },
      this.#cellsPtr,
      stagingPtr,
      this.#chunkRows,
      () => generation === this.#generation,
    );
  }

  /** An accumulation of one bucket over [from, to), for grid-row statistics. */
  beginRowStats(range: TimeRange, hopCount: number): BucketAccumulator {
    return this.begin({ start: range.from, period: range.to - range.from, bucketCount: 1, hopCount });
  }

  bucketSamples(samples: SampleColumns, spec: BucketSpec): BucketResult {
    return this.begin(spec).addSamples(samples).finishBuckets();
  }

  mergeRollups(rows: RollupColumns, spec: BucketSpec): BucketResult {
    return this.begin(spec).addRollups(rows).finishBuckets();
  }

  rowStats(samples: SampleColumns, range: TimeRange, hopCount: number): RowStatsResult {
    return this.beginRowStats(range, hopCount).addSamples(samples).finishRowStats();
  }

  rowStatsFromRollups(rows: RollupColumns, range: TimeRange, hopCount: number): RowStatsResult {
    return this.beginRowStats(range, hopCount).addRollups(rows).finishRowStats();
  }
}

export class BucketAccumulator {
  readonly spec: Readonly<BucketSpec>;
  readonly #x: KernelExports;
  readonly #memory: LinearMemory;
  readonly #cellsPtr: number;
  readonly #stagingPtr: number;
  readonly #chunkRows: number;
  readonly #isCurrent: () => boolean;
  #finished = false;
  /** Pointers of the staged-sample views handed out by stageSamples, while they are valid. */
  #staged: { time: number; hop: number; latency: number; capacity: number } | undefined;

  constructor(
    exports: KernelExports,
    memory: LinearMemory,
    spec: BucketSpec,
    cellsPtr: number,
    stagingPtr: number,
    chunkRows: number,
    isCurrent: () => boolean,
  ) {
    this.#x = exports;
    this.#memory = memory;
    this.spec = spec;
    this.#cellsPtr = cellsPtr;
    this.#stagingPtr = stagingPtr;
    this.#chunkRows = chunkRows;
    this.#isCurrent = isCurrent;
  }

  #checkLive(): void {
    if (this.#finished) throw new Error('this accumulation is already finished');
    if (!this.#isCurrent()) throw new Error('this accumulation was retired by a later one on the same Kernels');
    // Any call may reuse or grow the staging area: earlier views are no longer trusted.
    this.#staged = undefined;
  }

  /**
   * Zero-copy input: views into the kernel's memory for up to `capacity` samples. Fill them
   * (e.g. straight from a DuckDB chunk) and call addStagedSamples(count); refill and repeat.
   * The views stay valid until any other call on this accumulator or its Kernels.
   */
  stageSamples(capacity: number): { time: Float64Array; hop: Int32Array; latency: Float64Array } {
    this.#checkLive();
    if (!(Number.isInteger(capacity) && capacity >= 1)) throw new RangeError('capacity must be an integer >= 1');
    const time = this.#stagingPtr;
    const hop = align8(time + capacity * 8);
    const latency = align8(hop + capacity * 4);
    this.#memory.ensure(latency + capacity * 8);
    this.#staged = { time, hop, latency, capacity };
    const { f64, i32 } = this.#memory;
    return {
      time: f64.subarray(time / 8, time / 8 + capacity),
      hop: i32.subarray(hop / 4, hop / 4 + capacity),
      latency: f64.subarray(latency / 8, latency / 8 + capacity),
    };
  }

  /** Folds the first `count` staged samples (time order, continuing earlier input). */
  addStagedSamples(count: number): this {
    const staged = this.#staged;
    this.#checkLive();
    this.#staged = staged; // nothing will be allocated: the views may be refilled and added again
    if (!staged) throw new Error('no staged samples: call stageSamples first (views expire on any other call)');
    if (!(Number.isInteger(count) && count >= 0 && count <= staged.capacity)) {
      throw new RangeError(`count must be an integer in 0..${staged.capacity}`);
    }
    const { start, period, bucketCount, hopCount } = this.spec;
    this.#x.accumulateSamples(
      this.#cellsPtr, staged.time, staged.hop, staged.latency, count, start, period, bucketCount, hopCount,
    );
    return this;
  }

  /** Raw samples, in time order (continuing any earlier chunk). */
  addSamples(samples: SampleColumns): this {
    this.#checkLive();
    const n = rowCount(samples, SAMPLE_COLUMNS);
    if (n === 0) return this;
    const k = Math.min(n, this.#chunkRows);
    const timePtr = this.#stagingPtr;
    const hopPtr = align8(timePtr + k * 8);
    const latencyPtr = align8(hopPtr + k * 4);
    this.#memory.ensure(latencyPtr + k * 8);
    const f64 = this.#memory.f64;
    const i32 = this.#memory.i32;
    const { start, period, bucketCount, hopCount } = this.spec;
    for (let offset = 0; offset < n; offset += k) {
      const length = Math.min(k, n - offset);
      copyIn(f64, timePtr / 8, samples.time, offset, length);
      copyIn(i32, hopPtr / 4, samples.hop, offset, length);
      copyIn(f64, latencyPtr / 8, samples.latency, offset, length);
      this.#x.accumulateSamples(
        this.#cellsPtr, timePtr, hopPtr, latencyPtr, length, start, period, bucketCount, hopCount,
      );
    }
    return this;
  }

  /**
   * Rollup rows of a finer period, in time order (continuing any earlier chunk). The rows of
   * hop `skipHop` (0: none) are left out, for a piece whose hop comes whole from another.
   */
  addRollups(rows: RollupColumns, skipHop = 0): this {
    this.#checkLive();
    if (!(Number.isInteger(skipHop) && skipHop >= 0)) throw new RangeError('skipHop must be an integer >= 0');
    const n = rowCount(rows, [...ROLLUP_F64, ...ROLLUP_I32]);
    if (n === 0) return this;
    const k = Math.min(n, this.#chunkRows);
    const ptr: Record<string, number> = {};
    let at = this.#stagingPtr;
    for (const name of ROLLUP_F64) {
      ptr[name] = at;
      at = align8(at + k * 8);
    }
    for (const name of ROLLUP_I32) {
      ptr[name] = at;
      at = align8(at + k * 4);
    }
    this.#memory.ensure(at);
    const f64 = this.#memory.f64;
    const i32 = this.#memory.i32;
    const { start, period, bucketCount, hopCount } = this.spec;
    for (let offset = 0; offset < n; offset += k) {
      const length = Math.min(k, n - offset);
      for (const name of ROLLUP_F64) copyIn(f64, ptr[name] / 8, rows[name], offset, length);
      for (const name of ROLLUP_I32) copyIn(i32, ptr[name] / 4, rows[name], offset, length);
      this.#x.accumulateRollups(
        this.#cellsPtr,
        ptr.time, ptr.hop, ptr.count, ptr.lost, ptr.sum, ptr.min, ptr.max, ptr.first,
        ptr.lastValid, ptr.jitterSum, ptr.jitterPairs, ptr.last, ptr.flags,
        length, start, period, bucketCount, hopCount, skipHop,
      );
    }
    return this;
  }

  /**
   * Per cell aggregates and derived values, per bucket route. Ends the accumulation. With
   * `views`, the arrays are views of the kernel's memory instead of copies (about 1 MB less
   * garbage for 500 buckets of 30 hops): read them before anything else uses these Kernels.
   */
  finishBuckets(opts: { views?: boolean } = {}): BucketResult {
    this.#checkLive();
    this.#finished = true;
    const { bucketCount, hopCount } = this.spec;
    const cells = bucketCount * hopCount;
    let at = this.#stagingPtr;
    const take = (bytes: number): number => {
      const p = at;
      at = align8(at + bytes);
      return p;
    };
    const p = {
      count: take(cells * 4), lost: take(cells * 4), sum: take(cells * 8), min: take(cells * 8),
      max: take(cells * 8), first: take(cells * 8), lastValid: take(cells * 8),
      jitterSum: take(cells * 8), jitterPairs: take(cells * 4), last: take(cells * 8),
      flags: take(cells * 4), average: take(cells * 8), jitter: take(cells * 8),
      routeBitMask: take(bucketCount * 4), routeLength: take(bucketCount * 4),
    };
    this.#memory.ensure(at);
    this.#x.finalizeBuckets(
      this.#cellsPtr, bucketCount, hopCount,
      p.count, p.lost, p.sum, p.min, p.max, p.first, p.lastValid, p.jitterSum, p.jitterPairs,
      p.last, p.flags, p.average, p.jitter, p.routeBitMask, p.routeLength,
    );
    const { f64, i32, u32 } = this.#memory;
    const F = (ptr: number, n: number) => (opts.views ? f64.subarray(ptr / 8, ptr / 8 + n) : f64.slice(ptr / 8, ptr / 8 + n));
    const I = (ptr: number, n: number) => (opts.views ? i32.subarray(ptr / 4, ptr / 4 + n) : i32.slice(ptr / 4, ptr / 4 + n));
    const mask = opts.views ? u32.subarray(p.routeBitMask / 4, p.routeBitMask / 4 + bucketCount) : u32.slice(p.routeBitMask / 4, p.routeBitMask / 4 + bucketCount);
    return {
      ...this.spec,
      count: I(p.count, cells), lost: I(p.lost, cells), sum: F(p.sum, cells),
      min: F(p.min, cells), max: F(p.max, cells), first: F(p.first, cells),
      lastValid: F(p.lastValid, cells), jitterSum: F(p.jitterSum, cells),
      jitterPairs: I(p.jitterPairs, cells), last: F(p.last, cells), flags: I(p.flags, cells),
      average: F(p.average, cells), jitter: F(p.jitter, cells),
      routeBitMask: mask,
      routeLength: I(p.routeLength, bucketCount),
    };
  }

  /** Grid-row statistics per hop; only for a one-bucket accumulation. Ends it. */
  finishRowStats(): RowStatsResult {
    this.#checkLive();
    if (this.spec.bucketCount !== 1) throw new Error('row statistics need a one-bucket accumulation');
    this.#finished = true;
    const { hopCount } = this.spec;
    let at = this.#stagingPtr;
    const take = (bytes: number): number => {
      const p = at;
      at = align8(at + bytes);
      return p;
    };
    const p = {
      average: take(hopCount * 8), min: take(hopCount * 8), max: take(hopCount * 8),
      current: take(hopCount * 8), lossPercent: take(hopCount * 8), goodCount: take(hopCount * 4),
      count: take(hopCount * 4), lost: take(hopCount * 4), jitter: take(hopCount * 8),
    };
    this.#memory.ensure(at);
    this.#x.finalizeRowStats(
      this.#cellsPtr, hopCount, p.average, p.min, p.max, p.current, p.lossPercent,
      p.goodCount, p.count, p.lost, p.jitter,
    );
    const { f64, i32 } = this.#memory;
    const F = (ptr: number) => f64.slice(ptr / 8, ptr / 8 + hopCount);
    const I = (ptr: number) => i32.slice(ptr / 4, ptr / 4 + hopCount);
    return {
      hopCount,
      average: F(p.average), min: F(p.min), max: F(p.max), current: F(p.current),
      lossPercent: F(p.lossPercent), goodCount: I(p.goodCount), count: I(p.count),
      lost: I(p.lost), jitter: F(p.jitter),
    };
  }
}
