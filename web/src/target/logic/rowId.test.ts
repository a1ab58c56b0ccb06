import { describe, expect, it } from 'vitest';
import { formatRowId, isHeaderRow, isSelectableRow, parseRowId, sessionIdOf } from './rowId';

describe('parseRowId', () => {
  it('reads {sessionId}_h_{hostId}: the host id is the third part', () => {
    expect(parseRowId('abc123_h_1')).toEqual({ sessionId: 'abc123', hostId: 1 });
    expect(parseRowId('42_h_0')).toEqual({ sessionId: '42', hostId: 0 });
    expect(parseRowId('42')).toEqual({ sessionId: '42', hostId: null });
  });
  it('rejects other shapes', () => {
    for (const id of ['', '_h_1', '42_x_1', '42_h_', '42_h_one', '42_h_1_2', '42_h_-1']) expect(parseRowId(id)).toBeNull();
  });
  it('round-trips with formatRowId', () => {
    expect(parseRowId(formatRowId('s9', 17))).toEqual({ sessionId: 's9', hostId: 17 });
  });
});

describe('header rows and selection', () => {
  it('_h_0 is a header row and not selectable; hops are', () => {
    expect(isHeaderRow('42_h_0')).toBe(true);
    expect(isSelectableRow('42_h_0')).toBe(false);
    expect(isHeaderRow('42_h_1')).toBe(false);
    expect(isSelectableRow('42_h_1')).toBe(true);
    expect(isSelectableRow('42')).toBe(true);
    expect(isSelectableRow('bad_id')).toBe(false);
  });
  it('sessionIdOf strips the _h_ suffix of hub event ids', () => {
    expect(sessionIdOf('42_h_3')).toBe('42');
    expect(sessionIdOf('42')).toBe('42');
  });
});
