// Failed sign-ins are limited per user name and address, and per address overall, so a
// password cannot be guessed at speed. Kept in memory: a restart forgets, which is fine
// for a single appliance process.

export interface ThrottleLimits {
  perUserAndAddress: number;
  perAddress: number;
  windowMs: number;
}

export const DefaultThrottleLimits: ThrottleLimits = { perUserAndAddress: 5, perAddress: 20, windowMs: 15 * 60_000 };

export class LoginThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limits: ThrottleLimits = DefaultThrottleLimits,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.limits.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** Seconds to wait before another attempt is allowed, or 0. */
  retryAfter(username: string, address: string): number {
    const checks: [string, number][] = [
      [`u:${username.toLowerCase()}|${address}`, this.limits.perUserAndAddress],
      [`a:${address}`, this.limits.perAddress],
    ];
    let wait = 0;
    for (const [key, limit] of checks) {
      const list = this.recent(key);
      if (list.length >= limit) {
        const freeAt = list[list.length - limit] + this.limits.windowMs;
        wait = Math.max(wait, Math.ceil((freeAt - this.now()) / 1000));
      }
    }
    return wait;
  }

  recordFailure(username: string, address: string): void {
    const t = this.now();
    for (const key of [`u:${username.toLowerCase()}|${address}`, `a:${address}`]) {
      this.recent(key);
      this.failures.set(key, [...(this.failures.get(key) ?? []), t]);
    }
  }

  recordSuccess(username: string, address: string): void {
    this.failures.delete(`u:${username.toLowerCase()}|${address}`);
  }
}
