// The Path view's time strip (issue 44 item 3): per interval, the selection's loss and
// latency at its targets, from each trace's DataPointBuckets. Pure.
import type { DataPointBuckets } from '../contract/data.js';
import type { PathStripInterval } from '../contract/path-view.js';

/** Interval lengths the strip uses (s): the shortest giving at most MaxStripIntervals. */
const Steps = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];
export const MaxStripIntervals = 180;

export function stripIntervalSeconds(rangeMs: number): number {
  return Steps.find((s) => rangeMs / (s * 1000) <= MaxStripIntervals) ?? Steps[Steps.length - 1];
}

/** Lost / sent summed over the traces; latency the mean of the traces' averages. */
export function stripOf(from: number, intervalSeconds: number, traces: readonly DataPointBuckets[]): PathStripInterval[] {
  const byUnit = new Map<number, { sent: number; lost: number; latency: number; answered: number }>();
  for (const t of traces) {
    for (const p of t.Points) {
      const u = byUnit.get(p.UnitNumber) ?? { sent: 0, lost: 0, latency: 0, answered: 0 };
      u.sent += p.LatencyCount;
      u.lost += p.LostPacketCount;
      if (p.AverageLatency !== null && p.AverageLatency >= 0) {
        u.latency += p.AverageLatency;
        u.answered++;
      }
      byUnit.set(p.UnitNumber, u);
    }
  }
  return [...byUnit.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([unit, u]) => ({
      Start: new Date(from + unit * intervalSeconds * 1000).toISOString(),
      LossPercent: u.sent > 0 ? Math.round((u.lost / u.sent) * 1000) / 10 : null,
      LatencyMs: u.answered > 0 ? Math.round((u.latency / u.answered) * 100) / 100 : null,
    }));
}
