import { describe, expect, it } from 'vitest';
import { selectionAfterClick, selectionAfterRowsChanged, selectionAfterSelectAll } from './rowSelection';

const rows = ['7_h_0', '7_h_1', '7_h_2', '7_h_3'];

describe('selectionAfterClick', () => {
  it('a plain click selects one row', () => {
    expect(selectionAfterClick(['7_h_1', '7_h_2'], '7_h_3')).toEqual(['7_h_3']);
  });
  it('alt, shift or meta toggles the row', () => {
    expect(selectionAfterClick(['7_h_1'], '7_h_2', { altKey: true })).toEqual(['7_h_1', '7_h_2']);
    expect(selectionAfterClick(['7_h_1', '7_h_2'], '7_h_1', { shiftKey: true })).toEqual(['7_h_2']);
    expect(selectionAfterClick([], '7_h_3', { metaKey: true })).toEqual(['7_h_3']);
  });
  it('header rows cannot be selected', () => {
    const selection = ['7_h_1'];
    expect(selectionAfterClick(selection, '7_h_0')).toBe(selection);
    expect(selectionAfterClick(selection, '7_h_0', { metaKey: true })).toBe(selection);
  });
  it('returns the same array when nothing changes', () => {
    const selection = ['7_h_2'];
    expect(selectionAfterClick(selection, '7_h_2')).toBe(selection);
  });
});

describe('selectionAfterRowsChanged', () => {
  it('auto-selects the last row on a non-summary screen when none is selected', () => {
    expect(selectionAfterRowsChanged([], rows, false)).toEqual(['7_h_3']);
    expect(selectionAfterRowsChanged(['9_h_1'], rows, false)).toEqual(['7_h_3']);
  });
  it('does not auto-select on a summary screen', () => {
    expect(selectionAfterRowsChanged([], rows, true)).toEqual([]);
  });
  it('drops rows that are gone and keeps the rest', () => {
    expect(selectionAfterRowsChanged(['7_h_1', '7_h_9'], rows, true)).toEqual(['7_h_1']);
    const kept = ['7_h_2'];
    expect(selectionAfterRowsChanged(kept, rows, false)).toBe(kept);
  });
  it('never auto-selects a header row', () => {
    expect(selectionAfterRowsChanged([], ['7_h_0'], false)).toEqual([]);
  });
});

describe('selectionAfterSelectAll', () => {
  it('selects every selectable row, then none', () => {
    const all = selectionAfterSelectAll(['7_h_1'], rows);
    expect(all).toEqual(['7_h_1', '7_h_2', '7_h_3']);
    expect(selectionAfterSelectAll(all, rows)).toEqual([]);
  });
});
