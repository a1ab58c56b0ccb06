// The summary screen's stored preferences: key names and texts are the users' data.
import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { summaryColumnsAtomOf, summarySortAtomOf, summarySplitterAtomOf } from './prefs';

const memory = (stored: Record<string, string>) => {
  const map = new Map(Object.entries(stored));
  const mem = { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
  return { mem, store: createStore(), storage: () => mem };
};

describe('summary screen preferences', () => {
  it('keeps Summary-Columns apart from Target-Columns', () => {
    const { mem, store, storage } = memory({ 'Target-Columns': '[{"Name":"Hop","Width":40}]', 'Summary-Columns': '[{"Name":"DNSName","Width":250}]' });
    const columns = summaryColumnsAtomOf(storage);
    expect(store.get(columns)).toEqual([{ Name: 'DNSName', Width: 250 }]);
    store.set(columns, [{ Name: 'Avg', Width: 70 }]);
    expect(mem.map.get('Summary-Columns')).toBe('[{"Name":"Avg","Width":70}]');
    expect(mem.map.get('Target-Columns')).toBe('[{"Name":"Hop","Width":40}]');
  });
  it('reads Summary-Pane-Splitter-Height with the 0.7 default and stores the fraction', () => {
    const { mem, store, storage } = memory({});
    const splitter = summarySplitterAtomOf(storage);
    expect(store.get(splitter)).toBe(0.7);
    store.set(splitter, 0.4);
    expect(mem.map.get('Summary-Pane-Splitter-Height')).toBe('0.4');
  });
  it('stores default_summary_sort_order as JSON, DNSName ascending by default', () => {
    const { mem, store, storage } = memory({});
    const sort = summarySortAtomOf(storage);
    expect(store.get(sort)).toEqual({ Column: 'DNSName', Ascending: true });
    store.set(sort, { Column: 'Avg', Ascending: false });
    expect(mem.map.get('default_summary_sort_order')).toBe('{"Column":"Avg","Ascending":false}');
  });
});
