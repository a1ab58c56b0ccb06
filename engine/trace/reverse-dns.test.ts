import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { limitConcurrency, ReverseDnsCache, systemReverseLookup } from './reverse-dns.js';

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

describe('the system reverse lookup (issue 41 item 12)', () => {
  it("names 127.0.0.1 as /etc/hosts does (the name service's order), not by DNS only", async () => {
    // The first name /etc/hosts gives 127.0.0.1 on this machine ("localhost" on most). Answered
    // from the file (hosts: files dns), so no query leaves the machine. Before, the DNS-only
    // Resolver answered the resolver's own name for it here ("runsc").
    const hosts = readFileSync('/etc/hosts', 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim().split(/\s+/));
    const expected = hosts.find((f) => f[0] === '127.0.0.1')?.[1];
    expect(expected).toBeTruthy();
    expect(await systemReverseLookup()('127.0.0.1')).toBe(expected);
  });

  it('keeps a name that comes after the timeout', async () => {
    let answer: (name: string) => void = () => undefined;
    const cache = new ReverseDnsCache(() => new Promise((r) => { answer = r; }), 10);
    expect(cache.nameOf('10.0.0.9')).toBeNull();
    await new Promise((r) => setTimeout(r, 30));
    expect(cache.nameOf('10.0.0.9')).toBeNull();
    answer('late.example');
    await new Promise((r) => setTimeout(r, 5));
    expect(cache.nameOf('10.0.0.9')).toBe('late.example');
  });

  it('runs at most the limit of lookups at once, the rest in order', async () => {
    const limit = limitConcurrency(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        limit(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 5));
          order.push(n);
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });
});
