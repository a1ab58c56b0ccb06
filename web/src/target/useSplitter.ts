// The draggable splitter between the grid and the graphs: pane heights from the panes'
// measured height and the Target-Pane-Splitter-Height fraction (the summary screen passes
// its Summary-Pane-Splitter-Height atom), which a drag changes live and stores when the
// mouse is released.
import { useAtom, type WritableAtom } from 'jotai';
import { useLayoutEffect, useRef, useState } from 'react';
import { paneHeights, timelineGraphHeight } from './logic/timelineLayout';
import { targetSplitterAtom } from './prefs';

export const SplitterPx = 8;

export function useSplitter(
  panesShown: boolean,
  graphCount: number,
  fractionAtom: WritableAtom<number, [number], void> = targetSplitterAtom,
  /** The grid's full height when it needs less than its share (the summary's few rows): the graphs get the rest. */
  gridContentPx?: number,
) {
  const panes = useRef<HTMLDivElement>(null);
  const [paneHeight, setPaneHeight] = useState(600);
  const [stored, setStored] = useAtom(fractionAtom);
  const [dragged, setDragged] = useState<number | null>(null);
  const fraction = dragged ?? stored;

  // Measured again when the panes appear (a target loaded) and whenever they resize.
  useLayoutEffect(() => {
    const el = panes.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setPaneHeight(el.clientHeight));
    ro.observe(el);
    setPaneHeight(el.clientHeight);
    return () => ro.disconnect();
  }, [panesShown]);

  const { gridHeight, graphsHeight } = paneHeights(paneHeight, SplitterPx, fraction, graphCount, gridContentPx);
  const graphHeight = timelineGraphHeight(graphsHeight, Math.max(1, graphCount));

  const startDrag = (e: React.MouseEvent) => {
    e.preventDefault();
    const top = panes.current!.getBoundingClientRect().top;
    let last = fraction;
    const move = (ev: MouseEvent) => {
      last = Math.min(0.9, Math.max(0.1, (ev.clientY - top) / Math.max(1, paneHeight - SplitterPx)));
      setDragged(last);
    };
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
      setStored(last);
      setDragged(null);
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };

  return { panes, gridHeight, graphsHeight, graphHeight, startDrag };
}
