// Row selection in the trace and summary grids (spec 2 section 4): a plain click selects one
// row; an alt, shift or meta click toggles the row in the multi-selection; header rows cannot
// be selected; on non-summary screens the last row is auto-selected when none is. Selections
// are arrays of row UniqueIDs in the order the user picked them; a function returns its input
// array unchanged (same reference) when nothing changes, so React can skip a render.
import { isSelectableRow } from './rowId';

export interface ClickModifiers {
  altKey?: boolean;
  shiftKey?: boolean;
  metaKey?: boolean;
}

function sameRows(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

/** The selection after a click on rowId. */
export function selectionAfterClick(
  selection: readonly string[],
  rowId: string,
  modifiers: ClickModifiers = {},
): readonly string[] {
  if (!isSelectableRow(rowId)) return selection;
  if (modifiers.altKey || modifiers.shiftKey || modifiers.metaKey) {
    return selection.includes(rowId) ? selection.filter((id) => id !== rowId) : [...selection, rowId];
  }
  const next = [rowId];
  return sameRows(selection, next) ? selection : next;
}

/**
 * The selection after the grid's rows changed (load, live update, route change): rows that
 * are gone are dropped, and on a non-summary screen an empty selection becomes the last
 * selectable row.
 */
export function selectionAfterRowsChanged(
  selection: readonly string[],
  rowIds: readonly string[],
  isSummaryScreen: boolean,
): readonly string[] {
  const present = new Set(rowIds);
  let next: readonly string[] = selection.filter((id) => present.has(id) && isSelectableRow(id));
  if (next.length === 0 && !isSummaryScreen) {
    const last = [...rowIds].reverse().find(isSelectableRow);
    if (last !== undefined) next = [last];
  }
  return sameRows(selection, next) ? selection : next;
}

/** Select All toggles: every selectable row, or none when all of them are already selected. */
export function selectionAfterSelectAll(selection: readonly string[], rowIds: readonly string[]): readonly string[] {
  const selectable = rowIds.filter(isSelectableRow);
  const chosen = new Set(selection);
  const allSelected = selectable.length > 0 && selectable.every((id) => chosen.has(id));
  const next = allSelected ? [] : selectable;
  return sameRows(selection, next) ? selection : next;
}
