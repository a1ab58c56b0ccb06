// The Path view's time strip (issue 44 item 3): where each interval and route-change mark
// sits across the strip's width, and which time a position is. Pure.
import type { PathRouteChange, PathStripInterval } from '../../../../server/contract/path-view';

export interface StripScale {
  startMs: number;
  endMs: number;
  width: number;
}

export const xOf = (s: StripScale, ms: number) => ((ms - s.startMs) / (s.endMs - s.startMs)) * s.width;
export const timeAt = (s: StripScale, x: number) => s.startMs + (Math.min(Math.max(x, 0), s.width) / s.width) * (s.endMs - s.startMs);

export interface StripBar {
  x: number;
  width: number;
  lossPercent: number | null;
  latencyMs: number | null;
  startMs: number;
}

export function stripBars(s: StripScale, intervals: readonly PathStripInterval[], intervalSeconds: number): StripBar[] {
  return intervals.map((i) => {
    const startMs = Date.parse(i.Start);
    const x = xOf(s, startMs);
    return { x, width: Math.max(1, xOf(s, startMs + intervalSeconds * 1000) - x), lossPercent: i.LossPercent, latencyMs: i.LatencyMs, startMs };
  });
}

export interface ChangeMark {
  x: number;
  minuteMs: number;
  changes: PathRouteChange[];
}

/** One mark per minute with changes (of any agent and hop), in time order. */
export function changeMarks(s: StripScale, changes: readonly PathRouteChange[]): ChangeMark[] {
  const byMinute = new Map<number, PathRouteChange[]>();
  for (const c of changes) {
    const m = Date.parse(c.Time);
    byMinute.set(m, [...(byMinute.get(m) ?? []), c]);
  }
  return [...byMinute.entries()].sort((a, b) => a[0] - b[0]).map(([minuteMs, list]) => ({ x: xOf(s, minuteMs), minuteMs, changes: list }));
}
