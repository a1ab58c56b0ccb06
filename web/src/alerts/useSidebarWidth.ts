// The sidebar's width, dragged by its left edge (350 px, 10 to 650; spec 3 section 9).
import { useCallback, useState, type PointerEvent } from 'react';
import { clampWidth, SidebarWidth } from './logic/formData';

export interface SidebarSize {
  width: number;
  startDrag: (e: PointerEvent<HTMLElement>) => void;
}

/** Held by the screen that shows the sidebar: it keeps the sidebar's width free beside its grid. */
export function useSidebarWidth(): SidebarSize {
  const [width, setWidth] = useState<number>(SidebarWidth.initial);
  const startDrag = useCallback(
    (e: PointerEvent<HTMLElement>) => {
      const startX = e.clientX;
      const startWidth = width;
      const move = (m: globalThis.PointerEvent) => setWidth(clampWidth(startWidth + (startX - m.clientX)));
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
      e.preventDefault();
    },
    [width],
  );
  return { width, startDrag };
}
