export function LoadingPane() {
  return <div className="loading-pane" aria-busy="true">Loading…</div>;
}
