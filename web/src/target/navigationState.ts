// Navigation state the target window is opened with (react-router's location.state).
export interface TargetNavigationState {
  /**
   * Spec 2/3: set after a data file import (and by other auto-run callers), so the window opens
   * the Insights panel and runs its tests at once.
   */
  runInsights?: boolean;
  /** The Path view opened this target at a hop (issue 44): the range it showed, and the hop whose graph to show. */
  pathRange?: { startMs: number; endMs: number };
  pathHop?: number;
}
