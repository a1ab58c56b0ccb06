// The summary screen's preferences (spec 2 section 9 storage keys) as jotai atoms over
// localStorage: Summary-Columns (the shown columns with their widths, as Target-Columns),
// Summary-Pane-Splitter-Height (the grid's share, default 0.7) and default_summary_sort_order
// (JSON {Column, Ascending}, default DNSName ascending).
import { preferenceAtom, type TextStorage } from '../state/preference';
import { parseStoredColumnPrefs, type StoredColumnPref } from '../target/logic/columnPrefs';
import { StorageKeys } from '../target/logic/constants';
import { splitterFraction } from '../target/logic/timelineLayout';
import { parseSortOrder, serializeSortOrder, type SortOrder } from './logic/summarySort';

type Storage = () => TextStorage | undefined;

export const summaryColumnsAtomOf = (storage?: Storage) =>
  preferenceAtom<StoredColumnPref[] | null>(StorageKeys.SummaryColumns, parseStoredColumnPrefs, (prefs) => JSON.stringify(prefs ?? []), storage);
export const summarySplitterAtomOf = (storage?: Storage) => preferenceAtom<number>(StorageKeys.SummaryPaneSplitterHeight, splitterFraction, String, storage);
export const summarySortAtomOf = (storage?: Storage) => preferenceAtom<SortOrder>(StorageKeys.DefaultSummarySortOrder, parseSortOrder, serializeSortOrder, storage);

export const summaryColumnsAtom = summaryColumnsAtomOf();
export const summarySplitterAtom = summarySplitterAtomOf();
export const summarySortAtom = summarySortAtomOf();
