// Enter on a target the account already traces (issue 18: picking a running target from the
// history and pressing Enter silently started a second trace of it): the screen finds that
// target among the rows of All Targets (or of the summary on screen) and offers to open it.
import type { TargetRow } from '../../../../server/contract/targets';

/**
 * A target of the list that the typed text names (its name or address, any case): starting
 * it again would trace it twice, so the screen offers to open the running one instead.
 */
export function tracedTargetFor(text: string, rows: readonly TargetRow[]): TargetRow | null {
  const t = text.trim().toLowerCase();
  if (!t) return null;
  return rows.find((r) => [r.DNSName, r.IP, r.Columns.DNSName, r.Columns.IPAddress].some((v) => !!v && v.trim().toLowerCase() === t)) ?? null;
}
