// Which hops have a timeline graph: the rows the user clicked (the focus graph, issue 41 item
// 3) and the ones kept from the row menu (Visible_Graphs_{targetId}), else the final hop
// (logic/focusGraphs).
import { useAtom } from 'jotai';
import { useMemo } from 'react';
import type { TargetRow } from '../../../server/contract/targets';
import { focusGraphHops, pinnedGraphHops } from './logic/focusGraphs';
import { isHeaderRow } from './logic/rowId';
import { toggleVisibleGraph } from './logic/visibleGraphs';
import { visibleGraphsAtom } from './prefs';

export function useVisibleGraphs(
  targetId: string | undefined,
  rows: readonly TargetRow[],
  /** Rows the user selected by clicking (not the automatic selection, not Select All). */
  focusedRowIds: readonly string[],
): { graphHops: number[]; pinnedHops: number[]; setGraphVisible: (hop: number, visible: boolean) => void } {
  const [stored, setStored] = useAtom(visibleGraphsAtom(targetId));
  const hopIds = useMemo(() => rows.filter((r) => !isHeaderRow(r.UniqueID)).map((r) => r.HopNum), [rows]);
  const focused = useMemo(
    () => rows.filter((r) => !isHeaderRow(r.UniqueID) && focusedRowIds.includes(r.UniqueID)).map((r) => r.HopNum),
    [rows, focusedRowIds],
  );
  const graphHops = useMemo(() => focusGraphHops({ pinned: stored, hops: hopIds, focused }), [stored, hopIds, focused]);
  const pinnedHops = useMemo(() => pinnedGraphHops(stored, hopIds), [stored, hopIds]);
  // Keeping a graph keeps what is on screen with it (the final hop shown by default stays);
  // hiding one unpins only that hop.
  const setGraphVisible = (hop: number, visible: boolean) => setStored(toggleVisibleGraph(visible ? graphHops : pinnedHops, hop, visible));
  return { graphHops, pinnedHops, setGraphVisible };
}
