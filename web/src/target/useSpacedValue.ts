// A value that changes at most once per `gapMs`: the first change shows at once, later ones
// within the gap are held and the newest shows when the gap is over (nothing is lost).
// The grids need it because glide-data-grid rebuilds its accessible table (what screen
// readers and the browser tests read) only after 200 ms without a change of
// getCellContent; live rows re-read every ~150 ms never left it that quiet, so the table
// could stay empty for as long as samples kept coming.
import { useEffect, useRef, useState } from 'react';

export function useSpacedValue<T>(value: T, gapMs: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    const wait = last.current + gapMs - performance.now();
    if (wait <= 0) {
      last.current = performance.now();
      setShown(() => value);
      return;
    }
    const timer = setTimeout(() => {
      last.current = performance.now();
      setShown(() => value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, gapMs]);
  return shown;
}
