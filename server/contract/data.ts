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

export interface DataPointBuckets {
  Points: DataPoint[];
  FirstDatapoint: string | null;
  MostRecentDatapoint: string | null;
}
