// The summary grid's sort order (spec 2 section 9: default_summary_sort_order, default DNSName
// ascending). Stored as JSON {Column, Ascending}; a header click sorts by that column, a second
// click on the same column turns the direction. Numbers sort as numbers, rows without a value
// last whatever the direction, ties by target id so the order is stable while rows go live.
import type { TargetRow } from '../../../../server/contract/targets';
import { DefaultSummarySortOrder } from '../../target/logic/constants';
import { sessionIdOf } from '../../target/logic/rowId';

export interface SortOrder {
  Column: string;
  Ascending: boolean;
}

export const DefaultSortOrder: SortOrder = { ...DefaultSummarySortOrder };

/** The stored text read back; anything unusable gives DNSName ascending. */
export function parseSortOrder(raw: string | null | undefined): SortOrder {
  if (!raw) return DefaultSortOrder;
  try {
    const v: unknown = JSON.parse(raw);
    if (v && typeof v === 'object' && typeof (v as SortOrder).Column === 'string' && (v as SortOrder).Column && typeof (v as SortOrder).Ascending === 'boolean') {
      return { Column: (v as SortOrder).Column, Ascending: (v as SortOrder).Ascending };
    }
  } catch {
    // falls through to the default
  }
  return DefaultSortOrder;
}

export const serializeSortOrder = (o: SortOrder): string => JSON.stringify({ Column: o.Column, Ascending: o.Ascending });

/** A header click: that column ascending, or the other direction when it is the sorted one. */
export function sortOrderAfterHeaderClick(current: SortOrder, column: string): SortOrder {
  return current.Column === column ? { Column: column, Ascending: !current.Ascending } : { Column: column, Ascending: true };
}

/** Columns whose values are numbers (the Graph column sorts by average latency). */
const numeric: Record<string, (r: TargetRow) => number | null> = {
  Avg: (r) => r.Average,
  Min: (r) => r.Minimum,
  Max: (r) => r.Maximum,
  Cur: (r) => r.Current,
  Graph: (r) => r.Average,
  PacketLoss: (r) => r.PL,
  Hop: (r) => r.HopNum,
  ErrCount: (r) => (r.TotalCount >= r.GoodCount ? r.TotalCount - r.GoodCount : null),
};

function textOf(r: TargetRow, column: string): string {
  if (column === 'DNSName') return r.DNSName || r.Columns.DNSName || r.IP || '';
  if (column === 'IPAddress') return r.IP || r.Columns.IPAddress || '';
  return r.Columns[column] ?? '';
}

function numberOf(r: TargetRow, column: string): number | null {
  const read = numeric[column];
  if (read) {
    const v = read(r);
    // Special latency codes (timeouts and the like) lie far below zero: no value.
    return v === null || v === undefined || !Number.isFinite(v) || v < 0 ? null : v;
  }
  const text = (r.Columns[column] ?? '').trim();
  return column === 'RouteLength' && /^\d+$/.test(text) ? Number(text) : null;
}

const isNumeric = (column: string) => column in numeric || column === 'RouteLength';
const idOf = (r: TargetRow) => Number(sessionIdOf(r.UniqueID)) || 0;

/** The rows in the order; the input is not changed. */
export function sortSummaryRows(rows: readonly TargetRow[], order: SortOrder): TargetRow[] {
  const dir = order.Ascending ? 1 : -1;
  const byNumber = isNumeric(order.Column);
  return [...rows].sort((a, b) => {
    if (byNumber) {
      const x = numberOf(a, order.Column);
      const y = numberOf(b, order.Column);
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
      } else if (x !== y) return (x - y) * dir;
    } else {
      const x = textOf(a, order.Column);
      const y = textOf(b, order.Column);
      if (!x || !y) {
        if (!!x !== !!y) return x ? -1 : 1;
      } else {
        const c = x.localeCompare(y, undefined, { sensitivity: 'base', numeric: true });
        if (c !== 0) return c * dir;
      }
    }
    return idOf(a) - idOf(b);
  });
}
