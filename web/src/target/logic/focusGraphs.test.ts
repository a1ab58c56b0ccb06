import { describe, expect, it } from 'vitest';
import { focusGraphHops, graphMenuLabel, pinnedGraphHops } from './focusGraphs';

const hops = [1, 2, 3, 4, 5];

describe('focusGraphHops', () => {
  it('shows the clicked row\'s graph, and follows the next click', () => {
    expect(focusGraphHops({ pinned: null, hops, focused: [2] })).toEqual([2]);
    expect(focusGraphHops({ pinned: null, hops, focused: [4] })).toEqual([4]);
  });
  it('shows the final hop before any click', () => {
    expect(focusGraphHops({ pinned: null, hops, focused: [] })).toEqual([5]);
    expect(focusGraphHops({ pinned: [], hops, focused: [] })).toEqual([5]);
    expect(focusGraphHops({ pinned: null, hops: [], focused: [] })).toEqual([]);
  });
  it('keeps pinned graphs beside the focused one, in hop order', () => {
    expect(focusGraphHops({ pinned: [5], hops, focused: [2] })).toEqual([2, 5]);
    expect(focusGraphHops({ pinned: [1, 5], hops, focused: [5] })).toEqual([1, 5]);
    expect(focusGraphHops({ pinned: [3], hops, focused: [] })).toEqual([3]);
  });
  it('graphs every row of a multi-selection, and ignores rows that are gone and the header row', () => {
    expect(focusGraphHops({ pinned: null, hops, focused: [4, 2] })).toEqual([2, 4]);
    expect(focusGraphHops({ pinned: [9], hops, focused: [0, 7] })).toEqual([5]);
  });
});

describe('pinnedGraphHops', () => {
  it('is the stored hops that exist', () => {
    expect(pinnedGraphHops([2, 9], hops)).toEqual([2]);
    expect(pinnedGraphHops(null, hops)).toEqual([]);
  });
});

describe('graphMenuLabel', () => {
  it('hides a kept graph, keeps a focus graph, shows any other', () => {
    expect(graphMenuLabel(true, true)).toBe('Hide timeline graph');
    expect(graphMenuLabel(true, false)).toBe('Keep timeline graph');
    expect(graphMenuLabel(false, false)).toBe('Show timeline graph');
  });
});
