// The trace grid's columns: the server's ColumnDefs of the target under the user's
// Target-Columns preference; every change the user makes (show, hide, resize, move) is kept.
import { useAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import type { ColumnDef } from '../../../server/contract/targets';
import * as api from './api';
import { applyColumnPrefs, columnPrefsOf } from './logic/columnPrefs';
import { targetColumnsAtom } from './prefs';

export function useColumns(targetId: string | undefined): { columns: ColumnDef[]; updateColumns: (next: ColumnDef[]) => void } {
  const [prefs, setPrefs] = useAtom(targetColumnsAtom);
  // The preference as it is when the defs arrive; the user's later changes are in `columns`.
  const latestPrefs = useRef(prefs);
  latestPrefs.current = prefs;
  const [columns, setColumns] = useState<ColumnDef[]>([]);
  useEffect(() => {
    if (!targetId) return;
    api.columnDefs(targetId).then(
      (defs) => setColumns(applyColumnPrefs(defs ?? [], latestPrefs.current)),
      () => undefined, // a missing target shows its own heading
    );
  }, [targetId]);
  const updateColumns = (next: ColumnDef[]) => {
    setColumns(next);
    setPrefs(columnPrefsOf(next));
  };
  return { columns, updateColumns };
}
