// The summary screen (spec 2 "Summary routes"), also the home container (spec 1: "/" shows
// All Targets with the target entry above it). Title with rename, delete and the view-link
// menu; the control panel of the target window (entry, play/pause of the selected targets,
// Reset And Restart for the selection through ResetAndRestartForSummary); the summary grid
// (one row per target, its final hop's figures; Summary-Columns, default_summary_sort_order);
// the draggable splitter (Summary-Pane-Splitter-Height); one timeline graph per target with
// the link to /targets/{id} and the target's comments. Live through the summary's hub group (useSummaryRows). This
// component wires the hooks into the parts; it fetches, subscribes and persists nothing itself.
import { useAtom, useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Claim } from '../../../server/contract/account';
import { LocalMachineAgentId } from '../../../server/contract/sessions';
import type { TargetRow } from '../../../server/contract/targets';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { errorMessage } from '../api/errors';
import { invoke } from '../hub/connection';
import { useDocumentTitle } from '../shell/documentTitle';
import { reportError } from '../state/reportError';
import { showInfo, showToast } from '../state/toasts';
import { currentUserAtom } from '../state/user';
import * as targetApi from '../target/api';
import { ControlPanel } from '../target/ControlPanel';
import { moveColumn, resizeColumn, setColumnVisible } from '../target/logic/columnPrefs';
import { FocusMode } from '../target/logic/constants';
import { formatDurationShort } from '../target/logic/duration';
import { graphTimeReducer, initialGraphTimeState, statsRange } from '../target/logic/graphTimeState';
import { entryReducer, initialEntryState, playAction } from '../target/logic/playAction';
import { sessionIdOf } from '../target/logic/rowId';
import { useTracedTargetLookup } from '../target/useTracedTargetLookup';
import { formatTimeRangeText } from '../target/logic/timeRangeText';
import { TraceGrid } from '../target/TraceGrid';
import { useAgentsAndConfigurations } from '../target/useAgentsAndConfigurations';
import { toastCapacityAfterStart, toastStartFailure } from '../target/capacityToasts';
import { useColumns, type ColumnSource } from '../target/useColumns';
import { useDisplaySettings } from '../target/useDisplaySettings';
import { useRowSelection } from '../target/useRowSelection';
import { SplitterPx, useSplitter } from '../target/useSplitter';
import { AddTargetsButton } from './AddTargetsButton';
import { addHost, closeSummary, summaryGridColumnDefs } from './api';
import { sortOrderAfterHeaderClick, sortSummaryRows } from './logic/summarySort';
import {
  canChangeTargets,
  deleteSummaryConfirmation,
  selectedRows,
  selectedTargetIds,
  selectionName,
  summaryDeletedMessage,
  summaryHeadingText,
} from './logic/summaryRules';
import { summaryColumnsAtom, summarySortAtom, summarySplitterAtom } from './prefs';
import { RenameSummaryDialog } from './RenameSummaryDialog';
import { SummaryGraph } from './SummaryGraph';
import { SummaryHeading } from './SummaryHeading';
import { AlertsSidebar } from '../alerts/AlertsSidebar';
import { useAlertsSidebarVisible } from '../alerts/useAlertsSidebarVisible';
import { useSidebarWidth } from '../alerts/useSidebarWidth';
import { SummaryRowMenu } from './SummaryRowMenu';
import { TracedTargetDialog } from '../target/TracedTargetDialog';
import { useSummary } from './useSummary';
import { useSummaryRows } from './useSummaryRows';
import { useConfigurationScales } from './useConfigurationScales';
import { fixedScaleOf, rowScaleSetting, summaryScaleSetting } from './logic/summaryScale';
import '../target/target.css';
import './summary.css';

const KnownAgents = [{ id: LocalMachineAgentId, online: true }];
const summaryColumns: ColumnSource = { prefsAtom: summaryColumnsAtom, load: summaryGridColumnDefs };

export function SummaryWindow({ summaryId, home = false }: { summaryId: string; home?: boolean }) {
  const navigate = useNavigate();
  const claims = useAtomValue(currentUserAtom)?.Claims ?? [];
  const canManage = claims.includes(Claim.TargetManagement);
  const [time, dispatch] = useReducer(graphTimeReducer, Date.now(), initialGraphTimeState);
  useEffect(() => dispatch({ type: 'reset', nowMs: Date.now() }), [summaryId]);
  const onFocus = useCallback((text: string) => dispatch({ type: 'pickFocus', text }), []);

  const { state: summaryState, summary, list: summaries } = useSummary(summaryId);
  const focus = statsRange(time);
  const onNewSamples = useCallback((newestMs: number) => dispatch({ type: 'newData', newestMs }), []);
  const { rows: rowsState, refresh } = useSummaryRows(summaryId, focus, onNewSamples);
  const result = rowsState.status === 'ready' ? rowsState.result : null;
  const notFound = summaryState.status === 'notFound' || rowsState.status === 'notFound';
  const heading = home ? 'All Targets' : summaryHeadingText({ summaryId, summary, notFound });
  useDocumentTitle(heading);

  // Data times from the rows: the oldest first sample and the newest sample of the targets.
  const newestMs = Math.max(0, ...(result?.Rows ?? []).map((r) => Date.parse(r.TraceEnd ?? '') || 0));
  const oldestMs = Math.min(Infinity, ...(result?.Rows ?? []).map((r) => Date.parse(r.TraceStart ?? '') || Infinity));
  useEffect(() => {
    if (newestMs > 0) dispatch({ type: 'newData', newestMs, oldestMs: Number.isFinite(oldestMs) ? oldestMs : null });
  }, [newestMs, oldestMs]);

  const [sort, setSort] = useAtom(summarySortAtom);
  const rows = useMemo(() => sortSummaryRows(result?.Rows ?? [], sort), [result, sort]);
  const { agents, agent, chooseAgent, settingsList } = useAgentsAndConfigurations();
  // Graph scale: each target's graph its own configuration's, the grid's the one they share.
  const scales = useConfigurationScales(settingsList);
  const { warnMs, badMs, scale } = useDisplaySettings(result, summaryScaleSetting(rows.map((r) => r.Columns.ConfigName), scales));
  const { columns, updateColumns } = useColumns(summaryId, summaryColumns);
  const rowIds = useMemo(() => rows.map((r) => r.UniqueID), [rows]);
  const selection = useRowSelection(rowIds, true);
  const [alertsShown, toggleAlerts] = useAlertsSidebarVisible();
  const alertsSize = useSidebarWidth();
  const chosen = selectedRows(rows, selection.selection);
  const chosenIds = selectedTargetIds(selection.selection);
  const [intervalMs, setIntervalMs] = useState(2500);
  // The grid is no taller than its rows need (header 34 px, rows 30 px, room for a horizontal scrollbar).
  const splitter = useSplitter(!!result, rows.length, summarySplitterAtom, 34 + 30 * rows.length + 36);

  // Entry and play: with rows selected the play button pauses or resumes them; typed text starts a trace.
  const [entry, entryEvent] = useReducer(entryReducer, initialEntryState);
  const running = chosen.length > 0 && chosen.every((r) => r.IsRunning);
  const editable = chosen.length > 0 && chosen.every((r) => r.Editable);
  const play = playAction({ hasTarget: chosen.length > 0, newTargetMode: selection.newTargetMode, running, entryText: entry.text, targetName: '' });
  const [traced, setTraced] = useState<{ row: TargetRow; text: string } | null>(null);

  const start = async (target: string) => {
    try {
      const answer = await targetApi.newTarget({ target, traceIntervalMs: intervalMs, agentId: agent?.ID }).catch((e) => void toastStartFailure(e, agent?.ID));
      if (!answer) return;
      void toastCapacityAfterStart(agent?.ID);
      // Started from a named summary: the new target joins it (All Targets shows it anyway).
      if (summary && canChangeTargets(summary)) await addHost(summaryId, String(answer.ID));
      // Spec 2 section 4: starting a trace on a list screen opens the new target.
      navigate(`/targets/${answer.ID}`);
    } catch (e) {
      showToast('error', errorMessage(e) || 'Unknown string');
    }
  };
  const lookupTraced = useTracedTargetLookup();
  const startOrOffer = async (target: string) => {
    const row = await lookupTraced(target);
    if (row) setTraced({ row, text: target });
    else void start(target);
  };
  const forEachChosen = (call: (id: string) => Promise<unknown>) =>
    Promise.all(chosenIds.map(call)).then(refresh, (e) => (reportError(e), refresh()));
  const onPlay = () => {
    if (play === 'start') return void startOrOffer(entry.text.trim());
    void forEachChosen(play === 'pause' ? targetApi.stopTrace : targetApi.resumeTrace);
  };

  const [rowMenu, setRowMenu] = useState<{ x: number; y: number; row: TargetRow } | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const allTargetsId = summaries.find((s) => s.IsAllTargets)?.UniqueID;
  const shownTargets = useMemo(() => new Set(rows.map((r) => sessionIdOf(r.UniqueID))), [rows]);

  const focusText = time.focusMode === FocusMode.AllSamples ? 'All' : time.focusMode === FocusMode.Viewport ? 'Auto' : formatDurationShort(time.statsPeriodMs);
  const graphed = useMemo(() => new Set(rowIds), [rowIds]);
  const { gridHeight, graphsHeight, graphHeight } = splitter;
  const [graphsPane, setGraphsPane] = useState<HTMLDivElement | null>(null);
  const name = summary?.Name ?? heading;
  const alertsOpen = alertsShown && claims.includes(Claim.AlertsManagement);

  return (
    // The sidebar is fixed to the right edge: the window keeps its width free beside the grid.
    <div className="target-window summary-window" data-summary-id={summaryId} style={alertsOpen ? { marginRight: alertsSize.width } : undefined}>
      <SummaryHeading
        title={heading}
        summary={summary}
        targetCount={rows.length}
        onRename={() => setRenaming(true)}
        onDelete={() => setDeleting(true)}
        alertsVisible={alertsShown}
        onToggleAlerts={toggleAlerts}
      />
      {alertsOpen && <AlertsSidebar selection={selection.selection} size={alertsSize} />}

      <ControlPanel
        entryText={entry.text}
        onEntryText={(text) => entryEvent({ type: 'typed', text })}
        onStart={(t) => void startOrOffer(t)}
        canManageTargets={canManage}
        canSetAccountDefault={claims.includes(Claim.UserManagement)}
        running={running}
        hasTarget={chosen.length > 0}
        onPlay={onPlay}
        playStarts={play === 'start'}
        onResetAndRestart={() =>
          invoke('ResetAndRestartForSummary', chosenIds, summaryId).then(() => (selection.releaseFocus(), refresh()), (e) => reportError(e))
        }
        onNewTarget={() => (selection.releaseFocus(), entryEvent({ type: 'cleared' }))}
        onClose={() => void forEachChosen(targetApi.closeTarget)}
        targetName={selectionName(chosen)}
        rowEditable={editable}
        selectionCount={selection.selection.length}
        onReleaseFocus={() => (selection.releaseFocus(), entryEvent({ type: 'cleared' }))}
        intervalMs={intervalMs}
        onInterval={(ms) => {
          setIntervalMs(ms);
          if (chosenIds.length > 0) void Promise.all(chosenIds.map((id) => targetApi.updateTraceInterval(id, ms))).then(refresh, (e) => showToast('error', errorMessage(e)));
        }}
        focusText={focusText}
        onFocus={onFocus}
        warnMs={warnMs}
        badMs={badMs}
        rangeText={formatTimeRangeText(focus.startMs, focus.endMs)}
        agents={agents}
        agent={agent}
        onAgent={chooseAgent}
        settingsList={settingsList}
        configId={null}
        onConfiguration={(configId) =>
          void Promise.all(chosenIds.map((id) => targetApi.updateConfigurationId(id, configId))).then(refresh, (e) => showToast('error', errorMessage(e)))
        }
        columns={columns}
        onToggleColumn={(n, visible) => updateColumns(setColumnVisible(columns, n, visible))}
      />

      {summary && canChangeTargets(summary) && (
        <div className="summary-tools">
          <AddTargetsButton summary={summary} allTargetsId={allTargetsId} shown={shownTargets} onAdded={refresh} />
        </div>
      )}

      {notFound ? (
        <div className="target-empty">
          <p>This summary does not exist, or it belongs to another account.</p>
        </div>
      ) : rowsState.status === 'failed' ? (
        <div className="target-empty error">Error loading data: {rowsState.message}</div>
      ) : result && rows.length === 0 ? (
        <div className="target-empty" data-testid="summary-empty">
          {home ? (
            <>
              <h2>Start a trace</h2>
              <p>Type a host name or IP address above and press Enter. Every running and paused target of the account shows here, one row each.</p>
            </>
          ) : (
            <p>This summary has no targets yet. Start a trace above, or use Add targets, or "Add to {name}" in a row's menu on All Targets.</p>
          )}
        </div>
      ) : (
        <div className="target-panes" ref={splitter.panes}>
          {result && columns.length > 0 ? (
            <div className="grid-pane" style={{ height: gridHeight }}>
              <TraceGrid
                rows={rows}
                columns={columns}
                selection={selection.selection}
                warnMs={warnMs}
                badMs={badMs}
                scaleMaxMs={scale.maxMs}
                scaleFixed={scale.fixed}
                height={gridHeight}
                graphed={graphed}
                onRowClick={selection.clickRow}
                onRowContextMenu={(row, x, y) => setRowMenu({ row, x, y })}
                onColumnResize={(n, w) => updateColumns(resizeColumn(columns, n, w))}
                onColumnMove={(from, to) => updateColumns(moveColumn(columns, columns.findIndex((c) => c.Name === from), columns.findIndex((c) => c.Name === to)))}
                agents={KnownAgents}
                onSelectAll={selection.selectAll}
                sort={sort}
                onHeaderClick={(column) => setSort(sortOrderAfterHeaderClick(sort, column))}
              />
            </div>
          ) : (
            <div className="grid-pane loading" style={{ height: gridHeight }}>
              Loading targets…
            </div>
          )}
          <div className="splitter" role="separator" aria-orientation="horizontal" title="Drag to resize" onMouseDown={splitter.startDrag} style={{ height: SplitterPx }} />
          <div className="graphs-pane" ref={setGraphsPane} style={{ height: graphsHeight }}>
            {rows.map((row) => (
              <SummaryGraph
                key={row.UniqueID}
                row={row}
                time={time}
                dispatch={dispatch}
                warnMs={warnMs}
                badMs={badMs}
                fixedScaleMs={fixedScaleOf(rowScaleSetting(row.Columns.ConfigName, scales))}
                height={graphHeight}
                canComment={canManage}
                pane={graphsPane}
              />
            ))}
          </div>
        </div>
      )}

      {rowMenu && (
        <SummaryRowMenu
          {...rowMenu}
          summary={summary}
          summaries={summaries}
          canManageTargets={canManage}
          onChanged={refresh}
          onClose={() => setRowMenu(null)}
        />
      )}
      {traced && (
        <TracedTargetDialog
          row={traced.row}
          onCancel={() => setTraced(null)}
          onOpen={() => navigate(`/targets/${sessionIdOf(traced.row.UniqueID)}`)}
          onStartAnother={() => {
            const text = traced.text;
            setTraced(null);
            void start(text);
          }}
        />
      )}
      {renaming && summary && <RenameSummaryDialog summaryId={summaryId} name={summary.Name} onClose={() => setRenaming(false)} />}
      {deleting && summary && (
        <ConfirmDialog
          confirmation={deleteSummaryConfirmation(summary.Name)}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            closeSummary(summaryId).then(() => {
              showInfo(summaryDeletedMessage(summary.Name));
              navigate('/summary');
            }, (e) => reportError(e));
          }}
        />
      )}
    </div>
  );
}
