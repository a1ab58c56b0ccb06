import { describe, expect, it } from 'vitest';
import type { TargetRow } from '../../../../server/contract/targets';
import { DefaultSortOrder, parseSortOrder, serializeSortOrder, sortOrderAfterHeaderClick, sortSummaryRows } from './summarySort';

const row = (id: number, over: Partial<TargetRow> = {}, columns: Record<string, string> = {}): TargetRow =>
  ({
    UniqueID: `${id}_h_3`,
    DNSName: '',
    IP: '',
    HopNum: 3,
    HopDetails: null,
    Columns: columns,
    IsRunning: true,
    Editable: true,
    HasAlert: false,
    GoodCount: 10,
    TotalCount: 10,
    Average: null,
    Minimum: null,
    Maximum: null,
    Current: null,
    PL: null,
    TraceInterval: 2.5,
    SentinelId: '',
    HubSentinelID: -1,
    Start: '',
    End: null,
    TraceStart: '',
    TraceEnd: null,
    ...over,
  }) as TargetRow;
const ids = (rows: TargetRow[]) => rows.map((r) => r.UniqueID.split('_')[0]);

describe('default_summary_sort_order', () => {
  it('defaults to DNSName ascending when nothing usable is stored', () => {
    expect(DefaultSortOrder).toEqual({ Column: 'DNSName', Ascending: true });
    for (const raw of [null, '', 'not json', '[]', '{"Column":""}', '{"Column":"Avg","Ascending":"yes"}']) expect(parseSortOrder(raw)).toEqual(DefaultSortOrder);
  });
  it('reads back what it stores', () => {
    const o = { Column: 'Avg', Ascending: false };
    expect(parseSortOrder(serializeSortOrder(o))).toEqual(o);
    expect(serializeSortOrder(o)).toBe('{"Column":"Avg","Ascending":false}');
  });
  it('a header click sorts by the column ascending, a second click turns the direction', () => {
    const byAvg = sortOrderAfterHeaderClick(DefaultSortOrder, 'Avg');
    expect(byAvg).toEqual({ Column: 'Avg', Ascending: true });
    expect(sortOrderAfterHeaderClick(byAvg, 'Avg')).toEqual({ Column: 'Avg', Ascending: false });
  });
});

describe('sortSummaryRows', () => {
  it('sorts names without case, numbers inside names as numbers, and names before rows without one', () => {
    const rows = [row(1, { DNSName: 'b.example' }), row(2, { IP: '10.0.0.9' }), row(3, { DNSName: 'A.example' }), row(4, { DNSName: 'host10' }), row(5, { DNSName: 'host9' }), row(6)];
    expect(ids(sortSummaryRows(rows, { Column: 'DNSName', Ascending: true }))).toEqual(['2', '3', '1', '5', '4', '6']);
    expect(ids(sortSummaryRows(rows, { Column: 'DNSName', Ascending: false }))).toEqual(['4', '5', '1', '3', '2', '6']);
  });
  it('sorts latency as numbers; no value and special codes (timeouts) last in both directions', () => {
    const rows = [row(1, { Average: 20 }), row(2, { Average: null }), row(3, { Average: 5 }), row(4, { Average: -4194305 }), row(5, { Average: 100 })];
    expect(ids(sortSummaryRows(rows, { Column: 'Avg', Ascending: true }))).toEqual(['3', '1', '5', '2', '4']);
    expect(ids(sortSummaryRows(rows, { Column: 'Avg', Ascending: false }))).toEqual(['5', '1', '3', '2', '4']);
  });
  it('keeps ties in target id order and leaves the input alone', () => {
    const rows = [row(9, { PL: 0 }), row(2, { PL: 0 }), row(5, { PL: 10 })];
    const copy = [...rows];
    expect(ids(sortSummaryRows(rows, { Column: 'PacketLoss', Ascending: true }))).toEqual(['2', '9', '5']);
    expect(rows).toEqual(copy);
  });
  it('sorts other columns by their display text', () => {
    const rows = [row(1, {}, { ConfigName: 'Zeta' }), row(2, {}, { ConfigName: 'alpha' })];
    expect(ids(sortSummaryRows(rows, { Column: 'ConfigName', Ascending: true }))).toEqual(['2', '1']);
    const hops = [row(1, {}, { RouteLength: '12' }), row(2, {}, { RouteLength: '3' })];
    expect(ids(sortSummaryRows(hops, { Column: 'RouteLength', Ascending: true }))).toEqual(['2', '1']);
  });
});
