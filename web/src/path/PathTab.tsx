// The "Path" tab beside the graphs of the target window and the summary screen (issue 44 item
// 5), and opening a hop the Path view was clicked on in its target window at the same range.
import { useEffect } from 'react';
import type { TargetNavigationState } from '../target/navigationState';

export type GraphsPane = 'graphs' | 'path';

export function PaneTabs({ pane, onPane }: { pane: GraphsPane; onPane: (p: GraphsPane) => void }) {
  return (
    <div className="path-view-tabs" role="tablist" aria-label="Graphs or path">
      <button type="button" role="tab" aria-selected={pane === 'graphs'} onClick={() => onPane('graphs')}>
        Graphs
      </button>
      <button type="button" role="tab" aria-selected={pane === 'path'} onClick={() => onPane('path')}>
        Path
      </button>
    </div>
  );
}

/** The navigation state that opens a hop at a range (the Path view's click on another target's hop). */
export const openHopState = (range: { startMs: number; endMs: number }, hop: number): TargetNavigationState => ({ pathRange: range, pathHop: hop });

/** On opening a target with openHopState: select the range and show the hop's graph. */
export function useOpenHopFromNavigation(
  targetId: string | undefined,
  state: TargetNavigationState | null,
  selectRange: (startMs: number, endMs: number) => void,
  showHop: (hop: number) => void,
): void {
  const range = state?.pathRange;
  const hop = state?.pathHop;
  useEffect(() => {
    if (range) selectRange(range.startMs, range.endMs);
    if (hop) showHop(hop);
    // Once per target opened this way.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [targetId, range?.startMs, range?.endMs, hop]);
}
