// Sizes of the timeline graph area (spec 2 section 9): each graph gets the container height
// minus its chrome (TimelineGraphChromePx), shared out, but never less than
// TimelineGraphMinHeightPx (issue 41 item 9: readable at 1024x700, more graphs scroll); the
// splitter between grid and graphs defaults to 0.7, but leaves the graphs room for one whole
// graph; time-axis ticks use steps from 5 s to 36 h.
import { DefaultSplitterFraction, TickSpacingStepsMs, TimelineGraphChromePx, TimelineGraphMinHeightPx } from './constants';

/** Height of each timeline graph's plot: (container - chrome per graph) / graphs, at least the minimum. */
export function timelineGraphHeight(containerHeightPx: number, graphCount: number): number {
  if (graphCount <= 0) return 0;
  const share = Math.floor((containerHeightPx - TimelineGraphChromePx * graphCount) / graphCount);
  return Math.max(TimelineGraphMinHeightPx, share);
}

/** The grid keeps at least this height, however the splitter is set. */
export const MinGridPx = 90;

/**
 * The heights of the grid and the graphs pane in panes `paneHeightPx` tall (the splitter's
 * `splitterPx` taken out): the grid gets `fraction` of it (or less, when its rows need less:
 * `gridContentPx`), at least MinGridPx; but while there are graphs, the graphs pane keeps room
 * for one whole graph at its minimum height, taken from the grid (at 1024x700 the grid's 0.7
 * left the graphs 15-50 px, their axis titles cut).
 */
export function paneHeights(paneHeightPx: number, splitterPx: number, fraction: number, graphCount: number, gridContentPx?: number): { gridHeight: number; graphsHeight: number } {
  const room = Math.max(0, paneHeightPx - splitterPx);
  const share = Math.round(room * fraction);
  const wanted = gridContentPx === undefined ? share : Math.min(share, gridContentPx);
  const oneGraph = graphCount > 0 ? TimelineGraphMinHeightPx + TimelineGraphChromePx : 0;
  const gridHeight = Math.max(MinGridPx, Math.min(wanted, room - oneGraph));
  return { gridHeight, graphsHeight: Math.max(0, room - gridHeight) };
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
