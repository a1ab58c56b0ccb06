// Subscribes the console-wide handlers of hubEvents.ts while someone is signed in (the hub
// refuses guests; starting it on the login page would only retry). Renders nothing.
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { refreshCurrentUser } from '../state/session';
import { store } from '../state/store';
import { currentUserAtom } from '../state/user';
import { mustReplacePassword } from '../components/changePasswordRules';
import { subscribe } from './connection';
import { HubEventActions, HubPushedEvents } from './hubEvents';

export function HubEventHandlers() {
  const user = useAtomValue(currentUserAtom);
  // The server refuses the connection until a temporary password is replaced (issue 26).
  const wanted = user !== null && !mustReplacePassword(user);
  useEffect(() => {
    if (!wanted) return;
    const offs = HubPushedEvents.map((name) => {
      const action = HubEventActions[name];
      return subscribe(name, () => {
        if (action.kind === 'bump') for (const a of action.atoms) store.set(a, (v) => v + 1);
        else if (action.kind === 'refreshUser') void refreshCurrentUser();
      });
    });
    return () => offs.forEach((off) => off());
  }, [wanted]);
  return null;
}
