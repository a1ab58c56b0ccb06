// The kernels on a hand-worked example (every sample kind and edge), plus the loader's
// input checks. The WASM module under test is dist/wasm/kernels.wasm.

import { describe, expect, it } from 'vitest';
import { LatencyCode } from '../engine/latency-codes.js';
import { CellFlag, loadKernels, loadKernelsAsync, type SampleColumns } from './loader.js';
import { builtWasmPath, loadBuiltKernels } from './testing/built-kernels.js';

const T = LatencyCode.Timeout;
const NP = LatencyCode.NotParticipating;
const SS = LatencyCode.StopStart;

// [time, hop, latency] in time order; spec: start 1000, 3 buckets of 100 ms, 3 hops.
const rows: Array<[number, number, number]> = [
  [999, 1, 5], // before the grid
  // bucket 0
  [1000, 1, 10], [1000, 2, T], [1000, 3, NP],
  [1050, 1, 14], [1050, 2, 20], [1050, 3, LatencyCode.Pending],
  [1060, 1, 11], [1060, 2, LatencyCode.Ignore],
  // bucket 1: a target-wide stop/start marker (hop 0) flags every hop
  [1100, 0, SS], [1110, 1, T], [1110, 2, T], [1110, 3, 30],
  // bucket 2: a per-hop marker, a hop beyond hopCount, a NaN
  [1250, 3, SS], [1260, 1, NaN], [1299.5, 4, 50],
  [1300, 1, 5], // end is exclusive
];
const samples: SampleColumns = {
  time: Float64Array.from(rows, (r) => r[0]),
  hop: Int32Array.from(rows, (r) => r[1]),
  latency: Float64Array.from(rows, (r) => r[2]),
};
const spec = { start: 1000, period: 100, bucketCount: 3, hopCount: 3 };

describe('bucket kernel', () => {
  const result = loadBuiltKernels().bucketSamples(samples, spec);
  const cell = (bucket: number, hop: number) => bucket * 3 + hop - 1;

  it('aggregates valid latencies, timeouts and flags per bucket and hop', () => {
    const h1 = cell(0, 1);
    expect([result.count[h1], result.lost[h1], result.sum[h1]]).toEqual([3, 0, 35]);
    expect([result.min[h1], result.max[h1], result.first[h1], result.lastValid[h1]]).toEqual([10, 14, 10, 11]);
    expect(result.average[h1]).toBeCloseTo(35 / 3, 12);
    expect([result.jitterSum[h1], result.jitterPairs[h1], result.jitter[h1]]).toEqual([7, 2, 3.5]);

    const h2 = cell(0, 2); // timeout counts as sent and lost; Ignore is skipped
    expect([result.count[h2], result.lost[h2], result.average[h2], result.last[h2]]).toEqual([2, 1, 20, 20]);
    expect(result.jitter[h2]).toBeNaN();

    const h3 = cell(0, 3); // NotParticipating flags but does not count; Pending is skipped
    expect([result.count[h3], result.lost[h3], result.flags[h3], result.last[h3]]).toEqual([
      0, 0, CellFlag.HasNotParticipating, NP,
    ]);
    expect([result.average[h3], result.min[h3], result.max[h3], result.first[h3]]).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('marks start-trace cells and keeps all-lost cells without a latency', () => {
    for (const hop of [1, 2, 3]) expect(result.flags[cell(1, hop)]).toBe(CellFlag.IsStartTrace);
    expect([result.count[cell(1, 1)], result.lost[cell(1, 1)], result.last[cell(1, 1)]]).toEqual([1, 1, T]);
    expect(result.average[cell(1, 1)]).toBeNaN();
    expect([result.count[cell(1, 3)], result.average[cell(1, 3)]]).toEqual([1, 30]);
    expect(Array.from(result.flags.subarray(6, 9))).toEqual([0, 0, CellFlag.IsStartTrace]);
    expect(Array.from(result.count.subarray(6, 9))).toEqual([0, 0, 0]);
  });

  it('derives the route per bucket from the hops that answered', () => {
    expect(Array.from(result.routeBitMask)).toEqual([0b011, 0b100, 0]);
    expect(Array.from(result.routeLength)).toEqual([2, 3, 0]);
  });

  it('sets route bits for hops 1..32 only, while the length follows any hop', () => {
    const wide = loadBuiltKernels().bucketSamples(
      { time: [0, 0, 0], hop: [1, 32, 35], latency: [1, 2, 3] },
      { start: 0, period: 10, bucketCount: 1, hopCount: 40 },
    );
    expect(wide.routeBitMask[0]).toBe(((1 << 31) | 1) >>> 0);
    expect(wide.routeLength[0]).toBe(35);
  });
});

describe('row statistics kernel', () => {
  const kernels = loadBuiltKernels();

  it('gives average, min, max, current, loss percent and counts per hop', () => {
    const stats = kernels.rowStats(samples, { from: 1000, to: 1300 }, 3);
    expect(Array.from(stats.count)).toEqual([4, 3, 1]);
    expect(Array.from(stats.lost)).toEqual([1, 2, 0]);
    expect(Array.from(stats.goodCount)).toEqual([3, 1, 1]);
    expect(stats.lossPercent[0]).toBe(25);
    expect(stats.lossPercent[1]).toBeCloseTo(200 / 3, 12);
    expect(stats.lossPercent[2]).toBe(0);
    expect(Array.from(stats.current)).toEqual([T, T, 30]);
    expect(Array.from(stats.min)).toEqual([10, 20, 30]);
    expect(Array.from(stats.max)).toEqual([14, 20, 30]);
    expect(stats.average[0]).toBeCloseTo(35 / 3, 12);
    expect(stats.jitter[0]).toBe(3.5);
  });

  it('reports no loss percent when nothing was sent, and the latest code as current', () => {
    const stats = kernels.rowStats(samples, { from: 1000, to: 1100 }, 3);
    expect(stats.count[2]).toBe(0);
    expect(stats.lossPercent[2]).toBeNaN();
    expect(stats.current[2]).toBe(NP);
  });
});

describe('loader', () => {
  it('says how to build when the module is missing', () => {
    expect(() => loadKernels('/nonexistent/kernels.wasm')).toThrow(/npm run build:wasm/);
  });

  it('loads asynchronously to the same kernels', async () => {
    const kernels = await loadKernelsAsync(builtWasmPath);
    expect(kernels.bucketSamples(samples, spec)).toEqual(loadBuiltKernels().bucketSamples(samples, spec));
    await expect(loadKernelsAsync('/nonexistent/kernels.wasm')).rejects.toThrow(/npm run build:wasm/);
  });

  it('rejects a bad grid and mismatched columns', () => {
    const kernels = loadBuiltKernels();
    expect(() => kernels.bucketSamples(samples, { ...spec, period: 0 })).toThrow(RangeError);
    expect(() => kernels.bucketSamples(samples, { ...spec, bucketCount: 1.5 })).toThrow(RangeError);
    expect(() => kernels.bucketSamples(samples, { ...spec, hopCount: 0 })).toThrow(RangeError);
    expect(() =>
      kernels.bucketSamples({ time: [1, 2], hop: [1], latency: [1, 2] }, spec),
    ).toThrow(/hop has 1 rows, expected 2/);
  });

  it('retires an accumulation when another starts on the same instance', () => {
    const kernels = loadBuiltKernels();
    const first = kernels.begin(spec);
    kernels.begin(spec);
    expect(() => first.addSamples(samples)).toThrow(/retired/);
    const done = kernels.begin(spec);
    done.finishBuckets();
    expect(() => done.finishBuckets()).toThrow(/finished/);
  });

  it('accepts plain arrays as well as typed arrays', () => {
    const kernels = loadBuiltKernels();
    const typed = kernels.bucketSamples(samples, spec);
    const plain = kernels.bucketSamples(
      { time: Array.from(samples.time), hop: Array.from(samples.hop), latency: Array.from(samples.latency) },
      spec,
    );
    expect(plain).toEqual(typed);
  });

  it('grows memory for large inputs and returns results that later calls do not disturb', () => {
    const kernels = loadBuiltKernels({ chunkRows: 1 << 20 });
    const n = 3_000_000;
    const big = { time: new Float64Array(n), hop: new Int32Array(n), latency: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      big.time[i] = i;
      big.hop[i] = (i % 30) + 1;
      big.latency[i] = i % 7 === 0 ? T : i % 100;
    }
    const large = kernels.bucketSamples(big, { start: 0, period: 1000, bucketCount: 3000, hopCount: 30 });
    const small = kernels.bucketSamples(samples, spec);
    expect(large.count.reduce((a, b) => a + b, 0)).toBe(n);
    expect(large.lost.reduce((a, b) => a + b, 0)).toBe(Math.ceil(n / 7));
    expect(small).toEqual(kernels.bucketSamples(samples, spec));
    expect(large.count.length).toBe(90_000);
  });
});

describe('result views (zero-copy output)', () => {
  it('hold the same buckets as the copies, in the kernel memory, until the next accumulation', () => {
    const kernels = loadBuiltKernels();
    const copied = kernels.bucketSamples(samples, spec);
    const viewed = kernels.begin(spec).addSamples(samples).finishBuckets({ views: true });
    expect({ ...viewed }).toEqual({ ...copied });
    expect(viewed.count.buffer).not.toBe(copied.count.buffer);
    // A later accumulation reuses that memory: the copies stay, the views do not.
    const before = Array.from(viewed.count);
    kernels.bucketSamples({ time: [0, 1], hop: [1, 1], latency: [5, 5] }, spec);
    expect(Array.from(copied.count)).toEqual(before);
    expect(Array.from(viewed.count)).not.toEqual(before);
  });
});

describe('staged (zero-copy) input', () => {
  it('gives the same buckets as copied input, chunk after chunk through the same views', () => {
    const kernels = loadBuiltKernels();
    const expected = kernels.bucketSamples(samples, spec);
    const accumulator = kernels.begin(spec);
    const views = accumulator.stageSamples(4);
    for (let offset = 0; offset < rows.length; offset += 4) {
      const count = Math.min(4, rows.length - offset);
      for (let i = 0; i < count; i++) {
        [views.time[i], views.hop[i], views.latency[i]] = rows[offset + i];
      }
      accumulator.addStagedSamples(count);
    }
    expect(accumulator.finishBuckets()).toEqual(expected);
  });

  it('refuses staged input once the views may have expired', () => {
    const accumulator = loadBuiltKernels().begin(spec);
    accumulator.stageSamples(10);
    expect(() => accumulator.addStagedSamples(11)).toThrow(RangeError);
    accumulator.addSamples(samples);
    expect(() => accumulator.addStagedSamples(1)).toThrow(/stageSamples first/);
  });
});
