// Diagnostic truth on injected faults, on the sample-level model (test/insights/model.ts):
// every scenario of test/insights/scenarios/ runs with several seeds through the same
// pipeline as stored data (bucket kernel -> series -> the test catalogue). The right test
// must fail and name the right hop in >= 95% of runs; a clean path raises no Potential
// Issue in any run. Prints the per-scenario verdicts.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runWisdomTests } from '../../server/insights/catalogue.js';
import { insightBucketMs, seriesFromBuckets } from '../../server/insights/build.js';
import { loadBuiltKernels } from '../../wasm/testing/built-kernels.js';
import { ModelStart, modelHosts, modelTargetAddress, readScenario, simulate, type Scenario } from './model.js';
import { judge } from './verdict.js';

const dir = fileURLToPath(new URL('./scenarios/', import.meta.url));
const scenarios = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => readScenario(dir + f));
const RUNS = Number(process.env.HOPWATCH_INSIGHT_RUNS ?? 10);
const kernels = loadBuiltKernels();

export function analyse(s: Scenario, seed: number, includeDetails = false) {
  const samples = simulate(s, seed);
  const start = ModelStart;
  const end = ModelStart + s.minutes * 60_000;
  const bucketMs = insightBucketMs(end - start, s.intervalSeconds * 1000);
  const bucketCount = Math.ceil((end - start) / bucketMs);
  const hopCount = s.hops.length + 1;
  const buckets = kernels.bucketSamples(samples, { start, period: bucketMs, bucketCount, hopCount });
  const series = seriesFromBuckets(buckets, {
    targetId: '1', targetName: s.name, targetAddress: modelTargetAddress, start, end, traceIntervalMs: s.intervalSeconds * 1000, hosts: modelHosts(s),
  });
  return runWisdomTests(series, kernels.stats, { includeDetails });
}

const table: string[] = [];
let right = 0;
let total = 0;

describe('Insights on injected faults (sample-level model)', () => {
  for (const s of scenarios) {
    it(s.name, () => {
      let ok = 0;
      const seen = new Map<string, number>();
      const failures: string[] = [];
      for (let k = 0; k < RUNS; k++) {
        const v = judge(analyse(s, s.seed * 1000 + k), s.expect);
        seen.set(v.found, (seen.get(v.found) ?? 0) + 1);
        if (v.ok) ok++;
        else failures.push(`run ${k}: ${v.problems.join('; ')}`);
      }
      right += ok;
      total += RUNS;
      const verdicts = [...seen].map(([f, c]) => `${f} (${c}x)`).join(' | ');
      table.push(`${s.name.padEnd(28)} ${String(ok).padStart(2)}/${RUNS} right   ${verdicts}`);
      if (s.expect.potential.length === 0 && !s.expect.notRun) expect(failures, 'a clean-path scenario never raises a Potential Issue').toEqual([]);
      expect(ok / RUNS, failures.join('\n')).toBeGreaterThanOrEqual(0.9);
    });
  }
});

afterAll(() => {
  console.log(['', 'Insights scenario verdicts (model):', ...table, `overall: ${right}/${total} runs right (${((right / total) * 100).toFixed(1)}%)`].join('\n'));
  // The goal is over all runs: >= 95% right.
  expect(right / total).toBeGreaterThanOrEqual(0.95);
});
