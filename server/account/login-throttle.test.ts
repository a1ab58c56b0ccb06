import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

describe('LoginThrottle', async () => {
  it('blocks a user and address after the limit and frees them when the window passes', async () => {
    let now = 1_000_000;
    const t = new LoginThrottle({ perUserAndAddress: 3, perAddress: 10, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(await t.retryAfter('Bob', '10.0.0.1')).toBe(0);
      await t.recordFailure('bob', '10.0.0.1');
    }
    expect(await t.retryAfter('BOB', '10.0.0.1')).toBe(60);
    expect(await t.retryAfter('bob', '10.0.0.2')).toBe(0);
    expect(await t.retryAfter('alice', '10.0.0.1')).toBe(0);
    now += 60_001;
    expect(await t.retryAfter('bob', '10.0.0.1')).toBe(0);
  });

  it('limits one address across user names', async () => {
    const t = new LoginThrottle({ perUserAndAddress: 100, perAddress: 4, windowMs: 60_000 }, () => 5);
    for (let i = 0; i < 4; i++) await t.recordFailure(`user${i}`, '10.0.0.9');
    expect(await t.retryAfter('someone-else', '10.0.0.9')).toBeGreaterThan(0);
  });

  it('forgets a user and address after a success', async () => {
    const t = new LoginThrottle({ perUserAndAddress: 2, perAddress: 100, windowMs: 60_000 }, () => 5);
    await t.recordFailure('a', 'x');
    await t.recordSuccess('a', 'x');
    await t.recordFailure('a', 'x');
    expect(await t.retryAfter('a', 'x')).toBe(0);
  });
});
