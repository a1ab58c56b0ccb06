// Insights (Wisdom) DTOs and enumerations (spec 3 sections 3.1 and 10). The numeric test
// identifiers are ours (the spec gives the ranges, not the mapping): docs/insights.md.

/** Test category (spec 3 section 10). */
export const TestCategory = { LAN: 0, WAN: 1, Target: 2 } as const;
export type TestCategory = (typeof TestCategory)[keyof typeof TestCategory];

/** Test identifiers: 0 to 2 general, 100 LAN, 200 to 209 WAN, 300 to 305 target. */
export const WisdomTestId = {
  NoInsightsIdentified: 0,
  WAN_InsufficientData: 1,
  Target_InsufficientData: 2,
  LAN_IsFirewallConfiguredCorrectly: 100,
  WAN_SustainedPacketLoss: 200,
  WAN_SustainedBandwidthSaturation: 201,
  WAN_FindRedHerringHops: 202,
  Target_IsTargetReachable: 300,
  Target_LatencyVariability: 301,
  Target_IsQualityOfServiceAcceptable: 302,
} as const;
export type WisdomTestId = (typeof WisdomTestId)[keyof typeof WisdomTestId];
export const AllWisdomTestIds: readonly WisdomTestId[] = Object.values(WisdomTestId);

/** Result outcome (spec 3 section 10). */
export const WisdomResultEnum = {
  Pending: 0,
  Pass: 1,
  NotRelevant: 2,
  Fail: 3,
  NoInsightsIdentified: 4,
  Fail_LAN_FirstHopDropsIcmp: 100,
  Fail_LAN_NetworkBorderDropsIcmp: 101,
  Fail_LAN_AllIcmpBlocked: 102,
  Fail_LAN_SustainedBandwidthSaturation: 103,
  Fail_WAN_SustainedPacketLoss: 500,
  Fail_WAN_SustainedBandwidthSaturation_LAN_Network_Border: 501,
  Fail_WAN_SustainedBandwidthSaturation_LAN_ISP_Border: 502,
  Fail_WAN_SustainedBandwidthSaturation: 503,
  Fail_Target_NotReachable: 1000,
  Fail_Target_LatencyVariability: 1001,
  Fail_Target_PoorQualityOfService: 1002,
} as const;
export type WisdomResultEnum = (typeof WisdomResultEnum)[keyof typeof WisdomResultEnum];

/** A Potential Issue: a failing outcome (Fail and every numbered failure). */
export const isPotentialIssue = (r: number): boolean => r === WisdomResultEnum.Fail || r >= 100;
/** A Ruled Out Issue: the test ran and found nothing wrong. */
export const isRuledOut = (r: number): boolean => r === WisdomResultEnum.Pass;
/** Tests whose failure means the analysis did not run (their Description gives the reason). */
export const InsufficientDataTests: readonly number[] = [WisdomTestId.WAN_InsufficientData, WisdomTestId.Target_InsufficientData];

/** Feedback rating (spec 3 section 10). */
export const FeedbackRating = { Unknown: 0, VeryConfusing: 1, SomewhatConfusing: 2, OK: 3, SomewhatUseful: 4, VeryUseful: 5, ThumbsUp: 6 } as const;

export interface WisdomTimeRange {
  Start: string;
  End: string;
}

export interface WisdomStat {
  Key: string;
  Name: string;
  Value: number | string | null;
  Measure: string;
  Important: boolean;
}

export interface WisdomSegment {
  TimeRange: WisdomTimeRange;
  Stats: { Key: string; Value: number | null }[];
}

export interface WisdomHost {
  Name: string;
  HopNumber: number;
  UniqueID: string;
  RedHerringPacketLoss: boolean;
  RedHerringLatency: boolean;
  /** Correlation of this hop's series with the series the test is about (null when undefined). */
  PearsonScore: number | null;
  HostID: string;
}

export interface BoxPlotRow {
  /** Start of the division (ISO time). */
  Time: string;
  Lower: number | null;
  Q1: number | null;
  Median: number | null;
  Mean: number | null;
  Q3: number | null;
  Upper: number | null;
  Outliers: number[];
  Skewness: number | null;
  Kurtosis: number | null;
  StdDev: number | null;
  Variance: number | null;
  MedianAbsDev: number | null;
}

export interface BoxPlotChart {
  Title: string;
  Data: BoxPlotRow[];
}

export interface WisdomChart {
  Title: string;
  Series: string[];
  /** One array per series, aligned with TimeSeries. */
  SeriesData: (number | null)[][];
  /** Minutes from the start of the range (the charts' base unit). */
  TimeSeries: number[];
  /** Minutes per division (at most 50 divisions). */
  TimeBaseUnitStep: number;
  ColSize: number;
}

export interface HopDetail {
  HostId: string;
  HopNumber: number;
  Name: string;
  Details: WisdomStat[];
  WisdomCharts: WisdomChart[];
  BoxPlotChart: BoxPlotChart;
}

export interface WisdomTestResult {
  TestID: number;
  TestTitle: string;
  TestCategory: TestCategory;
  Title: string;
  Description: string[];
  ReadMoreUrl: string;
  Stats: WisdomStat[];
  ResultEnum: WisdomResultEnum;
  WisdomHosts: WisdomHost[];
  /** Lists of segments (one list per series the test segmented). */
  WisdomSegments: WisdomSegment[][];
  HopDetails: HopDetail[];
}

export interface WisdomResult {
  TestedSegment: { TimeRange: WisdomTimeRange; Stats: WisdomStat[] };
  Results: WisdomTestResult[];
}

export interface WisdomFeedback {
  SessionId: string;
  Rating: number;
  Comments: string;
  HelpRequested: boolean;
  /** The test id, test title and the insight, as JSON text. */
  ContextJson: string;
}

export const FeedbackCommentsMaxLength = 4000;
export const FeedbackContextMaxLength = 64 * 1024;
/** Spec 3 section 4.1: the auto-run window. */
export const WisdomAutoRunMinutes = 720;
/** Less than this much data is too little (spec 3 section 5: Sidekick's 10 minutes). */
export const WisdomMinimumDataMs = 10 * 60_000;
