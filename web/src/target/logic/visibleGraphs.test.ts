import { describe, expect, it } from 'vitest';
import { parseVisibleGraphs, serializeVisibleGraphs, toggleVisibleGraph, visibleGraphHosts } from './visibleGraphs';
import { visibleGraphsStorageKey } from './constants';

describe('visible graphs', () => {
  it('are stored under Visible_Graphs_{targetId}', () => {
    expect(visibleGraphsStorageKey('42')).toBe('Visible_Graphs_42');
  });
  it('read back what was stored, ignoring junk', () => {
    expect(parseVisibleGraphs(serializeVisibleGraphs([3, 1, 3]))).toEqual([3, 1]);
    expect(parseVisibleGraphs('[2,"x",0,1.5,4]')).toEqual([2, 4]);
    for (const raw of [null, '', '{', '{"a":1}']) expect(parseVisibleGraphs(raw)).toBeNull();
  });
  it('default to the final hop', () => {
    expect(visibleGraphHosts(null, [0, 1, 2, 3])).toEqual([3]);
    expect(visibleGraphHosts([9], [0, 1, 2])).toEqual([2]);
    expect(visibleGraphHosts(null, [0])).toEqual([]);
  });
  it('show the stored hops that exist, in hop order', () => {
    expect(visibleGraphHosts([3, 1, 9], [0, 1, 2, 3])).toEqual([1, 3]);
  });
  it('toggle one hop', () => {
    expect(toggleVisibleGraph([3], 1, true)).toEqual([1, 3]);
    expect(toggleVisibleGraph([1, 3], 3, false)).toEqual([1]);
    expect(toggleVisibleGraph([1], 1, true)).toEqual([1]);
  });
});
