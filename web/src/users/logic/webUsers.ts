// What the web users grid shows (spec 1 "Web users page"): root users hidden; the search is
// a case-insensitive substring of the e-mail address, and when that finds nothing a
// case-sensitive one (the server's filter does the same; this keeps the grid right while
// an answer for an older search text is still on its way).
import type { WebUser } from '../../../../server/contract/users';

export function visibleUsers(users: readonly WebUser[], search: string): WebUser[] {
  const shown = users.filter((u) => !u.IsRoot);
  if (!search) return shown;
  const lower = search.toLowerCase();
  const found = shown.filter((u) => u.EmailAddress.toLowerCase().includes(lower));
  return found.length ? found : shown.filter((u) => u.EmailAddress.includes(search));
}

/** A new web user as POST /api/user takes it: the name is the e-mail address. */
export const newWebUser = (email: string, roles: string[]): WebUser => ({ Id: 0, Name: '', EmailAddress: email.trim(), Roles: roles, IsRoot: false });

export const UsersActionsWidth = 350;
