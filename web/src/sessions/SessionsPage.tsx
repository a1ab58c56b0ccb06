// /sessions (SessionManagement): the Sessions grid of spec 2 with "Delete sessions in
// filter". Open reopens a closed session as a paused target and goes to /targets/{id};
// Export downloads the session's data file; Delete removes a closed session for good.
// Every command goes through PerformSessionListCommand; success reloads the list and shows
// the spec's info toast, failure its error toast.
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { SessionListCommandType, SessionState } from '../../../server/contract/sessions';
import { downloadUrl } from '../api/download';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { invoke } from '../hub/connection';
import { reportError } from '../state/reportError';
import { showInfo } from '../state/toasts';
import { agentPickerVisible } from '../target/logic/agentPicker';
import * as api from './api';
import { DeleteInFilterDialog } from './DeleteInFilterDialog';
import { SessionGrid } from './SessionGrid';
import {
  DefaultSort,
  commandFailureText,
  commandSuccessText,
  filterRows,
  nextSort,
  sessionColumns,
  sortRows,
  toRow,
  type CommandVerb,
  type Filters,
  type SessionRow,
} from './logic/sessionRows';
import { useSampleCounts } from './useSampleCounts';
import { useSessions } from './useSessions';
import './sessions.css';
import { useDocumentTitle } from '../shell/documentTitle';

/** Multi-agent mode: more than one agent (the Agent column shows). Read once; a failure leaves one agent. */
function useMultiAgent(): boolean {
  const [multi, setMulti] = useState(false);
  useEffect(() => {
    invoke('GetAgents').then((list) => setMulti(agentPickerVisible(list ?? [])), (e) => console.warn('GetAgents failed', e));
  }, []);
  return multi;
}

const isOpen = (r: SessionRow) => r.state === SessionState.Active || r.state === SessionState.Pause;


export function SessionsPage() {
  useDocumentTitle('Sessions');
  const navigate = useNavigate();
  const { sessions, loading, reload } = useSessions();
  const counted = useSampleCounts(sessions);
  const multiAgent = useMultiAgent();
  const columns = useMemo(() => sessionColumns(multiAgent), [multiAgent]);
  const [sort, setSort] = useState(DefaultSort);
  const [filters, setFilters] = useState<Filters>({});
  const [dialog, setDialog] = useState<{ kind: 'deleteOne'; row: SessionRow } | { kind: 'deleteFilter' } | null>(null);
  const all = useMemo(() => counted.map((s) => toRow(s)), [counted]);
  const rows = useMemo(() => sortRows(filterRows(all, filters), sort), [all, filters, sort]);
  const deletable = rows.filter((r) => !isOpen(r));

  const command = async (verb: CommandVerb, ids: number[]) => {
    const r = await api.performSessionListCommand(SessionListCommandType[verb], ids);
    showInfo(commandSuccessText(verb));
    reload();
    return r;
  };
  const attempt = async (verb: CommandVerb, ids: number[]) => {
    try {
      return await command(verb, ids);
    } catch (e) {
      reportError(e, { prefix: commandFailureText(verb, '') });
      return null;
    }
  };

  return (
    <div className="sessions-page" data-testid="sessions-page">
      <div className="page-header">
        <h1>Sessions</h1>
        <button type="button" className="button danger" onClick={() => setDialog({ kind: 'deleteFilter' })} disabled={loading && !sessions.length}>
          Delete sessions in filter
        </button>
      </div>
      <SessionGrid
        columns={columns}
        rows={rows}
        total={all.length}
        sort={sort}
        onSort={(key) => setSort((s) => nextSort(s, key))}
        filters={filters}
        onFilter={(key, text) => setFilters((f) => ({ ...f, [key]: text }))}
        loading={loading}
        onOpen={(row) => void attempt('OPEN', [row.id]).then((r) => r && navigate(`/targets/${row.id}`))}
        onExport={(row) => void attempt('EXPORT', [row.id]).then((r) => r?.DownloadUrls.forEach((url) => downloadUrl(url)))}
        onDelete={(row) => setDialog({ kind: 'deleteOne', row })}
      />
      {dialog?.kind === 'deleteOne' && (
        <ConfirmDialog
          confirmation={{
            title: 'Delete Session',
            message: `Delete the session of ${dialog.row.text.TargetName} (${dialog.row.text.Start} to ${dialog.row.text.End}) with its samples, hosts, comments and route changes? This cannot be undone.`,
            confirmLabel: 'Delete',
          }}
          onCancel={() => setDialog(null)}
          onConfirm={() => {
            setDialog(null);
            void attempt('DELETE', [dialog.row.id]);
          }}
        />
      )}
      {dialog?.kind === 'deleteFilter' && (
        <DeleteInFilterDialog
          count={deletable.length}
          openKept={rows.length - deletable.length}
          onClose={() => setDialog(null)}
          onDelete={async () => {
            await command('DELETE', deletable.map((r) => r.id));
            setDialog(null);
          }}
        />
      )}
    </div>
  );
}

