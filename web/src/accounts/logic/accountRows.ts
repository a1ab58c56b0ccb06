// Pure logic of the staff Accounts page: filtering, the shown texts, and the entitlement
// form's parsing (unit-tested beside).
import { EntitlementMax, type StaffAccount } from '../../../../server/contract/accounts';

/** Case-insensitive substring on the name, plan or id. */
export function filterAccounts(accounts: StaffAccount[], filter: string): StaffAccount[] {
  const f = filter.trim().toLowerCase();
  if (!f) return accounts;
  return accounts.filter((a) => a.Name.toLowerCase().includes(f) || a.Plan.toLowerCase().includes(f) || String(a.Id) === f);
}

export const statusText = (a: StaffAccount): string => (a.IsProvider ? 'Provider' : a.Suspended ? 'Suspended' : 'Active');

/** "3 of 10" (a customer granted the Local Machine: "3 of 10, Local Machine"); agents without a limit: "3 (no limit)". */
export const tracesText = (a: StaffAccount): string => `${a.ActiveTraces} of ${a.EntitledTraces}${a.LocalMachine && !a.IsProvider ? ', Local Machine' : ''}`;
export const agentsText = (a: StaffAccount): string => (a.EntitledAgents === null ? `${a.Agents} (no limit)` : `${a.Agents} of ${a.EntitledAgents}`);

/**
 * An entitlement field: a whole number from 0 to EntitlementMax; blank means "no limit" where
 * that is allowed (agents). Returns the value or a problem text.
 */
export function parseEntitlement(text: string, blankMeansNoLimit: boolean): { value: number | null } | { problem: string } {
  const t = text.trim();
  if (!t) return blankMeansNoLimit ? { value: null } : { problem: 'Enter a number.' };
  if (!/^\d+$/.test(t)) return { problem: 'Enter a whole number.' };
  const n = Number(t);
  if (n > EntitlementMax) return { problem: `At most ${EntitlementMax}.` };
  return { value: n };
}
