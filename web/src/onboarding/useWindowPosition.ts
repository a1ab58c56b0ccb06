// The onboarding window's place on screen: dragged by its title bar, resized by its corner
// (CSS resize, read back by a ResizeObserver), and remembered in the browser under
// CloudConnect-OnboardingPosition (left, top, height, width) after each drag or resize.
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { OnboardingPositionKey, clampPosition, defaultPosition, dragged, parsePosition, serializePosition, type WindowPosition } from './logic/position';

const viewport = () => ({ width: window.innerWidth, height: window.innerHeight });

function initial(): WindowPosition {
  const stored = parsePosition(localStorage.getItem(OnboardingPositionKey));
  return clampPosition(stored ?? defaultPosition(viewport()), viewport());
}

export function useWindowPosition(shown: boolean) {
  const [position, setPosition] = useState<WindowPosition>(initial);
  const latest = useRef(position);
  const box = useRef<HTMLDivElement | null>(null);

  const keep = useCallback((p: WindowPosition) => {
    latest.current = p;
    setPosition(p);
    localStorage.setItem(OnboardingPositionKey, serializePosition(p));
  }, []);

  /** Title bar pointer down: follow the pointer until it is released. */
  const startDrag = useCallback(
    (e: ReactPointerEvent<HTMLElement>) => {
      if (e.button !== 0 || (e.target as HTMLElement).closest('button')) return;
      e.preventDefault();
      const start = latest.current;
      const x0 = e.clientX;
      const y0 = e.clientY;
      const move = (ev: PointerEvent) => {
        latest.current = dragged(start, ev.clientX - x0, ev.clientY - y0, viewport());
        setPosition(latest.current);
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
        keep(latest.current);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    },
    [keep],
  );

  // A resize by the corner: keep the new size (only when it really changed).
  useEffect(() => {
    const el = box.current;
    if (!shown || !el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const width = Math.round(el.offsetWidth);
      const height = Math.round(el.offsetHeight);
      const p = latest.current;
      if (Math.abs(width - p.width) > 1 || Math.abs(height - p.height) > 1) keep({ ...p, width, height });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [shown, keep]);

  return { position, startDrag, box };
}
