// The selected grid rows (logic/rowSelection) and new-target mode: Release Focus clears the
// selection to type a new target, a row click or Select All leaves that mode again. On a
// summary screen no row is auto-selected (spec 2 section 4).
import { useEffect, useState } from 'react';
import { isHeaderRow } from './logic/rowId';
import { selectionAfterClick, selectionAfterRowsChanged, type ClickModifiers } from './logic/rowSelection';

const NoRows: readonly string[] = [];

export function useRowSelection(rowIds: readonly string[], isSummaryScreen = false) {
  const [selection, setSelection] = useState<readonly string[]>([]);
  const [newTargetMode, setNewTargetMode] = useState(false);
  // Whether the rows were picked by a click (plain or toggle): the timeline graphs follow
  // those (logic/focusGraphs), not the automatic selection of the last row or Select All.
  const [clicked, setClicked] = useState(false);
  useEffect(() => {
    setSelection((sel) => (newTargetMode ? sel.filter((id) => rowIds.includes(id)) : selectionAfterRowsChanged(sel, rowIds, isSummaryScreen)));
  }, [rowIds, newTargetMode, isSummaryScreen]);

  /** Select All: every hop row, or none when they all are selected already. */
  const selectAll = () => {
    const hops = rowIds.filter((id) => !isHeaderRow(id));
    setSelection((sel) => (hops.length > 0 && hops.every((id) => sel.includes(id)) ? [] : hops));
    setNewTargetMode(false);
    setClicked(false);
  };
  const clickRow = (rowId: string, mods: ClickModifiers) => {
    setSelection((sel) => {
      const next = selectionAfterClick(sel, rowId, mods);
      if (next !== sel) setNewTargetMode(false);
      return next;
    });
    setClicked(true);
  };
  const releaseFocus = () => {
    setSelection([]);
    setNewTargetMode(true);
    setClicked(false);
  };
  /** The selected rows when the user clicked them, else none. */
  const clickedRows = clicked ? selection : NoRows;
  return { selection, clickedRows, newTargetMode, selectAll, clickRow, releaseFocus, leaveNewTargetMode: () => setNewTargetMode(false) };
}
