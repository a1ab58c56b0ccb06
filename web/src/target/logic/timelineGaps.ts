// Gaps in the timeline (issue 40 item 2): a stretch without samples is drawn as a gap, never
// as a line joining the samples on either side, and a marker says why it is there. The
// server lists the outages of the trace's agent and of the server (DataPointBuckets'
// Outages); a pause shows in the data itself, as the trace's stop/start marker rounds
// (IsStartTrace). Decisions in docs/target-window-logic.md "Gaps and their reasons".
import type { DataPoint, Outage } from '../../../../server/contract/data';

export const GapReason = { ServerDown: 'ServerDown', AgentOffline: 'AgentOffline', Paused: 'Paused', NoSamples: 'NoSamples' } as const;
export type GapReason = (typeof GapReason)[keyof typeof GapReason];

export const GapReasonText: Record<GapReason, string> = {
  ServerDown: 'Server down',
  AgentOffline: 'Agent offline',
  Paused: 'Trace paused',
  NoSamples: 'No samples',
};

export interface TimelineGap {
  /** The end of the last bucket with samples before the gap. */
  startMs: number;
  /** The start of the first bucket with samples after it. */
  endMs: number;
  reason: GapReason;
}

type GapPoint = Pick<DataPoint, 'Period' | 'LatencyCount' | 'IsStartTrace'>;

/**
 * The longest distance between the starts of two buckets with samples that is not a gap:
 * two trace intervals (one round may be late or lost to a busy moment) or two buckets,
 * whichever is longer. So a gap is at least one whole missing round beyond that.
 */
export const gapThresholdMs = (intervalMs: number, periodMs: number): number => Math.max(2 * intervalMs, 2 * periodMs);

/** An outage must cover this share of a gap to name it over a pause marker. */
export const OutageCoverShare = 0.5;

function overlapMs(o: Outage, startMs: number, endMs: number, nowMs: number): number {
  const s = Date.parse(o.Start);
  const e = o.End === null ? nowMs : Date.parse(o.End);
  return Math.max(0, Math.min(e, endMs) - Math.max(s, startMs));
}

/**
 * Why a gap has no samples: an outage of the server or of the agent that covers most of it
 * (the server first: an agent cannot report to a server that is down); else a pause, when a
 * stop/start marker round lies at its edges; else the outage that overlaps it most; else
 * "No samples" (nothing recorded says why, e.g. a gap older than the outage record).
 */
export function gapReason(startMs: number, endMs: number, outages: readonly Outage[], pauseMarker: boolean, nowMs: number): GapReason {
  const span = Math.max(1, endMs - startMs);
  const cover = (reason: Outage['Reason']) => outages.filter((o) => o.Reason === reason).reduce((sum, o) => sum + overlapMs(o, startMs, endMs, nowMs), 0);
  const server = cover('ServerDown');
  const agent = cover('AgentOffline');
  if (server / span >= OutageCoverShare) return GapReason.ServerDown;
  if (agent / span >= OutageCoverShare) return GapReason.AgentOffline;
  if (pauseMarker) return GapReason.Paused;
  if (server > 0 || agent > 0) return server >= agent ? GapReason.ServerDown : GapReason.AgentOffline;
  return GapReason.NoSamples;
}

/**
 * The gaps between buckets with samples (points in time order, as useBuckets keeps them).
 * `intervalMs` is the trace's interval now; where the rounds around a stretch came further
 * apart (the interval was longer then), the longer of the two neighbouring spacings counts
 * instead, so an old stretch of 60 s rounds is not a row of gaps.
 */
export function timelineGaps(points: readonly GapPoint[], periodMs: number, intervalMs: number, outages: readonly Outage[], nowMs: number): TimelineGap[] {
  // The buckets with samples, and whether a stop/start marker round lies in or after each
  // (up to the next one with samples): a pause's stop marker, or a resume's start marker.
  const times: number[] = [];
  const markers: boolean[] = [];
  let marker = false;
  for (const p of points) {
    if (p.IsStartTrace) marker = true;
    if (p.LatencyCount <= 0) continue;
    if (times.length) markers[times.length - 1] = marker;
    times.push(Date.parse(p.Period));
    marker = p.IsStartTrace;
  }
  const gaps: TimelineGap[] = [];
  for (let i = 1; i < times.length; i++) {
    const d = times[i] - times[i - 1];
    const neighbours = Math.max(i > 1 ? times[i - 1] - times[i - 2] : 0, i + 1 < times.length ? times[i + 1] - times[i] : 0);
    if (d <= gapThresholdMs(Math.max(intervalMs, neighbours), periodMs)) continue;
    const startMs = times[i - 1] + periodMs;
    gaps.push({ startMs, endMs: times[i], reason: gapReason(startMs, times[i], outages, markers[i - 1], nowMs) });
  }
  return gaps;
}

export type TimelineColumns = [number[], (number | null)[], (number | null)[], (number | null)[], (number | null)[]];

/**
 * uPlot's columns (bucket centres; min, max, average latency; loss %) with a null row in the
 * middle of each gap: uPlot joins neighbouring values unless a null lies between them.
 * `measured` turns a latency into a plotted value (null for special codes and missing ones).
 */
export function timelineColumns(
  points: readonly DataPoint[],
  periodMs: number,
  gaps: readonly TimelineGap[],
  measured: (v: number | null) => number | null,
  lossPercent: (lost: number, sent: number) => number,
): TimelineColumns {
  const cols: TimelineColumns = [[], [], [], [], []];
  const push = (x: number, min: number | null, max: number | null, avg: number | null, loss: number | null) => {
    cols[0].push(x);
    cols[1].push(min);
    cols[2].push(max);
    cols[3].push(avg);
    cols[4].push(loss);
  };
  let g = 0;
  for (const pt of points) {
    const start = Date.parse(pt.Period);
    // The null row sits at the gap's start: after the last bucket with samples (centre
    // before it), before any bucket in the gap (a marker round's, centre after it).
    while (g < gaps.length && gaps[g].startMs <= start) push(gaps[g++].startMs, null, null, null, null);
    const x = start + periodMs / 2;
    const avg = measured(pt.AverageLatency);
    push(
      x,
      measured(pt.LatencyMinimum) ?? avg,
      measured(pt.LatencyMaximum) ?? avg,
      avg,
      pt.LatencyCount > 0 && pt.LostPacketCount > 0 ? lossPercent(pt.LostPacketCount, pt.LatencyCount) : null,
    );
  }
  return cols;
}

/** The gap that holds `ms`, if any (gaps in time order). */
export const gapAt = (gaps: readonly TimelineGap[], ms: number): TimelineGap | undefined => gaps.find((g) => ms >= g.startMs && ms < g.endMs);

/** The marker's tooltip: what happened, and when. */
export function gapMarkerTitle(gap: TimelineGap, clock: (ms: number) => string): string {
  return `${GapReasonText[gap.reason]}: no samples from ${clock(gap.startMs)} to ${clock(gap.endMs)}`;
}
