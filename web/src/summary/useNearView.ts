// Whether an element is in its scroll container's view or within one view height of it
// (IntersectionObserver): the summary's timeline graphs draw, read their data and comments
// and follow the hub only then. A summary of 100 targets shows a few graphs at a time; all
// 100 plotting and asking for data at every batch were most of the page's work live and what
// its first draw waited for.
import { useEffect, useState, type RefObject } from 'react';

/** How far beyond the view, as a share of the container's height, counts as near. */
export const NearViewMargin = '100%';

export function useNearView(target: RefObject<Element | null>, root: Element | null): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = target.current;
    if (!el || !root) return;
    const io = new IntersectionObserver((entries) => setNear(entries[entries.length - 1].isIntersecting), {
      root,
      rootMargin: `${NearViewMargin} 0px`,
    });
    io.observe(el);
    return () => io.disconnect();
  }, [target, root]);
  return near;
}
