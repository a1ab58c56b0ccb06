// The trace grid's row context menu (spec 2 "Trace grid"): copy IP or name, show or hide the
// hop's timeline graph, edit its name or notes, re-resolve the host name (hub ReresolveHost),
// trace the final hop only.
import type { TargetRow } from '../../../server/contract/targets';
import { invoke } from '../hub/connection';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import * as api from './api';
import { copyText } from './clipboard';
import { hostLabel } from './hostLabel';
import { graphMenuLabel } from './logic/focusGraphs';
import { isHeaderRow, parseRowId } from './logic/rowId';
import { PopupMenu, type MenuItem } from './PopupMenu';

export interface HostEdit {
  rowId: string;
  field: 'Name' | 'Notes';
  initial: string;
}

export interface RowMenuProps {
  row: TargetRow;
  x: number;
  y: number;
  targetId?: string;
  graphShown: (hop: number) => boolean;
  /** The hop's graph is kept (Visible_Graphs), not only shown as the focus. */
  graphPinned: (hop: number) => boolean;
  onGraphVisible: (hop: number, visible: boolean) => void;
  onEditHost: (edit: HostEdit) => void;
  /** A change went through: read the rows again. */
  onChanged: () => void;
  onClose: () => void;
}

export function RowMenu({ row, x, y, targetId, graphShown, graphPinned, onGraphVisible, onEditHost, onChanged, onClose }: RowMenuProps) {
  const hop = parseRowId(row.UniqueID)?.hostId ?? 0;
  const header = isHeaderRow(row.UniqueID);
  const copy = (text: string, message: string) => copyText(text).then(() => showInfo(message), (e) => reportError(e));
  const notEditable = row.Editable ? undefined : 'You cannot change this target.';
  const items: MenuItem[] = [
    { label: 'Copy IP', disabled: !row.IP, onSelect: () => copy(row.IP, `IP ${row.IP} copied to clipboard`) },
    { label: 'Copy Name', disabled: !row.DNSName, onSelect: () => copy(row.DNSName, `Name ${row.DNSName} copied to clipboard`) },
    ...(header
      ? []
      : [
          { label: graphMenuLabel(graphShown(hop), graphPinned(hop)), separator: true, onSelect: () => onGraphVisible(hop, !graphPinned(hop)) },
          { label: 'Edit Name', separator: true, disabled: !row.Editable, title: notEditable, onSelect: () => onEditHost({ rowId: row.UniqueID, field: 'Name', initial: row.DNSName }) },
          { label: 'Edit Notes', disabled: !row.Editable, title: notEditable, onSelect: () => onEditHost({ rowId: row.UniqueID, field: 'Notes', initial: row.Columns.Notes ?? '' }) },
          { label: 'Re-resolve host name', disabled: !row.Editable, title: notEditable, onSelect: () => void invoke('ReresolveHost', row.UniqueID).then(onChanged, (e) => reportError(e)) },
        ]),
    {
      label: 'Trace final hop only',
      disabled: !row.Editable || !targetId,
      title: notEditable,
      onSelect: () => void api.finalHop([targetId!]).then(onChanged, (e) => reportError(e)),
    },
  ];
  return <PopupMenu x={x} y={y} items={items} onClose={onClose} header={<div className="popup-title">{hostLabel(row)}</div>} />;
}
