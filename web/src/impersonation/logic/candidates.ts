// Pure logic of the impersonate screen.
import type { ImpersonationCandidate } from '../../../../server/contract/account';

/** Case-insensitive match on the e-mail address or the name; everyone for an empty search. */
export function matchingCandidates(list: ImpersonationCandidate[], search: string): ImpersonationCandidate[] {
  const wanted = search.trim().toLowerCase();
  if (!wanted) return list;
  return list.filter((u) => u.EmailAddress.toLowerCase().includes(wanted) || u.Name.toLowerCase().includes(wanted));
}

/** "Target Management, Sessions..." from storage strings; "No permissions" when empty. */
export function permissionsText(roles: string[]): string {
  if (!roles.length) return 'No permissions';
  return roles.map((r) => r.replace(/([a-z])([A-Z])/g, '$1 $2')).join(', ');
}
