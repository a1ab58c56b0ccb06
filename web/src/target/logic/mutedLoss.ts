// Which hops' loss the target window shows muted (issue 41 item 1; docs/target-window-logic.md
// "Loss that does not carry on"): the grid's hop rows read as a path by the rule Insights uses
// (server/contract/hop-loss.ts), so the grid, the graphs and Insights never disagree.
import { lossNotOnPath, type LossNotOnPath } from '../../../../server/contract/hop-loss';
import type { TargetRow } from '../../../../server/contract/targets';
import { isHeaderRow } from './rowId';

/** Row id -> why its loss is not loss on the path, for the hop rows of one target. */
export function mutedLossRows(rows: readonly TargetRow[]): Map<string, LossNotOnPath> {
  const header = rows.find((r) => isHeaderRow(r.UniqueID));
  const hops = rows
    .filter((r) => !isHeaderRow(r.UniqueID))
    .map((r) => {
      // A hop that sent nothing in the window has no loss to judge (NaN), not 0%.
      const lossPercent = r.TotalCount > 0 && typeof r.PL === 'number' ? r.PL : NaN;
      return { hop: r.HopNum, lossPercent, answered: r.TotalCount > 0 && (r.PL ?? 0) < 100, id: r.UniqueID, ip: r.IP };
    });
  const target = header ? hops.find((h) => h.answered && h.ip === header.IP) : undefined;
  const byHop = lossNotOnPath(hops, target ? target.hop : null);
  const out = new Map<string, LossNotOnPath>();
  for (const h of hops) {
    const why = byHop.get(h.hop);
    if (why) out.set(h.id, why);
  }
  return out;
}
