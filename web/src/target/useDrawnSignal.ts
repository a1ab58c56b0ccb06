// "Fully drawn" (the perf suite's signal, docs/benchmarks.md): the grid has painted its last
// row with every row of the answer, and every visible graph has drawn a frame with data.
// Marked once per target: a performance mark and data-drawn on the window's root element.
import { useCallback, useRef } from 'react';
import type { TargetRow } from '../../../server/contract/targets';
import { isHeaderRow } from './logic/rowId';

export function useDrawnSignal(targetId: string | undefined, rows: readonly TargetRow[], graphHops: readonly number[]) {
  const root = useRef<HTMLDivElement>(null);
  const drawn = useRef({ target: '', gridRows: 0, graphs: new Set<string>(), done: false });
  // What "all drawn" means for the latest render; the callbacks read it, so they stay stable.
  const want = useRef({ rows: 0, graphs: [] as string[] });
  want.current = {
    rows: rows.length,
    graphs: graphHops.map((h) => rows.find((r) => r.HopNum === h && !isHeaderRow(r.UniqueID))?.UniqueID ?? ''),
  };
  if (drawn.current.target !== (targetId ?? '')) {
    drawn.current = { target: targetId ?? '', gridRows: 0, graphs: new Set(), done: false };
    delete root.current?.dataset.drawn;
  }
  const check = useCallback(() => {
    const d = drawn.current;
    const w = want.current;
    if (d.done || w.rows < 2 || d.gridRows !== w.rows || !w.graphs.every((id) => d.graphs.has(id))) return;
    d.done = true;
    performance.mark('hopwatch:target-drawn', { detail: { target: d.target } });
    if (root.current) root.current.dataset.drawn = d.target;
  }, []);
  const onGridPainted = useCallback((count: number) => {
    drawn.current.gridRows = count;
    check();
  }, [check]);
  const onGraphDrawn = useCallback((rowId: string) => {
    drawn.current.graphs.add(rowId);
    check();
  }, [check]);
  return { root, onGridPainted, onGraphDrawn };
}
