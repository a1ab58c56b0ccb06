// Shapes exchanged with the WASM kernels (docs/kernels.md is the prose contract).
// Index conventions: a cell is one bucket x one hop, at index bucket * hopCount + (hop - 1);
// per-hop arrays are indexed hop - 1. "No value" is NaN (JSON.stringify turns it into null).

/** Cell flag bits. */
export const CellFlag = {
  /** The hop was not probed at least once in the cell (spec: HasNotParticipating). */
  HasNotParticipating: 1,
  /** The trace stopped or started in the cell (spec: IsStartTrace). */
  IsStartTrace: 2,
} as const;

/** Raw samples of one target, in time order. */
export interface SampleColumns {
  /** Sample time, epoch milliseconds. */
  time: ArrayLike<number>;
  /** Hop number, 1-based (0 only for a target-wide StopStart marker). */
  hop: ArrayLike<number>;
  /** Latency in ms, or a special code below SpecialLatencyBase. */
  latency: ArrayLike<number>;
}

/** The bucket grid: bucketCount buckets of `period` ms from `start`, hops 1..hopCount. */
export interface BucketSpec {
  start: number;
  period: number;
  bucketCount: number;
  hopCount: number;
}

/** The aggregate of one cell: exactly what a rollup row stores (see docs/kernels.md). */
export interface AggregateColumns<I = Int32Array, F = Float64Array> {
  /** Samples sent: valid latencies + Timeouts (spec LatencyCount). */
  count: I;
  /** Timeouts (spec LostPacketCount). */
  lost: I;
  /** Sum of valid latencies. */
  sum: F;
  /** Minimum / maximum valid latency (NaN when none). */
  min: F;
  max: F;
  /** First / last valid latency in time order (NaN when none). */
  first: F;
  lastValid: F;
  /** Sum of |difference| of consecutive valid latencies, and the number of such pairs. */
  jitterSum: F;
  jitterPairs: I;
  /** Latest outcome: valid latency, Timeout code or NotParticipating code (NaN when none). */
  last: F;
  /** CellFlag bits. */
  flags: I;
}

/**
 * Rollup rows: aggregates of a finer period, each with the start time of its period. Plain
 * arrays may hold null (SQL NULL) in the float columns: it reads as NaN. Typed arrays must
 * carry NaN themselves (in `last` a 0 would be a latency of 0 ms).
 */
export interface RollupColumns
  extends AggregateColumns<ArrayLike<number>, ArrayLike<number | null>> {
  /** Start of the row's period, epoch milliseconds. Rows are in time order per hop. */
  time: ArrayLike<number>;
  /** Hop number, 1-based. */
  hop: ArrayLike<number>;
}

/** Output of the bucket kernel: the aggregates per cell plus derived values. */
export interface BucketResult extends BucketSpec, AggregateColumns {
  /** sum / (count - lost), NaN when no valid latency (spec AverageLatency). */
  average: Float64Array;
  /** jitterSum / jitterPairs, NaN with fewer than two valid latencies (spec Jitter). */
  jitter: Float64Array;
  /** Per bucket: bit h-1 set when hop h (1..32) answered at least once (spec RouteBitMask). */
  routeBitMask: Uint32Array;
  /** Per bucket: the highest hop that answered at least once, 0 if none (spec RouteLength). */
  routeLength: Int32Array;
}

/** A time range [from, to) in epoch milliseconds. */
export interface TimeRange {
  from: number;
  to: number;
}

/** Grid-row statistics per hop (index hop - 1) over a time range. */
export interface RowStatsResult {
  hopCount: number;
  /** Average valid latency (NaN when none). */
  average: Float64Array;
  min: Float64Array;
  max: Float64Array;
  /** Latest valid latency or latest code (Timeout, NotParticipating); NaN when none. */
  current: Float64Array;
  /** lost / count x 100; NaN when nothing was sent. */
  lossPercent: Float64Array;
  /** Valid latencies (count - lost). */
  goodCount: Int32Array;
  /** Samples sent (valid + Timeout). */
  count: Int32Array;
  lost: Int32Array;
  /** Mean |difference| of consecutive valid latencies; NaN with fewer than two. */
  jitter: Float64Array;
}
