import { describe, expect, it } from 'vitest';
import { ReverseDnsCache } from './reverse-dns.js';

describe('ReverseDnsCache', () => {
  it('answers at once, looks up in the background once, and caches', async () => {
    let calls = 0;
    const cache = new ReverseDnsCache(async (a) => { calls++; return `host-${a}`; });
    expect(cache.nameOf('10.0.0.1')).toBeNull();
    expect(cache.nameOf('10.0.0.1')).toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    expect(cache.nameOf('10.0.0.1')).toBe('host-10.0.0.1');
    expect(calls).toBe(1);
  });

  it('gives up after its timeout and on errors', async () => {
    const slow = new ReverseDnsCache(() => new Promise(() => {}), 20);
    expect(slow.nameOf('10.0.0.2')).toBeNull();
    await new Promise((r) => setTimeout(r, 40));
    expect(slow.nameOf('10.0.0.2')).toBeNull();
    const failing = new ReverseDnsCache(async () => { throw new Error('ENOTFOUND'); });
    expect(failing.nameOf('10.0.0.3')).toBeNull();
    await new Promise((r) => setTimeout(r, 5));
    expect(failing.nameOf('10.0.0.3')).toBeNull();
  });
});
