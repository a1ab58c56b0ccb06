// Closes a popup (dropdown, chooser, menu) when the user presses the mouse outside it.
import { useEffect, type RefObject } from 'react';

/**
 * While `active`, a mousedown outside `ref`'s element calls `onAway`. With `capture`, the
 * listener runs before the target's own handlers (menus that must close even when the click
 * lands on something that stops propagation).
 */
export function useClickAway(ref: RefObject<HTMLElement | null>, active: boolean, onAway: () => void, capture = false): void {
  useEffect(() => {
    if (!active) return;
    const away = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onAway();
    };
    window.addEventListener('mousedown', away, capture);
    return () => window.removeEventListener('mousedown', away, capture);
  }, [ref, active, onAway, capture]);
}
