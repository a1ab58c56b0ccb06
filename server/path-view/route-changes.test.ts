import { describe, expect, it } from 'vitest';
import { hopRouteChanges, type HopMinute } from './route-changes.js';

const M = 60_000;
const seq = (...sets: string[][]): HopMinute[] => sets.map((addresses, i) => ({ minute: i * M, addresses: [...addresses].sort() }));

describe('route changes of a hop', () => {
  it('marks nothing while the address set stays the same', () => {
    expect(hopRouteChanges(seq(['a'], ['a'], ['a']))).toEqual([]);
  });

  it('marks a change at the first minute of the new set, old -> new', () => {
    expect(hopRouteChanges(seq(['a'], ['a'], ['b'], ['b']))).toEqual([{ minute: 2 * M, old: ['a'], new: ['b'] }]);
  });

  it('marks a change inside a minute (both addresses seen) at that minute, old -> new', () => {
    expect(hopRouteChanges(seq(['a'], ['a'], ['a', 'b'], ['b'], ['b']))).toEqual([{ minute: 2 * M, old: ['a'], new: ['b'] }]);
  });

  it('does not mark a load-balanced hop whose one minute reached one branch only', () => {
    expect(hopRouteChanges(seq(['a', 'b'], ['a', 'b'], ['a'], ['a', 'b']))).toEqual([]);
  });

  it('ignores minutes in which the hop did not answer', () => {
    expect(hopRouteChanges(seq(['a'], [], ['a'], []))).toEqual([]);
  });

  it('marks a new branch appearing and staying (ECMP added)', () => {
    expect(hopRouteChanges(seq(['a'], ['a'], ['a', 'b'], ['a', 'b']))).toEqual([{ minute: 2 * M, old: ['a'], new: ['a', 'b'] }]);
  });

  it('marks a change and the change back', () => {
    expect(hopRouteChanges(seq(['a'], ['b'], ['b'], ['a']))).toEqual([
      { minute: 1 * M, old: ['a'], new: ['b'] },
      { minute: 3 * M, old: ['b'], new: ['a'] },
    ]);
  });
});

describe('route changes of a hop, minutes counted', () => {
  it('reads an entry of several equal minutes as that many minutes', () => {
    // Two minutes of {a,b} between a and b is no transition minute: a change to {a,b}, then to b.
    const m = [
      { minute: 0, addresses: ['a'], count: 3 },
      { minute: 3 * M, addresses: ['a', 'b'], count: 2 },
      { minute: 5 * M, addresses: ['b'], count: 3 },
    ];
    expect(hopRouteChanges(m)).toEqual([
      { minute: 3 * M, old: ['a'], new: ['a', 'b'] },
      { minute: 5 * M, old: ['a', 'b'], new: ['b'] },
    ]);
  });
});
