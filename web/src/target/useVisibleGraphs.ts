// Which hops have a timeline graph: the user's Visible_Graphs_{targetId} choice over the hops
// the target has now (logic/visibleGraphs), changed from the row menu.
import { useAtom } from 'jotai';
import { useMemo } from 'react';
import type { TargetRow } from '../../../server/contract/targets';
import { isHeaderRow } from './logic/rowId';
import { toggleVisibleGraph, visibleGraphHosts } from './logic/visibleGraphs';
import { visibleGraphsAtom } from './prefs';

export function useVisibleGraphs(targetId: string | undefined, rows: readonly TargetRow[]): { graphHops: number[]; setGraphVisible: (hop: number, visible: boolean) => void } {
  const [stored, setStored] = useAtom(visibleGraphsAtom(targetId));
  const hopIds = useMemo(() => rows.filter((r) => !isHeaderRow(r.UniqueID)).map((r) => r.HopNum), [rows]);
  const graphHops = useMemo(() => visibleGraphHosts(stored, hopIds), [stored, hopIds]);
  const setGraphVisible = (hop: number, visible: boolean) => setStored(toggleVisibleGraph(graphHops, hop, visible));
  return { graphHops, setGraphVisible };
}
