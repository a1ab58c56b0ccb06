// WASM kernels against the plain TypeScript reference on many seeded random inputs,
// special codes, NaN, out-of-grid times and hops included. Same inputs in the same order
// must give bit-identical answers. A failure names its seed: rerun with that seed.

import { describe, expect, it } from 'vitest';
import {
  referenceBucketSamples,
  referenceMergeRollups,
  referenceRowStats,
  referenceRowStatsFromRollups,
} from './reference.js';
import { loadBuiltKernels } from './testing/built-kernels.js';
import {
  firstDifference,
  randomInt,
  randomRollupRows,
  randomSamples,
  randomSpec,
  seededRandom,
} from './testing/kernel-inputs.js';

const CASES = 400;
const BASE_SEED = 20261122;

describe('WASM kernels match the TypeScript reference', () => {
  // A tiny chunk size on one instance pushes every input through many chunks.
  const kernels = loadBuiltKernels();
  const chunked = loadBuiltKernels({ chunkRows: 7 });

  it('bucketSamples', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + c;
      const rnd = seededRandom(seed);
      const spec = randomSpec(rnd);
      const samples = randomSamples(rnd, spec, randomInt(rnd, 0, 600));
      const expected = referenceBucketSamples(samples, spec);
      const diff =
        firstDifference({ ...kernels.bucketSamples(samples, spec) }, { ...expected }) ??
        firstDifference({ ...chunked.bucketSamples(samples, spec) }, { ...expected });
      expect(diff, `seed ${seed}`).toBeUndefined();
    }
  });

  it('mergeRollups', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 100_000 + c;
      const rnd = seededRandom(seed);
      const spec = randomSpec(rnd);
      const rows = randomRollupRows(rnd, spec, randomInt(rnd, 0, 300));
      const expected = referenceMergeRollups(rows, spec);
      const diff =
        firstDifference({ ...kernels.mergeRollups(rows, spec) }, { ...expected }) ??
        firstDifference({ ...chunked.mergeRollups(rows, spec) }, { ...expected });
      expect(diff, `seed ${seed}`).toBeUndefined();
    }
  });

  it('rowStats and rowStatsFromRollups', () => {
    for (let c = 0; c < CASES; c++) {
      const seed = BASE_SEED + 200_000 + c;
      const rnd = seededRandom(seed);
      const spec = randomSpec(rnd);
      const range = { from: spec.start, to: spec.start + spec.period * spec.bucketCount };
      const samples = randomSamples(rnd, spec, randomInt(rnd, 0, 600));
      const rows = randomRollupRows(rnd, spec, randomInt(rnd, 0, 300));
      const diff =
        firstDifference(
          { ...kernels.rowStats(samples, range, spec.hopCount) },
          { ...referenceRowStats(samples, range, spec.hopCount) },
        ) ??
        firstDifference(
          { ...chunked.rowStatsFromRollups(rows, range, spec.hopCount) },
          { ...referenceRowStatsFromRollups(rows, range, spec.hopCount) },
        );
      expect(diff, `seed ${seed}`).toBeUndefined();
    }
  });
});
