// The Insights test catalogue in the order the tests run (the data checks first: when they
// fail, nothing else runs), and the runner: pure over the series, reporting progress.
import { InsufficientDataTests, isPotentialIssue, TestCategory, WisdomResultEnum, WisdomTestId, type WisdomTestResult } from '../contract/insights.js';
import type { StatsKernels } from '../../wasm/stats.js';
import { result, type WisdomTest } from './result.js';
import { hopFigures, type InsightSeries, type TestContext } from './series.js';
import { targetInsufficientData, wanInsufficientData } from './tests/data.js';
import { isFirewallConfiguredCorrectly } from './tests/lan.js';
import { findRedHerringHops, sustainedPacketLoss } from './tests/loss.js';
import { sustainedBandwidthSaturation } from './tests/saturation.js';
import { isQualityOfServiceAcceptable, isTargetReachable, latencyVariability } from './tests/target.js';
import { hopDetails } from './details.js';

export const noInsightsIdentified: WisdomTest = {
  id: WisdomTestId.NoInsightsIdentified,
  title: 'Summary',
  category: TestCategory.WAN,
  page: 'no-insights.md',
  run: () => {
    throw new Error('not run directly');
  },
};

export const WisdomTests: readonly WisdomTest[] = [
  wanInsufficientData,
  targetInsufficientData,
  isTargetReachable,
  isFirewallConfiguredCorrectly,
  sustainedPacketLoss,
  findRedHerringHops,
  sustainedBandwidthSaturation,
  latencyVariability,
  isQualityOfServiceAcceptable,
];

export const testById = new Map<number, WisdomTest>([...WisdomTests, noInsightsIdentified].map((t) => [t.id, t]));

export interface RunOptions {
  /** Test ids to run (the data checks always run); all when empty. */
  testIds?: number[];
  includeDetails: boolean;
  onProgress?: (title: string) => void;
}

export function runWisdomTests(series: InsightSeries, stats: StatsKernels, options: RunOptions): WisdomTestResult[] {
  const ctx: TestContext = { series, stats, figures: series.hops.map((h) => hopFigures(h, stats)), includeDetails: options.includeDetails };
  const wanted = options.testIds?.length ? new Set(options.testIds) : undefined;
  const results: WisdomTestResult[] = [];
  for (const test of WisdomTests) {
    const isDataCheck = InsufficientDataTests.includes(test.id);
    if (!isDataCheck && wanted && !wanted.has(test.id)) continue;
    options.onProgress?.(test.title);
    results.push(test.run(ctx));
    // Too little data: the reasons, and nothing that would be a guess. The first failing data
    // check ends the run: when the route's check fails, the target's fails for the same
    // reason and "did not run" listed it twice (issue 41 item 5).
    if (isDataCheck && results.at(-1)!.ResultEnum === WisdomResultEnum.Fail) break;
  }
  const notRun = results.some((r) => InsufficientDataTests.includes(r.TestID) && r.ResultEnum === WisdomResultEnum.Fail);
  if (notRun) return results.filter((r) => InsufficientDataTests.includes(r.TestID));
  if (!results.some((r) => isPotentialIssue(r.ResultEnum))) {
    results.push(result(noInsightsIdentified, WisdomResultEnum.NoInsightsIdentified, 'No insights identified', ['None of the tests found a problem on this path in the tested range.']));
  }
  if (options.includeDetails) {
    // A result without hosts is about the target's row (or the end of the route).
    const fallback = series.targetHop ?? series.hops.length;
    const hopsOf = (r: WisdomTestResult) => (r.WisdomHosts.length ? r.WisdomHosts.map((h) => h.HopNumber) : fallback > 0 ? [fallback] : []);
    const details = hopDetails(ctx, results.flatMap(hopsOf));
    for (const r of results) r.HopDetails = hopsOf(r).map((hop) => details.get(hop)!).filter(Boolean);
  }
  return results;
}
