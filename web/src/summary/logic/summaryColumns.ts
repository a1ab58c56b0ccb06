// The summary grid's columns (spec 2 "Trace grid (also the summary grid)", section 6): the
// server's Summary defs; the Agent column exists only in multi-agent mode, where it is shown
// by default (a summary mixes targets of several agents). The Hop column is left out: the
// server hides it in the summary grid but marks it as one the user cannot hide, so a stored
// Summary-Columns list (the shown columns) would bring it back; "Hops" (RouteLength) says
// the same of a target.
import type { ColumnDef } from '../../../../server/contract/targets';

/** The defs as the summary screen offers them. */
export function summaryColumnDefs(defs: readonly ColumnDef[], multiAgent: boolean): ColumnDef[] {
  return defs.filter((d) => d.Name !== 'Hop' && (multiAgent || d.Name !== 'Agent')).map((d) => (d.Name === 'Agent' ? { ...d, Visible: true } : d));
}
