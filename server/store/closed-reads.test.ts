import { describe, expect, it } from 'vitest';
import { ClosedReads, closedReads } from './closed-reads.js';

describe('ClosedReads', () => {
  it('answers what was kept, per session and key', () => {
    const c = new ClosedReads(100);
    c.set(1, 'a', 'one-a', 10, c.generation);
    c.set(2, 'a', 'two-a', 10, c.generation);
    expect(c.get(1, 'a')).toBe('one-a');
    expect(c.get(2, 'a')).toBe('two-a');
    expect(c.get(1, 'b')).toBeUndefined();
  });

  it('drops the least recently used entries once the bytes exceed the budget', () => {
    const c = new ClosedReads(100);
    c.set(1, 'a', 'a', 40, c.generation);
    c.set(1, 'b', 'b', 40, c.generation);
    c.get(1, 'a'); // a is now more recent than b
    c.set(1, 'c', 'c', 40, c.generation);
    expect(c.get(1, 'b')).toBeUndefined();
    expect(c.get(1, 'a')).toBe('a');
    expect(c.get(1, 'c')).toBe('c');
    expect(c.heldBytes).toBe(80);
  });

  it('does not keep a value larger than half the budget', () => {
    const c = new ClosedReads(100);
    c.set(1, 'big', 'x', 51, c.generation);
    expect(c.get(1, 'big')).toBeUndefined();
    expect(c.heldBytes).toBe(0);
  });

  it('replaces an entry of the same key without counting its bytes twice', () => {
    const c = new ClosedReads(100);
    c.set(1, 'a', 'old', 30, c.generation);
    c.set(1, 'a', 'new', 20, c.generation);
    expect(c.get(1, 'a')).toBe('new');
    expect(c.heldBytes).toBe(20);
  });

  it('forgets the deleted sessions only', () => {
    const c = new ClosedReads(100);
    c.set(1, 'a', 'one', 10, c.generation);
    c.set(2, 'a', 'two', 10, c.generation);
    c.forget([1]);
    expect(c.get(1, 'a')).toBeUndefined();
    expect(c.get(2, 'a')).toBe('two');
    expect(c.heldBytes).toBe(10);
  });

  it('does not keep a value read across an invalidation', () => {
    const c = new ClosedReads(100);
    const started = c.generation; // a read starts
    c.forget([3]); // rows are deleted meanwhile
    c.set(1, 'a', 'read before the delete', 10, started);
    expect(c.get(1, 'a')).toBeUndefined();
    const again = c.generation;
    c.clear();
    c.set(1, 'a', 'read before the expiry', 10, again);
    expect(c.size).toBe(0);
  });

  it('keeps one cache per store', () => {
    const a = {};
    const b = {};
    expect(closedReads(a)).toBe(closedReads(a));
    expect(closedReads(a)).not.toBe(closedReads(b));
  });
});
