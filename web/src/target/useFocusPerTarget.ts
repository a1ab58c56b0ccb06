// Keeps the Focus picker's choice per target for the browser session (logic/focusMemory):
// restores it when the target window opens a target, and stores every new choice.
// Call it after the graph time state's reset effect, so the restored focus lands on the
// reset state instead of being wiped by it.
import { useCallback, useEffect, type Dispatch } from 'react';
import { focusStorageKey, storedFocusChoice } from './logic/focusMemory';
import type { GraphTimeAction } from './logic/graphTimeState';

/** Returns the Focus picker's onFocus: dispatches the choice and remembers it for the target. */
export function useFocusPerTarget(targetId: string | undefined, dispatch: Dispatch<GraphTimeAction>): (text: string) => void {
  useEffect(() => {
    if (!targetId) return;
    const text = storedFocusChoice(readSession(focusStorageKey(targetId)));
    if (text !== null) dispatch({ type: 'pickFocus', text });
  }, [targetId, dispatch]);
  return useCallback(
    (text: string) => {
      dispatch({ type: 'pickFocus', text });
      if (targetId) writeSession(focusStorageKey(targetId), text);
    },
    [targetId, dispatch],
  );
}

// Storage can be off (privacy modes): the focus then simply is not remembered.
function readSession(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}
function writeSession(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    /* not remembered */
  }
}
