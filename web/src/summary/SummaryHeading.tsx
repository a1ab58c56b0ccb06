// The summary screen's title (spec 2 "Summary routes"): the name with rename, delete and the
// view-link menu, the "Import PP2 File" button (pp2import flag) and the alerts toggle
// (AlertsManagement). All Targets has no rename or delete (not Editable, not CanClose).
// The view-link menu offers "Copy link to this summary"; its LiveShare items ("Manage
// LiveShare view links": create, manage existing) appear once LiveShare is built, and only
// when authentication is required (spec 2).
import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { Claim, Flag } from '../../../server/contract/account';
import type { Summary } from '../../../server/contract/summaries';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { currentUserAtom } from '../state/user';
import { copyText } from '../target/clipboard';
import { PopupMenu, type MenuItem } from '../target/PopupMenu';
import { AlertsToggle } from '../alerts/AlertsSidebar';

/** LiveShare view links arrive with the LiveShare screens (issue: LiveShare); until then the items are not shown. */
export const LiveShareViewLinksBuilt = false;

export interface SummaryHeadingProps {
  title: string;
  summary: Summary | null;
  onRename: () => void;
  onDelete: () => void;
  /** Counts for the line under the title. */
  targetCount: number;
  alertsVisible: boolean;
  onToggleAlerts: () => void;
}

export function SummaryHeading({ title, summary, onRename, onDelete, targetCount, alertsVisible, onToggleAlerts }: SummaryHeadingProps) {
  const user = useAtomValue(currentUserAtom);
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const linkButton = useRef<HTMLButtonElement>(null);
  const canManage = !!user?.Claims.includes(Claim.SummaryManagement);
  const linkItems: MenuItem[] = [
    {
      label: 'Copy link to this summary',
      onSelect: () => void copyText(window.location.href).then(() => showInfo('Link copied to clipboard'), (e) => reportError(e)),
    },
    ...(LiveShareViewLinksBuilt && canManage && summary && !summary.IsAllTargets
      ? [
          { label: 'Create new LiveShare view link', separator: true },
          { label: 'Manage existing links' },
        ]
      : []),
  ];
  return (
    <header className="target-heading summary-heading">
      <div className="target-title">
        <h1 data-testid="summary-heading">{title}</h1>
        {summary && (
          <span className="via">
            {targetCount === 1 ? '1 target' : `${targetCount} targets`}
            {summary.IsAllTargets ? ' · every running and paused target of the account' : ''}
          </span>
        )}
        {summary?.Editable && (
          <button type="button" className="icon-text-button" onClick={onRename} title="Rename this summary">
            Rename
          </button>
        )}
        {summary?.CanClose && (
          <button type="button" className="icon-text-button danger" onClick={onDelete} title="Delete this summary (its targets keep running)">
            Delete
          </button>
        )}
        {summary && (
          <button
            ref={linkButton}
            type="button"
            className="icon-text-button"
            aria-haspopup="menu"
            onClick={() => {
              const r = linkButton.current!.getBoundingClientRect();
              setMenu({ x: r.left, y: r.bottom + 4 });
            }}
          >
            View link ▾
          </button>
        )}
      </div>
      <div className="heading-tools">
        {user?.Flags.includes(Flag.Pp2Import) && summary && (
          <button type="button" className="button secondary" disabled title="Data file import is not available on this server yet.">
            Import PP2 File
          </button>
        )}
        {user?.Claims.includes(Claim.AlertsManagement) && <AlertsToggle visible={alertsVisible} onToggle={onToggleAlerts} />}
      </div>
      {menu && <PopupMenu x={menu.x} y={menu.y} items={linkItems} onClose={() => setMenu(null)} />}
    </header>
  );
}
