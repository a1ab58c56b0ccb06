// Keeps a signed-in console on the live connection, so that UserUpdated (a role change) and
// a dropped or restored connection re-read the current user on every page, not only where a
// screen happens to use the hub; signing out ends the connection. A temporary password
// opens Change Password by itself: it must be replaced at sign-in (issue 26, item 5).
import { ensureStarted, stopHub } from '../hub/connection';
import { store } from './store';
import { mustReplacePassword } from '../components/changePasswordRules';
import { changePasswordOpenAtom } from './dialogs';
import { currentUserAtom } from './user';

let following = false;

export function followCurrentUser(): void {
  if (following) return;
  following = true;
  const apply = () => {
    const user = store.get(currentUserAtom);
    const held = mustReplacePassword(user);
    if (held) store.set(changePasswordOpenAtom, true);
    // The server refuses the connection until a temporary password is replaced; LiveShare
    // visitors watch their link's targets live too.
    if ((user?.IsUser && !held) || user?.IsLiveshare) void ensureStarted().catch(() => undefined);
    else void stopHub();
  };
  store.sub(currentUserAtom, apply);
  apply();
}
