// Grid column preferences (spec 2 sections 3 and 9): the server's ColumnDefs describe the
// columns; the browser remembers the user's columns under Target-Columns (trace grid) or
// Summary-Columns (summary grid) as a list of name and width. That stored list is the shown
// columns in display order (decision: name and width is all the spec stores, so order and
// membership carry the chooser's show/hide state). Widths are at least 10 px.
import type { ColumnDef } from '../../../../server/contract/targets';
import { MinColumnWidthPx, StorageKeys } from './constants';

export type { ColumnDef };

/** One stored column preference: name and width. */
export interface StoredColumnPref {
  Name: string;
  Width: number;
}

export function columnPrefsStorageKey(isSummaryGrid: boolean): string {
  return isSummaryGrid ? StorageKeys.SummaryColumns : StorageKeys.TargetColumns;
}

/** A usable column width: a whole number of px, at least 10. */
export function clampColumnWidth(widthPx: number): number {
  return Number.isFinite(widthPx) ? Math.max(MinColumnWidthPx, Math.round(widthPx)) : MinColumnWidthPx;
}

/** Reads the stored JSON; null when missing or not a list of {Name, Width}. Bad entries are skipped. */
export function parseStoredColumnPrefs(raw: string | null | undefined): StoredColumnPref[] | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  const prefs: StoredColumnPref[] = [];
  for (const item of value) {
    if (item && typeof item === 'object' && typeof item.Name === 'string' && typeof item.Width === 'number') {
      prefs.push({ Name: item.Name, Width: clampColumnWidth(item.Width) });
    }
  }
  return prefs;
}

/**
 * The columns to show, in order, with the stored widths applied over the server's defs.
 * Without usable preferences the server's defs stand (widths clamped). With them: the stored
 * columns first, in stored order and width, all visible; a column the user cannot hide that
 * the list lacks is shown at its server position; the other columns follow, hidden, so the
 * "Show / hide columns" chooser can offer them. Stored names the server no longer has are
 * dropped.
 */
export function applyColumnPrefs(defs: readonly ColumnDef[], prefs: readonly StoredColumnPref[] | null): ColumnDef[] {
  const byName = new Map<string, ColumnDef>(defs.map((def) => [def.Name, def]));
  const known = (prefs ?? []).filter((pref, i, all) => byName.has(pref.Name) && all.findIndex((p) => p.Name === pref.Name) === i);
  if (known.length === 0) return defs.map((def) => ({ ...def, Width: clampColumnWidth(def.Width) }));

  const shown: ColumnDef[] = known.map((pref) => ({ ...byName.get(pref.Name)!, Visible: true, Width: pref.Width }));
  const storedNames = new Set(known.map((pref) => pref.Name));
  const hidden: ColumnDef[] = [];
  defs.forEach((def, serverIndex) => {
    if (storedNames.has(def.Name)) return;
    const column = { ...def, Width: clampColumnWidth(def.Width) };
    if (def.CanChangeVisible) hidden.push({ ...column, Visible: false });
    else shown.splice(Math.min(serverIndex, shown.length), 0, { ...column, Visible: true });
  });
  return [...shown, ...hidden];
}

/** The preference list to store for the columns as they are now: the shown ones, in order. */
export function columnPrefsOf(columns: readonly ColumnDef[]): StoredColumnPref[] {
  return columns.filter((c) => c.Visible).map((c) => ({ Name: c.Name, Width: clampColumnWidth(c.Width) }));
}

export function serializeColumnPrefs(columns: readonly ColumnDef[]): string {
  return JSON.stringify(columnPrefsOf(columns));
}

/** Show or hide a column from the chooser; columns the user cannot hide stay shown. */
export function setColumnVisible(columns: readonly ColumnDef[], name: string, visible: boolean): ColumnDef[] {
  return columns.map((c) => (c.Name === name && c.CanChangeVisible ? { ...c, Visible: visible } : c));
}

/** A column resized in the grid (at least 10 px). */
export function resizeColumn(columns: readonly ColumnDef[], name: string, widthPx: number): ColumnDef[] {
  return columns.map((c) => (c.Name === name ? { ...c, Width: clampColumnWidth(widthPx) } : c));
}

/** A column dragged from one index to another (indexes into the full list). */
export function moveColumn(columns: readonly ColumnDef[], fromIndex: number, toIndex: number): ColumnDef[] {
  if (fromIndex < 0 || fromIndex >= columns.length || toIndex < 0 || toIndex >= columns.length) return [...columns];
  const next = [...columns];
  const [moved] = next.splice(fromIndex, 1);
  next.splice(toIndex, 0, moved);
  return next;
}
