// The focus graph (issue 41 item 3): the timeline graphs follow the selected rows. Clicking
// hop 2 shows hop 2's graph, clicking hop 4 then shows hop 4's; graphs the user asked to keep
// (the row menu's "Show timeline graph", stored as Visible_Graphs_{targetId}) stay beside it.
// Before any click the window's automatic selection (the last row) decides nothing: the final
// hop's graph is shown, as before, since rows arrive hop by hop during the first round and the
// automatically selected row may be an early hop. Decisions: docs/target-window-logic.md.
import { HeaderRowHostId } from './constants';
import { visibleGraphHosts } from './visibleGraphs';

export interface FocusGraphInput {
  /** Hops the user pinned (Visible_Graphs), or null when nothing is stored. */
  pinned: readonly number[] | null;
  /** Host ids of the hop rows the target has now. */
  hops: readonly number[];
  /** Host ids of the rows the user selected by clicking (empty when the selection is automatic). */
  focused: readonly number[];
}

/** The pinned hops that exist now. */
export function pinnedGraphHops(pinned: readonly number[] | null, hops: readonly number[]): number[] {
  const wanted = new Set(pinned ?? []);
  return hops.filter((h) => h !== HeaderRowHostId && wanted.has(h));
}

/**
 * The hops with a timeline graph, in hop order: the focused (clicked) rows and the pinned
 * ones; with neither, the final hop.
 */
export function focusGraphHops({ pinned, hops, focused }: FocusGraphInput): number[] {
  const rows = hops.filter((h) => h !== HeaderRowHostId);
  const chosen = focused.filter((h) => rows.includes(h));
  if (chosen.length === 0) return visibleGraphHosts(pinned, rows);
  const shown = new Set([...pinnedGraphHops(pinned, rows), ...chosen]);
  return rows.filter((h) => shown.has(h));
}

/**
 * The row menu's graph item: a kept graph can be hidden; one shown only as the focus (or the
 * default final hop) can be kept when the selection moves on; any other can be shown (kept).
 */
export function graphMenuLabel(shown: boolean, pinned: boolean): string {
  if (pinned) return 'Hide timeline graph';
  return shown ? 'Keep timeline graph' : 'Show timeline graph';
}
