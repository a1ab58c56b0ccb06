// The built loader inside a worker thread (as a Piscina task would use it): the main
// thread compiles once and hands the module over; the worker instantiates its own copy.

import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileKernels, loadKernels } from './loader.js';
import { builtLoaderPath, builtWasmPath } from './testing/built-kernels.js';
import { randomSamples, seededRandom } from './testing/kernel-inputs.js';

const workerSource = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(workerData.loaderUrl).then(({ loadKernels }) => {
    const kernels = loadKernels(workerData.module);
    parentPort.postMessage(kernels.bucketSamples(workerData.samples, workerData.spec));
  }, (error) => parentPort.postMessage({ error: String(error) }));
`;

describe('kernels in a worker thread', () => {
  it('give the same buckets as on the main thread, from a module compiled once', async () => {
    if (!existsSync(builtLoaderPath)) {
      throw new Error(`${builtLoaderPath} is missing: run "npm run build" first ("npm test" does it)`);
    }
    const module = compileKernels(builtWasmPath);
    const spec = { start: 1.7e12, period: 2500, bucketCount: 12, hopCount: 30 };
    const samples = randomSamples(seededRandom(42), spec, 5000);
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: { module, samples, spec, loaderUrl: pathToFileURL(builtLoaderPath).href },
    });
    try {
      const fromWorker = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(fromWorker).toEqual(loadKernels(module).bucketSamples(samples, spec));
    } finally {
      await worker.terminate();
    }
  });
});
