import { describe, expect, it } from 'vitest';
import {
  type ColumnDef,
  applyColumnPrefs,
  clampColumnWidth,
  columnPrefsOf,
  columnPrefsStorageKey,
  moveColumn,
  parseStoredColumnPrefs,
  resizeColumn,
  serializeColumnPrefs,
  setColumnVisible,
} from './columnPrefs';
import { ColumnAlign, ColumnGridType, type GraphColumnKind } from './constants';

function def(Name: GraphColumnKind, Width: number, Visible = true, CanChangeVisible = true): ColumnDef {
  return {
    Name, Type: Name, Hint: '', Caption: Name, MenuCaption: Name, GridType: ColumnGridType.SingleTarget,
    Align: ColumnAlign.Left, CanChangeVisible, SizeAbility: true, Visible, Width,
  };
}
const server = [def('Hop', 40, true, false), def('PacketLoss', 60), def('IPAddress', 120), def('DNSName', 200), def('Avg', 60), def('Graph', 300, true, false), def('RouteLength', 50, false)];
const view = (cols: ColumnDef[]) => cols.map((c) => `${c.Name}:${c.Width}${c.Visible ? '' : '(hidden)'}`);

describe('storage', () => {
  it('uses Target-Columns and Summary-Columns', () => {
    expect(columnPrefsStorageKey(false)).toBe('Target-Columns');
    expect(columnPrefsStorageKey(true)).toBe('Summary-Columns');
  });
  it('reads name and width lists, skipping bad entries and clamping widths to 10', () => {
    expect(parseStoredColumnPrefs('[{"Name":"Avg","Width":4},{"Name":3},{"Name":"Hop","Width":33.4}]')).toEqual([
      { Name: 'Avg', Width: 10 },
      { Name: 'Hop', Width: 33 },
    ]);
    for (const raw of [null, '', 'not json', '{"Name":"Avg"}']) expect(parseStoredColumnPrefs(raw)).toBeNull();
  });
  it('minimum column width is 10', () => {
    expect(clampColumnWidth(3)).toBe(10);
    expect(clampColumnWidth(NaN)).toBe(10);
    expect(clampColumnWidth(88.6)).toBe(89);
  });
});

describe('applyColumnPrefs', () => {
  it('without preferences the server defs stand', () => {
    expect(view(applyColumnPrefs(server, null))).toEqual(view(server));
    expect(view(applyColumnPrefs(server, [{ Name: 'Gone', Width: 50 }]))).toEqual(view(server));
  });
  it('applies stored order and widths; unlisted hideable columns are hidden at the end', () => {
    const prefs = [{ Name: 'Hop', Width: 30 }, { Name: 'DNSName', Width: 150 }, { Name: 'Graph', Width: 400 }, { Name: 'Gone', Width: 99 }, { Name: 'RouteLength', Width: 45 }];
    expect(view(applyColumnPrefs(server, prefs))).toEqual([
      'Hop:30', 'DNSName:150', 'Graph:400', 'RouteLength:45', 'PacketLoss:60(hidden)', 'IPAddress:120(hidden)', 'Avg:60(hidden)',
    ]);
  });
  it('keeps columns the user cannot hide, at their server position', () => {
    const cols = applyColumnPrefs(server, [{ Name: 'DNSName', Width: 150 }, { Name: 'Avg', Width: 70 }]);
    expect(view(cols).slice(0, 4)).toEqual(['Hop:40', 'DNSName:150', 'Avg:70', 'Graph:300']);
  });
});

describe('edits and round trip', () => {
  it('show/hide, resize and move produce the list to store', () => {
    let cols = applyColumnPrefs(server, null);
    cols = setColumnVisible(cols, 'RouteLength', true);
    cols = setColumnVisible(cols, 'Hop', false); // cannot be hidden
    cols = setColumnVisible(cols, 'IPAddress', false);
    cols = resizeColumn(cols, 'DNSName', 5);
    cols = moveColumn(cols, 3, 1);
    expect(columnPrefsOf(cols)).toEqual([
      { Name: 'Hop', Width: 40 }, { Name: 'DNSName', Width: 10 }, { Name: 'PacketLoss', Width: 60 },
      { Name: 'Avg', Width: 60 }, { Name: 'Graph', Width: 300 }, { Name: 'RouteLength', Width: 50 },
    ]);
    const restored = applyColumnPrefs(server, parseStoredColumnPrefs(serializeColumnPrefs(cols)));
    expect(columnPrefsOf(restored)).toEqual(columnPrefsOf(cols));
  });
  it('ignores a move outside the list', () => {
    expect(view(moveColumn(server, 0, 99))).toEqual(view(server));
  });
});
