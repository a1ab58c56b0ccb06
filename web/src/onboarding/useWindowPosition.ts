// The onboarding window's place on screen: dragged by its title bar, resized by its corner
// (CSS resize, read back by a ResizeObserver), and remembered in the browser under
// CloudConnect-OnboardingPosition (left, top, height, width) after each drag or resize. It is
// shown wholly inside the browser's viewport, also after the viewport shrinks (fitInViewport).
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { OnboardingPositionKey, clampPosition, defaultPosition, dragged, fitInViewport, parsePosition, serializePosition, type WindowPosition } from './logic/position';

const viewport = () => ({ width: window.innerWidth, height: window.innerHeight });
/** Where the page's content starts: the sidebar's right edge. */
const contentLeft = () => document.querySelector('.sidebar')?.getBoundingClientRect().right ?? 0;

function initial(): WindowPosition {
  const stored = parsePosition(localStorage.getItem(OnboardingPositionKey));
  return clampPosition(stored ?? defaultPosition(viewport(), contentLeft()), viewport());
}

/** The viewport's size, followed as the browser window is resized. */
function useViewport() {
  const [size, setSize] = useState(viewport);
  useEffect(() => {
    const follow = () => setSize(viewport());
    window.addEventListener('resize', follow);
    return () => window.removeEventListener('resize', follow);
  }, []);
  return size;
}

export function useWindowPosition(shown: boolean) {
  const [position, setPosition] = useState<WindowPosition>(initial);
  const latest = useRef(position);
  const box = useRef<HTMLDivElement | null>(null);
  const size = useViewport();
  const shownAt = fitInViewport(position, size);

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
      // From where it is shown (a shrunk viewport may show it elsewhere than remembered).
      const start = fitInViewport(latest.current, viewport());
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
      // A size the viewport forced on it is not the user's resize.
      const fitted = fitInViewport(p, viewport());
      if (Math.abs(width - fitted.width) <= 1 && Math.abs(height - fitted.height) <= 1) return;
      if (Math.abs(width - p.width) > 1 || Math.abs(height - p.height) > 1) keep({ ...p, width, height });
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [shown, keep]);

  return { position: shownAt, startDrag, box };
}
