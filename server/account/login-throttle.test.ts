import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.js';

describe('LoginThrottle', () => {
  it('blocks a user and address after the limit and frees them when the window passes', () => {
    let now = 1_000_000;
    const t = new LoginThrottle({ perUserAndAddress: 3, perAddress: 10, windowMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) {
      expect(t.retryAfter('Bob', '10.0.0.1')).toBe(0);
      t.recordFailure('bob', '10.0.0.1');
    }
    expect(t.retryAfter('BOB', '10.0.0.1')).toBe(60);
    expect(t.retryAfter('bob', '10.0.0.2')).toBe(0);
    expect(t.retryAfter('alice', '10.0.0.1')).toBe(0);
    now += 60_001;
    expect(t.retryAfter('bob', '10.0.0.1')).toBe(0);
  });

  it('limits one address across user names', () => {
    const t = new LoginThrottle({ perUserAndAddress: 100, perAddress: 4, windowMs: 60_000 }, () => 5);
    for (let i = 0; i < 4; i++) t.recordFailure(`user${i}`, '10.0.0.9');
    expect(t.retryAfter('someone-else', '10.0.0.9')).toBeGreaterThan(0);
  });

  it('forgets a user and address after a success', () => {
    const t = new LoginThrottle({ perUserAndAddress: 2, perAddress: 100, windowMs: 60_000 }, () => 5);
    t.recordFailure('a', 'x');
    t.recordSuccess('a', 'x');
    t.recordFailure('a', 'x');
    expect(t.retryAfter('a', 'x')).toBe(0);
  });
});
