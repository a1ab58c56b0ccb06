// How the trace grid fits its pane (issue 15: at 1024 px wide the Graph column's 300 px ran
// past the pane and was cut off, with no scrollbar in sight). The Graph column is the one
// that gives: it takes what the other columns leave (down to GraphColumnMinPx), and never
// more than the user's own width for it unless there is room to spare (it grows then).
// Only when even the minimum does not fit does the grid scroll sideways.

/**
 * Narrowest Graph column that still shows a min-avg-max bar, loss and its scale's labels
 * (issue 41 item 9: with Hosts and MPLS shown, 120 px left it about 100 px of bar and cut the
 * scale's caption; below this the grid scrolls sideways instead).
 */
export const GraphColumnMinPx = 180;

/**
 * Width for the Graph column: its preferred width when everything fits, else what is left
 * beside the other shown columns, at least GraphColumnMinPx. Unknown pane width (0): preferred.
 */
export function graphColumnWidth(paneWidthPx: number, otherWidthsPx: readonly number[], preferredPx: number): number {
  if (!(paneWidthPx > 0)) return preferredPx;
  const left = paneWidthPx - otherWidthsPx.reduce((a, b) => a + b, 0);
  return Math.max(GraphColumnMinPx, Math.min(preferredPx, Math.floor(left)));
}
