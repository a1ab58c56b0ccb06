import { describe, expect, it } from 'vitest';
import { UserRefreshIntervalMs, createThrottle } from './throttle';

describe('user refresh throttle', () => {
  it('allows one refresh per 15 seconds', () => {
    let now = 1_000_000;
    const may = createThrottle(UserRefreshIntervalMs, () => now);
    expect(may()).toBe(true);
    now += 14_999;
    expect(may()).toBe(false);
    now += 1;
    expect(may()).toBe(true);
    expect(may()).toBe(false);
  });
});
