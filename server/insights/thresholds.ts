// The figures the tests judge by, in one place (docs/insights.md explains each).

/** Sustained loss and carrying on: one rule with the console's grid (server/contract/hop-loss.ts). */
export { CarryOnShare, LossPercent } from '../contract/hop-loss.js';
/** A bucket is lossy at or above this loss percent (segments). */
export const LossyBucketPercent = 1;
/** A bucket's latency is elevated this much above the hop's floor (Q1 of its buckets): */
export const ElevatedMinMs = 10;
/** ... and at least this multiple of the floor. */
export const ElevatedFloorShare = 1;
/** Saturation: elevated buckets must be at least this share of the answered buckets. */
export const SaturatedShare = 0.08;
/** Saturation carries on: later hops' excess correlates at least this much. */
export const CarryOnPearson = 0.5;
/** Segments: runs of at least this many buckets, gaps of at most this many bridged. */
export const SegmentMinRun = 2;
export const SegmentMaxGap = 1;
/** Latency at a hop this much (ms and share) above every later hop's is a red herring. */
export const RedHerringLatencyMs = 10;
export const RedHerringLatencyShare = 0.5;
/** Target latency variability: jitter above max(ms, JitterShare x median), or the spread
 * (IQR) of the bucket averages above max(ms, SpreadShare x median). */
export const VariabilityMs = 10;
export const VariabilityJitterShare = 0.25;
export const VariabilitySpreadShare = 0.5;
/** Quality of service (ITU-T G.114 / common VoIP guidance). */
export const QoS = { latencyMs: 150, jitterMs: 30, lossPercent: 1, videoLatencyMs: 200, minMos: 3.6 } as const;
/** The target is unreachable at or above this loss percent. */
export const UnreachableLossPercent = 99;
