// Data point buckets (spec 2 section 3 "Data point buckets").

export interface DataPoint {
  /** Bucket start (ISO time). */
  Period: string;
  IsStartTrace: boolean;
  /** Bucket index from the requested start. */
  UnitNumber: number;
  FirstLatency: number | null;
  LatencyMinimum: number | null;
  LatencyMaximum: number | null;
  Jitter: number | null;
  AverageLatency: number | null;
  /** Samples sent in the bucket. */
  LatencyCount: number;
  HasNotParticipating: boolean;
  LostPacketCount: number;
  SampleSetIndexStart: number;
  SampleSetIndexEnd: number;
  RouteBitMask: number;
  RouteLength: number;
  /** Per hop (index hop - 1): average latency in the bucket, null when none. */
  RouteHostLatencies: (number | null)[];
  RouteHostSentCount: number[];
  RouteHostLostCount: number[];
}

/**
 * Why a trace may have no samples for a while (issue 40 item 2): its agent's link was down,
 * or the server was not running. A pause is not listed: the trace's own stop/start marker
 * rounds say that (IsStartTrace).
 */
export const OutageReason = { AgentOffline: 'AgentOffline', ServerDown: 'ServerDown' } as const;
export type OutageReason = (typeof OutageReason)[keyof typeof OutageReason];

export interface Outage {
  Reason: OutageReason;
  /** ISO times; End null while the outage lasts. */
  Start: string;
  End: string | null;
}

export interface DataPointBuckets {
  Points: DataPoint[];
  FirstDatapoint: string | null;
  MostRecentDatapoint: string | null;
  /** The outages of the trace's agent and of the server that overlap the requested range. */
  Outages: Outage[];
}
