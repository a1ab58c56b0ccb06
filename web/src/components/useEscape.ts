// Closes a popup (dropdown, list) on Escape wherever the keyboard focus is: on its toggle
// button, in the list, or nowhere in particular after a mouse click (issue 15: Escape only
// worked while the text field had focus).
import { useEffect } from 'react';

export function useEscape(active: boolean, onEscape: () => void): void {
  useEffect(() => {
    if (!active) return;
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onEscape();
    };
    window.addEventListener('keydown', key);
    return () => window.removeEventListener('keydown', key);
  }, [active, onEscape]);
}
