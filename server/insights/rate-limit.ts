// A per-key sliding window: at most `limit` takes per `windowMs`. Small and in memory: it
// guards the feedback call of one appliance against a loop or a script, not a botnet.
export class SlidingWindowLimit {
  readonly #times = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Takes one slot for `key` at `now`: 0 when allowed, else ms until a slot frees up. */
  take(key: string, now: number): number {
    const kept = (this.#times.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (kept.length >= this.limit) {
      this.#times.set(key, kept);
      return kept[0] + this.windowMs - now;
    }
    kept.push(now);
    this.#times.set(key, kept);
    if (this.#times.size > 10_000) this.#times.clear();
    return 0;
  }
}
