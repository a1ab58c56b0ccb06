// The target window (spec 2 "Target window", /targets/{id} and /targets/ for a new target):
// heading, control panel, the trace grid, a draggable splitter and a timeline graph per
// visible hop. The graph time state (logic/graphTimeState) drives both the grid's statistics
// focus and the graphs' viewport. This component only wires the window's hooks together and
// lays it out; each hook has one job (web/README.md, "How a screen is laid out").
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Claim } from '../../../server/contract/account';
import type { Comment } from '../../../server/contract/summaries';
import type { TargetRow } from '../../../server/contract/targets';
import { errorMessage } from '../api/errors';
import { invoke } from '../hub/connection';
import { reportError } from '../state/reportError';
import { showToast } from '../state/toasts';
import { currentUserAtom } from '../state/user';
import * as api from './api';
import { CommentDialog } from './CommentDialog';
import { ControlPanel } from './ControlPanel';
import { HostValueDialog } from './HostValueDialog';
import { hostLabel } from './hostLabel';
import { moveColumn, resizeColumn, setColumnVisible } from './logic/columnPrefs';
import { FocusMode } from './logic/constants';
import { formatDurationShort } from './logic/duration';
import { graphTimeReducer, initialGraphTimeState, statsRange, viewportRange } from './logic/graphTimeState';
import { entryReducer, initialEntryState, playAction } from './logic/playAction';
import { isHeaderRow, sessionIdOf } from './logic/rowId';
import { mutedLossRows } from './logic/mutedLoss';
import { TracedTargetDialog } from './TracedTargetDialog';
import { useTracedTargetLookup } from './useTracedTargetLookup';
import { formatTimeRangeText } from './logic/timeRangeText';
import { forgetOpenTarget } from './openTarget';
import { RowMenu, type HostEdit } from './RowMenu';
import { TargetHeading } from './TargetHeading';
import { AlertsSidebar } from '../alerts/AlertsSidebar';
import { useAlertsSidebarVisible } from '../alerts/useAlertsSidebarVisible';
import { useSidebarWidth } from '../alerts/useSidebarWidth';
import { TimelineGraph, type CommentAction } from './TimelineGraph';
import { TraceGrid } from './TraceGrid';
import { useAgentsAndConfigurations } from './useAgentsAndConfigurations';
import { useColumns } from './useColumns';
import { useComments } from './useComments';
import { useDisplaySettings } from './useDisplaySettings';
import { useDrawnSignal } from './useDrawnSignal';
import { useRowSelection } from './useRowSelection';
import { SplitterPx, useSplitter } from './useSplitter';
import { useTargetRows } from './useTargetRows';
import { useTraceInterval } from './useTraceInterval';
import { useVisibleGraphs } from './useVisibleGraphs';
import { useFocusPerTarget } from './useFocusPerTarget';
import { useDocumentTitle } from '../shell/documentTitle';
import { targetHeadingText } from './logic/targetHeading';
import { graphAgent, isMultiAgent, traceAgent, traceColumnDefs, type TraceAgent } from './logic/traceAgent';
import { AgentName } from './AgentName';
import { hideAgentNameAtom } from './prefs';
import { toastCapacityAfterStart, toastStartFailure } from './capacityToasts';
import { useTimegraphOptions } from '../settings/useTimegraphOptions';
import type { TargetNavigationState } from './navigationState';
import { InsightsPanel } from '../insights/InsightsPanel';
import { usePanelLayout } from '../insights/usePanelLayout';
import type { RowDecoration } from '../insights/logic/results';
import '../insights/insights.css';

/** A timeline graph's subtitle: its configuration, and its agent where graphs show one (Settings > General may hide either). */
function GraphSubtitle({ configName, agent }: { configName: string; agent: TraceAgent | null }) {
  return (
    <>
      {configName}
      {agent && (
        <>
          {configName && ' · '}
          <AgentName agent={agent} />
        </>
      )}
    </>
  );
}

export function TargetWindow({ targetId }: { targetId?: string }) {
  const navigate = useNavigate();
  const claims = useAtomValue(currentUserAtom)?.Claims ?? [];
  // Settings > General: always hide the setting name / the agent name on the time graphs.
  const timegraphOptions = useTimegraphOptions();
  const canManage = claims.includes(Claim.TargetManagement);
  const [time, dispatch] = useReducer(graphTimeReducer, Date.now(), initialGraphTimeState);
  useEffect(() => dispatch({ type: 'reset', nowMs: Date.now() }), [targetId]);
  // After the reset above: the Focus choice kept for this target lands on the reset state.
  const onFocus = useFocusPerTarget(targetId, dispatch);

  const focus = statsRange(time);
  const onNewSamples = useCallback((newestMs: number) => dispatch({ type: 'newData', newestMs }), []);
  const { rows: rowsState, refresh } = useTargetRows(targetId, focus, onNewSamples);
  const result = rowsState.status === 'ready' ? rowsState.result : null;
  const rows = result?.Rows ?? [];
  // Hops whose loss is not loss on the path (a silent or rate-limiting router): shown muted in
  // the grid and the graphs by the rule Insights uses (issue 41 item 1).
  const mutedLoss = useMemo(() => mutedLossRows(result?.Rows ?? []), [result]);
  const details = result?.Details ?? null;
  const notFound = rowsState.status === 'notFound';
  const heading = targetHeadingText({ targetId, notFound, details });
  useDocumentTitle(heading);

  // Data times from the server: the oldest and newest samples.
  useEffect(() => {
    if (!details?.LatestSample) return;
    dispatch({ type: 'newData', newestMs: Date.parse(details.LatestSample), oldestMs: details.FirstSample ? Date.parse(details.FirstSample) : null });
  }, [details?.LatestSample, details?.FirstSample]);

  const { warnMs, badMs, scale, fixedScaleMs } = useDisplaySettings(result);
  const { columns, updateColumns } = useColumns(targetId);
  const rowIds = useMemo(() => rows.map((r) => r.UniqueID), [rows]);
  const selection = useRowSelection(rowIds);
  const [alertsShown, toggleAlerts] = useAlertsSidebarVisible();
  const alertsSize = useSidebarWidth();
  const { graphHops, pinnedHops, setGraphVisible } = useVisibleGraphs(targetId, rows, selection.clickedRows);
  // The session's agent: "via {agent}" with its offline marker, the heading's badge, the Agent
  // picker's choice while the target is open; in multi-agent mode also the Agent column and
  // the agent name on each graph (logic/traceAgent).
  const { agents, agent, chooseAgent, settingsList } = useAgentsAndConfigurations(details ? { agentId: details.HubSentinelID, serverName: rows[0]?.Columns.Agent } : null, targetId);
  const sessionAgent = details ? traceAgent(details.HubSentinelID, agents, rows[0]?.Columns.Agent) : null;
  const multiAgent = isMultiAgent(agents);
  const knownAgents = useMemo(() => agents.map((a) => ({ id: a.ID, online: a.IsOnline })), [agents]);
  const hideAgentName = useAtomValue(hideAgentNameAtom);
  const shownColumns = useMemo(() => traceColumnDefs(columns, multiAgent), [columns, multiAgent]);
  const { intervalMs, chooseInterval } = useTraceInterval(targetId, details?.TraceInterval);
  const { comments, reload: reloadComments } = useComments(targetId, time);
  const hasTarget = !!targetId && !!details;
  const splitter = useSplitter(hasTarget, graphHops.length);
  const drawn = useDrawnSignal(targetId, rows, graphHops);

  // Entry text and the play button.
  const targetName = details ? details.TargetDescription || details.TargetDNSName || details.TargetIPAddress : '';
  const [entry, entryEvent] = useReducer(entryReducer, initialEntryState);
  useEffect(() => entryEvent({ type: 'targetName', name: targetName }), [targetName]);
  const running = !!details?.IsRunning;
  const play = playAction({ hasTarget, newTargetMode: selection.newTargetMode, running, entryText: entry.text, targetName });

  const lookupTraced = useTracedTargetLookup();
  const [traced, setTraced] = useState<{ row: TargetRow; text: string } | null>(null);
  /** Enter or Start: a target the account already traces is offered to open instead (issue 18). */
  const startOrOffer = async (target: string) => {
    const row = await lookupTraced(target);
    if (row) setTraced({ row, text: target });
    else void start(target);
  };
  const start = async (target: string) => {
    try {
      const answer = await api.newTarget({ target, traceIntervalMs: intervalMs, configId: details?.ConfigurationID, agentId: agent?.ID });
      if (answer) {
        selection.leaveNewTargetMode();
        navigate(`/targets/${answer.ID}`);
        void toastCapacityAfterStart(agent?.ID);
      }
    } catch (e) {
      void toastStartFailure(e, agent?.ID);
    }
  };
  const onPlay = () => {
    if (play === 'start') return void startOrOffer(entry.text.trim());
    if (!targetId) return;
    (play === 'pause' ? api.stopTrace(targetId) : api.resumeTrace(targetId)).then(refresh, (e) => reportError(e));
  };

  // Dialogs and the row menu.
  const [commentEdit, setCommentEdit] = useState<{ comment?: Comment; atMs: number } | null>(null);
  const onComment = (a: CommentAction) => {
    if (a.kind === 'create') setCommentEdit({ atMs: a.atMs });
    else if (a.kind === 'edit') setCommentEdit({ comment: a.comment, atMs: Date.parse(a.comment.When) });
    else if (window.confirm(`Delete the comment "${a.comment.Text}"?`)) {
      api.deleteComment(targetId!, a.comment.Id).then(reloadComments, (e) => reportError(e));
    }
  };
  const [rowMenu, setRowMenu] = useState<{ x: number; y: number; row: TargetRow } | null>(null);
  const [hostEdit, setHostEdit] = useState<HostEdit | null>(null);

  const focusText = time.focusMode === FocusMode.AllSamples ? 'All' : time.focusMode === FocusMode.Viewport ? 'Auto' : formatDurationShort(time.statsPeriodMs);
  const graphed = useMemo(() => new Set(graphHops.map((h) => `${targetId}_h_${h}`)), [graphHops, targetId]);
  const { gridHeight, graphsHeight, graphHeight } = splitter;

  // Insights: the panel (visibility and width kept per session), opened with an auto-run by
  // navigation state { runInsights: true } (e.g. right after a data file import).
  const location = useLocation();
  const runInsights = !!(location.state as TargetNavigationState | null)?.runInsights;
  const panel = usePanelLayout();
  useEffect(() => {
    if (runInsights) panel.setVisible(true);
  }, [runInsights, panel.setVisible]);
  const [decorations, setDecorations] = useState<Map<string, RowDecoration>>(new Map());
  const lastHop = rows.reduce((m, r) => (isHeaderRow(r.UniqueID) ? m : Math.max(m, r.HopNum)), 0);
  const insightsOpen = panel.visible && hasTarget;
  const alertsOpen = alertsShown && claims.includes(Claim.AlertsManagement);
  // The panels are fixed to the right edge: the window keeps their widths free beside the grid.
  const besidePanels = (insightsOpen ? panel.width : 0) + (alertsOpen ? alertsSize.width : 0);

  return (
    <div className="target-window" ref={drawn.root} style={besidePanels ? { marginRight: besidePanels } : undefined}>
      <TargetHeading targetId={targetId} notFound={notFound} details={details} intervalMs={intervalMs} view={viewportRange(time)} focus={focus} agent={sessionAgent} insightsOpen={insightsOpen} onInsights={panel.setVisible} alertsVisible={alertsShown} onToggleAlerts={toggleAlerts} />
      {insightsOpen && targetId && (
        <InsightsPanel
          targetId={targetId}
          targetName={heading}
          lastHop={lastHop}
          width={panel.width}
          onWidth={panel.setWidth}
          onClose={() => {
            panel.setVisible(false);
            setDecorations(new Map());
          }}
          statsRange={focus}
          onSelectRange={(startMs, endMs) => dispatch({ type: 'selectRange', startMs, endMs })}
          onDecorations={setDecorations}
          autoRun={runInsights}
        />
      )}
      {alertsOpen && (
        <AlertsSidebar selection={selection.selection.length ? selection.selection : targetId ? [`${targetId}_h_0`] : []} size={alertsSize} right={insightsOpen ? panel.width : 0} />
      )}

      <ControlPanel
        entryText={entry.text}
        onEntryText={(text) => entryEvent({ type: 'typed', text })}
        onStart={(t) => void startOrOffer(t)}
        canManageTargets={canManage}
        canSetAccountDefault={claims.includes(Claim.UserManagement)}
        running={running}
        hasTarget={hasTarget}
        onPlay={onPlay}
        playStarts={play === 'start'}
        onResetAndRestart={() => invoke('ResetAndRestart', targetId!).then((a) => navigate(`/targets/${a.ID}`), (e) => reportError(e))}
        onNewTarget={() => navigate('/targets/')}
        onClose={() =>
          api.closeTarget(targetId!).then(() => {
            forgetOpenTarget(targetId!);
            navigate('/');
          }, (e) => reportError(e))
        }
        rowEditable={details?.Editable ?? false}
        selectionCount={selection.selection.length}
        onReleaseFocus={() => {
          selection.releaseFocus();
          entryEvent({ type: 'cleared' });
        }}
        intervalMs={intervalMs}
        onInterval={(ms) => {
          chooseInterval(ms);
          if (targetId && !notFound) api.updateTraceInterval(targetId, ms).then(refresh, (e) => showToast('error', errorMessage(e)));
        }}
        focusText={focusText}
        onFocus={onFocus}
        targetName={details ? heading : undefined}
        warnMs={warnMs}
        badMs={badMs}
        rangeText={formatTimeRangeText(focus.startMs, focus.endMs)}
        agents={agents}
        agent={agent}
        onAgent={chooseAgent}
        settingsList={settingsList}
        configId={details?.ConfigurationID ?? null}
        onConfiguration={(configId) => {
          if (!targetId) return;
          api.updateConfigurationId(targetId, configId).then(refresh, (e) => showToast('error', errorMessage(e)));
        }}
        columns={shownColumns}
        onToggleColumn={(name, visible) => updateColumns(setColumnVisible(columns, name, visible))}
      />

      {!targetId ? (
        <div className="target-empty">
          <h2>Start a trace</h2>
          <p>Type a host name or IP address above and press Enter. Hopwatch traces every hop on the way and keeps the history.</p>
        </div>
      ) : notFound ? (
        <div className="target-empty">
          <p>This target does not exist, or it belongs to another account. Start a new trace above.</p>
        </div>
      ) : rowsState.status === 'failed' ? (
        <div className="target-empty error">Error loading data: {rowsState.message}</div>
      ) : (
        <div className="target-panes" ref={splitter.panes}>
          {result && shownColumns.length > 0 ? (
            <div className="grid-pane" style={{ height: gridHeight }}>
              <TraceGrid
                rows={rows}
                columns={shownColumns}
                selection={selection.selection}
                warnMs={warnMs}
                badMs={badMs}
                scaleMaxMs={scale.maxMs}
                scaleFixed={scale.fixed}
                height={gridHeight}
                graphed={graphed}
                onRowClick={selection.clickRow}
                onRowContextMenu={(row, x, y) => setRowMenu({ row, x, y })}
                onColumnResize={(name, w) => updateColumns(resizeColumn(columns, name, w))}
                onColumnMove={(from, to) => updateColumns(moveColumn(columns, columns.findIndex((c) => c.Name === from), columns.findIndex((c) => c.Name === to)))}
                onLastRowPainted={drawn.onGridPainted}
                agents={knownAgents}
                onSelectAll={selection.selectAll}
                decorations={decorations}
                mutedLoss={mutedLoss}
              />
            </div>
          ) : (
            <div className="grid-pane loading" style={{ height: gridHeight }}>
              Loading hops…
            </div>
          )}
          <div className="splitter" role="separator" aria-orientation="horizontal" title="Drag to resize" onMouseDown={splitter.startDrag} style={{ height: SplitterPx }} />
          <div className="graphs-pane" style={{ height: graphsHeight }}>
            {result && rows.length > 1 && graphHops.length === 0 && <div className="graphs-empty">Waiting for the first trace round…</div>}
            {result &&
              graphHops.map((hop) => {
                const row = rows.find((r) => r.HopNum === hop && !isHeaderRow(r.UniqueID));
                if (!row) return null;
                return (
                  <TimelineGraph
                    key={row.UniqueID}
                    rowId={row.UniqueID}
                    title={`Hop ${hop}: ${hostLabel(row)}`}
                    subtitle={
                      <GraphSubtitle
                        configName={timegraphOptions.hideSettingName ? '' : (row.Columns.ConfigName ?? '')}
                        agent={timegraphOptions.hideAgentName || !sessionAgent ? null : graphAgent(sessionAgent, multiAgent, hideAgentName)}
                      />
                    }
                    state={time}
                    dispatch={dispatch}
                    warnMs={warnMs}
                    badMs={badMs}
                    fixedScaleMs={fixedScaleMs}
                    height={graphHeight}
                    comments={comments}
                    canComment={canManage}
                    onComment={onComment}
                    reloadToken={0}
                    intervalMs={intervalMs}
                    onDrawnWithData={drawn.onGraphDrawn}
                    lossMuted={mutedLoss.get(row.UniqueID)}
                  />
                );
              })}
          </div>
        </div>
      )}

      {rowMenu && (
        <RowMenu
          {...rowMenu}
          targetId={targetId}
          graphShown={(hop) => graphHops.includes(hop)}
          graphPinned={(hop) => pinnedHops.includes(hop)}
          onGraphVisible={setGraphVisible}
          onEditHost={setHostEdit}
          onChanged={refresh}
          onClose={() => setRowMenu(null)}
        />
      )}
      {traced && (
        <TracedTargetDialog
          row={traced.row}
          onCancel={() => setTraced(null)}
          onOpen={() => (setTraced(null), navigate(`/targets/${sessionIdOf(traced.row.UniqueID)}`))}
          onStartAnother={() => (setTraced(null), void start(traced.text))}
        />
      )}
      {hostEdit && <HostValueDialog {...hostEdit} onClose={() => (setHostEdit(null), refresh())} />}
      {commentEdit && targetId && <CommentDialog targetId={targetId} comment={commentEdit.comment} atMs={commentEdit.atMs} onClose={() => (setCommentEdit(null), reloadComments())} />}
    </div>
  );
}
