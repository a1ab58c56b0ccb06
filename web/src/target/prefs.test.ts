// The preferences users saved before the window kept them in atoms must read back, and the
// atoms must write the same texts (key names and formats are the users' data).
import { createStore } from 'jotai';
import { describe, expect, it } from 'vitest';
import { targetColumnsAtomOf, targetSplitterAtomOf, visibleGraphsAtomOf } from './prefs';

class MemoryStorage {
  map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

const setup = (stored: Record<string, string>) => {
  const mem = new MemoryStorage();
  for (const [k, v] of Object.entries(stored)) mem.setItem(k, v);
  return { mem, store: createStore(), storage: () => mem };
};

describe('target window preferences', () => {
  it('reads and writes Target-Columns as JSON [{Name, Width}]', () => {
    const { mem, store, storage } = setup({ 'Target-Columns': '[{"Name":"Hop","Width":40},{"Name":"Graph","Width":300}]' });
    const columns = targetColumnsAtomOf(storage);
    expect(store.get(columns)).toEqual([{ Name: 'Hop', Width: 40 }, { Name: 'Graph', Width: 300 }]);
    store.set(columns, [{ Name: 'Avg', Width: 60 }]);
    expect(mem.getItem('Target-Columns')).toBe('[{"Name":"Avg","Width":60}]');
  });

  it('gives null columns when nothing usable is stored', () => {
    expect(setup({}).store.get(targetColumnsAtomOf(setup({}).storage))).toBeNull();
    const { store, storage } = setup({ 'Target-Columns': 'not json' });
    expect(store.get(targetColumnsAtomOf(storage))).toBeNull();
  });

  it('reads and writes Target-Pane-Splitter-Height as a number text, 0.7 by default', () => {
    const { mem, store, storage } = setup({ 'Target-Pane-Splitter-Height': '0.35' });
    const splitter = targetSplitterAtomOf(storage);
    expect(store.get(splitter)).toBe(0.35);
    store.set(splitter, 0.5);
    expect(mem.getItem('Target-Pane-Splitter-Height')).toBe('0.5');
    const empty = setup({});
    expect(empty.store.get(targetSplitterAtomOf(empty.storage))).toBe(0.7);
    expect(empty.mem.getItem('Target-Pane-Splitter-Height')).toBeNull();
  });

  it('reads and writes Visible_Graphs_{targetId} as a JSON list of hops', () => {
    const { mem, store, storage } = setup({ Visible_Graphs_12: '[2,5]' });
    const graphs = visibleGraphsAtomOf('12', storage);
    expect(store.get(graphs)).toEqual([2, 5]);
    store.set(graphs, [1, 5]);
    expect(mem.getItem('Visible_Graphs_12')).toBe('[1,5]');
    expect(store.get(visibleGraphsAtomOf('13', storage))).toBeNull();
  });
});
