// Navigation state the target window is opened with (react-router's location.state).
export interface TargetNavigationState {
  /**
   * Spec 2/3: set after a data file import, so the window runs the Insights tests at once.
   * Read by the Insights panel once it exists; until then the window opens as usual.
   */
  runInsightsAfterImport?: boolean;
}
