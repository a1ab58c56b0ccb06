// The summary grid's row context menu: copy IP or name (spec 2 section 8 texts), open the
// target's window, add the target to another summary (the add menu excludes the current one)
// and remove it from this one (CanChangeTargets, not IsAllTargets; spec 2 section 4).
import { useNavigate } from 'react-router-dom';
import type { Summary } from '../../../server/contract/summaries';
import type { TargetRow } from '../../../server/contract/targets';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { copyText } from '../target/clipboard';
import { hostLabel } from '../target/hostLabel';
import { sessionIdOf } from '../target/logic/rowId';
import { PopupMenu, type MenuItem } from '../target/PopupMenu';
import { addHost, removeFromSummary } from './api';
import { addMenuSummaries, canChangeTargets } from './logic/summaryRules';

export interface SummaryRowMenuProps {
  row: TargetRow;
  x: number;
  y: number;
  summary: Summary | null;
  summaries: readonly Summary[];
  canManageTargets: boolean;
  onChanged: () => void;
  onClose: () => void;
}

export function SummaryRowMenu({ row, x, y, summary, summaries, canManageTargets, onChanged, onClose }: SummaryRowMenuProps) {
  const navigate = useNavigate();
  const targetId = sessionIdOf(row.UniqueID);
  const copy = (text: string, message: string) => copyText(text).then(() => showInfo(message), (e) => reportError(e));
  const others = addMenuSummaries(summaries, summary?.UniqueID);
  const items: MenuItem[] = [
    { label: 'Open target', onSelect: () => navigate(`/targets/${targetId}`) },
    { label: 'Copy IP', separator: true, disabled: !row.IP, onSelect: () => copy(row.IP, `IP ${row.IP} copied to clipboard`) },
    { label: 'Copy Name', disabled: !row.DNSName, onSelect: () => copy(row.DNSName, `Name ${row.DNSName} copied to clipboard`) },
    ...others.map((s, i) => ({
      label: `Add to ${s.Name}`,
      separator: i === 0,
      disabled: !canManageTargets,
      onSelect: () =>
        void addHost(s.UniqueID, targetId).then(() => showInfo(`Added to ${s.Name}`), (e) => reportError(e)),
    })),
    ...(canChangeTargets(summary)
      ? [
          {
            label: 'Remove from summary',
            separator: true,
            onSelect: () => void removeFromSummary(summary!.UniqueID, targetId).then(onChanged, (e) => reportError(e)),
          },
        ]
      : []),
  ];
  return <PopupMenu x={x} y={y} items={items} onClose={onClose} header={<div className="popup-title">{hostLabel(row)}</div>} />;
}
