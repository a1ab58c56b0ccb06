// "Add targets" on a named summary (CanChangeTargets, not IsAllTargets): a menu of the
// account's running and paused targets that the summary does not show yet, read from All
// Targets when the menu opens; a choice adds the target (GET /cmd/addhost).
import { useRef, useState } from 'react';
import type { Summary } from '../../../server/contract/summaries';
import type { TargetRow } from '../../../server/contract/targets';
import { reportError } from '../state/reportError';
import { hostLabel } from '../target/hostLabel';
import { sessionIdOf } from '../target/logic/rowId';
import { PopupMenu, type MenuItem } from '../target/PopupMenu';
import { addHost, summaryRows } from './api';

export function AddTargetsButton({ summary, allTargetsId, shown, onAdded }: { summary: Summary; allTargetsId: string | undefined; shown: ReadonlySet<string>; onAdded: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  const [menu, setMenu] = useState<{ x: number; y: number; rows: TargetRow[] | null } | null>(null);
  const open = () => {
    const r = button.current!.getBoundingClientRect();
    setMenu({ x: r.left, y: r.bottom + 4, rows: null });
    if (!allTargetsId) return setMenu({ x: r.left, y: r.bottom + 4, rows: [] });
    summaryRows(allTargetsId, null).then(
      (answer) => setMenu((m) => m && { ...m, rows: (answer?.Rows ?? []).filter((row) => !shown.has(sessionIdOf(row.UniqueID))) }),
      (e) => (setMenu(null), reportError(e)),
    );
  };
  const items: MenuItem[] =
    menu?.rows === null
      ? [{ label: 'Loading…', disabled: true }]
      : menu?.rows?.length
        ? menu.rows.map((row) => ({
            label: hostLabel(row),
            onSelect: () => void addHost(summary.UniqueID, sessionIdOf(row.UniqueID)).then(onAdded, (e) => reportError(e)),
          }))
        : [{ label: 'Every running target is in this summary already', disabled: true }];
  return (
    <>
      <button ref={button} type="button" className="button secondary" aria-haspopup="menu" onClick={open}>
        Add targets ▾
      </button>
      {menu && <PopupMenu x={menu.x} y={menu.y} items={items} onClose={() => setMenu(null)} />}
    </>
  );
}
