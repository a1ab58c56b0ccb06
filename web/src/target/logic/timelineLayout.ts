// Sizes of the timeline graph area (spec 2 section 9): each graph gets the container height
// minus 27 px of chrome per graph, shared out, but never less than 70 px; the splitter
// between grid and graphs defaults to 0.7; time-axis ticks use steps from 5 s to 36 h.
import { DefaultSplitterFraction, TickSpacingStepsMs, TimelineGraphChromePx, TimelineGraphMinHeightPx } from './constants';

/** Height of each timeline graph's plot: (container - 27 per graph) / graphs, at least 70. */
export function timelineGraphHeight(containerHeightPx: number, graphCount: number): number {
  if (graphCount <= 0) return 0;
  const share = Math.floor((containerHeightPx - TimelineGraphChromePx * graphCount) / graphCount);
  return Math.max(TimelineGraphMinHeightPx, share);
}

/**
 * The splitter position read from storage (Target-Pane-Splitter-Height or
 * Summary-Pane-Splitter-Height): the grid's share of the height, strictly between 0 and 1;
 * anything else (missing, not a number) gives the default 0.7.
 */
export function splitterFraction(stored: string | null | undefined): number {
  const value = stored === null || stored === undefined || stored.trim() === '' ? NaN : Number(stored);
  return value > 0 && value < 1 ? value : DefaultSplitterFraction;
}

/**
 * Decision: time-axis labels are at least this far apart; the spec gives only the steps'
 * range (5 s to 36 h).
 */
export const MinTickLabelSpacingPx = 80;

/** The smallest tick step that keeps labels MinTickLabelSpacingPx apart; 36 h at most. */
export function tickSpacingMs(viewportPeriodMs: number, plotWidthPx: number): number {
  const steps = TickSpacingStepsMs;
  if (plotWidthPx <= 0) return steps[steps.length - 1];
  const msPerPx = viewportPeriodMs / plotWidthPx;
  return steps.find((step) => step / msPerPx >= MinTickLabelSpacingPx) ?? steps[steps.length - 1];
}
