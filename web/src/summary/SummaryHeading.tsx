// The summary screen's title (spec 2 "Summary routes"): the name with rename, delete and the
// view-link menu, the "Import PP2 File" button (pp2import flag) and the alerts toggle
// (AlertsManagement). All Targets has no rename or delete (not Editable, not CanClose).
// The view-link menu offers "Copy link to this summary" and, to users with SummaryManagement
// (this server always requires sign-in, spec 2), "Manage LiveShare view links": "Create new
// LiveShare view link" (the create dialog here) and "Manage existing links"
// (/LiveShareLinks/SUM-{id}).
import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CreateLinkModal } from '../liveshare/LinkModals';
import { Claim, Flag } from '../../../server/contract/account';
import type { Summary } from '../../../server/contract/summaries';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { currentUserAtom } from '../state/user';
import { copyText } from '../target/clipboard';
import { PopupMenu, type MenuItem } from '../target/PopupMenu';
import { ImportButton } from './ImportButton';
import { AlertsToggle } from '../alerts/AlertsSidebar';


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
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  const linkButton = useRef<HTMLButtonElement>(null);
  const canManage = !!user?.Claims.includes(Claim.SummaryManagement);
  const linkItems: MenuItem[] = [
    {
      label: 'Copy link to this summary',
      onSelect: () => void copyText(window.location.href).then(() => showInfo('Link copied to clipboard'), (e) => reportError(e)),
    },
    ...(canManage && summary && !user?.IsLiveshare
      ? [
          { label: 'Manage LiveShare view links', disabled: true, separator: true },
          { label: 'Create new LiveShare view link', onSelect: () => setCreating(true) },
          { label: 'Manage existing links', onSelect: () => navigate(`/LiveShareLinks/SUM-${summary.UniqueID}`) },
        ]
      : []),
  ];
  return (
    <header className="target-heading summary-heading">
      <div className="target-title">
        <h1 data-testid="summary-heading" title={title}>{title}</h1>
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
        {user?.Flags.includes(Flag.Pp2Import) && summary && <ImportButton summary={summary} allowed={!!user?.Claims.includes(Claim.TargetManagement)} />}
        {user?.Claims.includes(Claim.AlertsManagement) && <AlertsToggle visible={alertsVisible} onToggle={onToggleAlerts} />}
      </div>
      {menu && <PopupMenu x={menu.x} y={menu.y} items={linkItems} onClose={() => setMenu(null)} />}
      {creating && summary && <CreateLinkModal summaryRef={`SUM-${summary.UniqueID}`} onClose={() => setCreating(false)} onChanged={() => undefined} />}
    </header>
  );
}
