// Builders shared by the tests: a result skeleton, hosts, stats and time segments.
import type { TestCategory, WisdomHost, WisdomResultEnum, WisdomSegment, WisdomStat, WisdomTestResult } from '../contract/insights.js';
import type { Segment } from '../../wasm/stats-types.js';
import { bucketTime, type HopSeries, type InsightSeries } from './series.js';

/** One test of the catalogue: a pure function of the series. */
export interface WisdomTest {
  id: number;
  /** Shown as "Testing: {title}" while it runs. */
  title: string;
  category: TestCategory;
  /** Page name under docs/insights/. */
  page: string;
  run(ctx: import('./series.js').TestContext): WisdomTestResult;
}

export const readMoreUrl = (page: string) => `/docs/insights/${page}`;

export function result(test: WisdomTest, outcome: WisdomResultEnum, title: string, description: string[], stats: WisdomStat[] = []): WisdomTestResult {
  return {
    TestID: test.id,
    TestTitle: test.title,
    TestCategory: test.category,
    Title: title,
    Description: description,
    ReadMoreUrl: readMoreUrl(test.page),
    Stats: stats,
    ResultEnum: outcome,
    WisdomHosts: [],
    WisdomSegments: [],
    HopDetails: [],
  };
}

const finite = (v: number) => (Number.isFinite(v) ? v : null);
const round = (v: number, digits: number) => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : null);

export function stat(Key: string, Name: string, value: number, Measure: string, Important = false, digits = 1): WisdomStat {
  return { Key, Name, Value: round(value, digits), Measure, Important };
}

export function host(h: HopSeries, targetId: string, pearson = NaN, flags: { loss?: boolean; latency?: boolean } = {}): WisdomHost {
  return {
    Name: h.name,
    HopNumber: h.hop,
    UniqueID: h.uniqueId,
    RedHerringPacketLoss: flags.loss ?? false,
    RedHerringLatency: flags.latency ?? false,
    PearsonScore: finite(round(pearson, 3) ?? NaN),
    HostID: `${targetId}_h_${h.hop}`,
  };
}

/** Bucket-index segments to time segments, each with the mean of `values` over it. */
export function timeSegments(s: InsightSeries, segments: Segment[], key: string, values: ArrayLike<number>): WisdomSegment[] {
  return segments.map((seg) => {
    let sum = 0;
    let n = 0;
    for (let b = seg.start; b < seg.end; b++) {
      if (Number.isFinite(values[b])) {
        sum += values[b];
        n++;
      }
    }
    return {
      TimeRange: { Start: new Date(bucketTime(s, seg.start)).toISOString(), End: new Date(Math.min(s.end, bucketTime(s, seg.end))).toISOString() },
      Stats: [{ Key: key, Value: n ? Math.round((sum / n) * 10) / 10 : null }],
    };
  });
}

export const pct = (v: number) => `${v.toFixed(1)}%`;
export const ms = (v: number) => `${v.toFixed(1)} ms`;
export const hopLabel = (h: HopSeries) => `#${h.hop} (${h.name})`;
