// "A user refresh from the menu happens at most once per 15 seconds" (spec 1 section 9).
export const UserRefreshIntervalMs = 15_000;

/** Returns a function that says whether an action may run now, remembering the last run. */
export function createThrottle(intervalMs: number, now: () => number = Date.now): () => boolean {
  let last = -Infinity;
  return () => {
    const t = now();
    if (t - last < intervalMs) return false;
    last = t;
    return true;
  };
}
