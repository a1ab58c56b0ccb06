// The trace grid's figures over a focus window without samples (issue 40 item 2): a hop that
// sent nothing in the window has no average, loss or error count, so the grid says "no
// samples" in its Avg cell and leaves the other figures empty, rather than showing 0 lost
// and 0% (a healthy-looking row for a stretch where the agent was offline).

/** The figures that describe the samples of the focus window. */
const WindowFigures = new Set(['Avg', 'Min', 'Max', 'ErrCount', 'PacketLoss']);
export const NoSamplesText = 'no samples';

export function figureCellText(columnName: string, text: string, totalCount: number): string {
  if (totalCount > 0 || !WindowFigures.has(columnName)) return text;
  return columnName === 'Avg' ? NoSamplesText : '';
}
