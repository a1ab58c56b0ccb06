// The grid's columns: the server's ColumnDefs under the user's stored preference, every change
// the user makes (show, hide, resize, move) kept. The trace grid reads the target's defs under
// Target-Columns; the summary grid passes its own defs loader and Summary-Columns atom.
import { useAtom, type WritableAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { ColumnDef } from '../../../server/contract/targets';
import * as api from './api';
import { applyColumnPrefs, columnPrefsOf, type StoredColumnPref } from './logic/columnPrefs';
import { targetColumnsAtom } from './prefs';

export interface ColumnSource {
  /** The stored preference (Target-Columns or Summary-Columns). */
  prefsAtom: WritableAtom<StoredColumnPref[] | null, [StoredColumnPref[] | null], void>;
  /** The server's defs for the id (ColumnDefs), adjusted for the screen. */
  load: (id: string) => Promise<ColumnDef[] | null>;
}

const targetColumns: ColumnSource = { prefsAtom: targetColumnsAtom, load: api.columnDefs };

export function useColumns(id: string | undefined, source: ColumnSource = targetColumns): { columns: ColumnDef[]; updateColumns: (next: ColumnDef[]) => void } {
  const [prefs, setPrefs] = useAtom(source.prefsAtom);
  // The preference as it is when the defs arrive; the user's later changes are in `columns`.
  const latestPrefs = useRef(prefs);
  latestPrefs.current = prefs;
  const load = useRef(source.load);
  load.current = source.load;
  const [columns, setColumns] = useState<ColumnDef[]>([]);
  useEffect(() => {
    if (!id) return;
    load.current(id).then(
      (defs) => setColumns(applyColumnPrefs(defs ?? [], latestPrefs.current)),
      () => undefined, // a missing target shows its own heading
    );
  }, [id]);
  const updateColumns = (next: ColumnDef[]) => {
    setColumns(next);
    setPrefs(columnPrefsOf(next));
  };
  return { columns, updateColumns };
}
