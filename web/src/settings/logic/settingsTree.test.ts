import { describe, expect, it } from 'vitest';
import { canClone, canDelete, moveConfig, neighbourAfterDelete, treeEntries } from './settingsTree';

describe('the settings tree', () => {
  it('lists General, each configuration with Display and Engine, and the trailing New named config', () => {
    const e = treeEntries([{ id: 1, name: 'Default' }, { id: 4, name: 'HTTPS' }]);
    expect(e.map((x) => `${'  '.repeat(x.depth)}${x.label}`)).toEqual(['General', 'Default', '  Display', '  Engine', 'HTTPS', '  Display', '  Engine', 'New named config']);
  });

  it('offers Clone for configuration entries and Delete only when more than one exists in both lists', () => {
    expect(canClone({ kind: 'General' })).toBe(false);
    expect(canClone({ kind: 'Engine', configId: 1 })).toBe(true);
    expect(canDelete({ kind: 'Display', configId: 1 }, 2, 2)).toBe(true);
    expect(canDelete({ kind: 'Display', configId: 1 }, 1, 1)).toBe(false);
    expect(canDelete({ kind: 'Display', configId: 1 }, 2, 1)).toBe(false);
    expect(canDelete({ kind: 'General' }, 3, 3)).toBe(false);
  });

  it('selects the neighbour after a delete: the next, else the one before', () => {
    expect(neighbourAfterDelete([1, 2, 3], 2)).toEqual({ kind: 'NamedConfig', configId: 3 });
    expect(neighbourAfterDelete([1, 2, 3], 3)).toEqual({ kind: 'NamedConfig', configId: 2 });
    expect(neighbourAfterDelete([1, 2, 3], 1)).toEqual({ kind: 'NamedConfig', configId: 2 });
  });

  it('moves a dragged configuration onto another one\'s place', () => {
    expect(moveConfig([1, 2, 3], 3, 1)).toEqual([3, 1, 2]);
    expect(moveConfig([1, 2, 3], 1, 3)).toEqual([2, 3, 1]);
    expect(moveConfig([1, 2, 3], 2, 2)).toEqual([1, 2, 3]);
  });
});
