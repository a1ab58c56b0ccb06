// Issue 41 item 5: when the analysis does not run, each reason is said once. The route's
// data check and the target's failed on the same short range and said it twice.
import { describe, expect, it } from 'vitest';
import { WisdomResultEnum } from '../contract/insights.js';
import { loadBuiltKernels } from '../../wasm/testing/built-kernels.js';
import { runWisdomTests } from './catalogue.js';
import type { HopSeries, InsightSeries } from './series.js';

const kernels = loadBuiltKernels();

function shortSeries(minutes: number): InsightSeries {
  const bucketMs = 10_000;
  const bucketCount = (minutes * 60_000) / bucketMs;
  const hop = (n: number): HopSeries => ({
    hop: n,
    uniqueId: `1_h_${n}`,
    name: `10.0.0.${n}`,
    address: `10.0.0.${n}`,
    latency: new Float64Array(bucketCount).fill(n),
    jitter: new Float64Array(bucketCount).fill(0.1),
    sent: new Int32Array(bucketCount).fill(10),
    lost: new Int32Array(bucketCount),
  });
  return { targetId: '1', targetName: 't', start: 0, end: minutes * 60_000, bucketMs, bucketCount, hops: [hop(1), hop(2), hop(3)], targetHop: 3, traceIntervalMs: 1000 };
}

describe('Insights that did not run', () => {
  it('give each reason once: a short range fails the route check only', () => {
    const results = runWisdomTests(shortSeries(2), kernels.stats, { includeDetails: false });
    const failed = results.filter((r) => r.ResultEnum === WisdomResultEnum.Fail);
    expect(failed).toHaveLength(1);
    const reasons = failed.flatMap((r) => r.Description);
    expect(reasons.filter((d) => /2\.0 minutes/.test(d))).toHaveLength(1);
  });
});
