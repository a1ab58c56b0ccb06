// The target window (spec 2 "Target window", /targets/{id} and /targets/ for a new target):
// heading, control panel, the trace grid, a draggable splitter and a timeline graph per
// visible hop. The graph time state (logic/graphTimeState) drives both the grid's statistics
// focus and the graphs' viewport.
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Claim, Flag } from '../../../server/contract/account';
import { LocalMachineAgentId, LocalMachineAgentName } from '../../../server/contract/sessions';
import type { Comment, DisplaySettings } from '../../../server/contract/summaries';
import type { ColumnDef, TargetRow } from '../../../server/contract/targets';
import { DefaultTraceIntervalMs } from '../../../server/contract/targets';
import { errorMessage } from '../api/errors';
import { invoke, keepRegistered, subscribe } from '../hub/connection';
import { reportError } from '../state/reportError';
import { showInfo, showToast } from '../state/toasts';
import { currentUserAtom } from '../state/user';
import * as api from './api';
import { copyText } from './clipboard';
import { CommentDialog } from './CommentDialog';
import { ControlPanel } from './ControlPanel';
import { HostValueDialog } from './HostValueDialog';
import { applyColumnPrefs, moveColumn, parseStoredColumnPrefs, resizeColumn, serializeColumnPrefs, setColumnVisible } from './logic/columnPrefs';
import { DisplaySettingsDefaults, FocusMode, StorageKeys, visibleGraphsStorageKey } from './logic/constants';
import { formatDurationShort } from './logic/duration';
import { dataRangeToLoad } from './logic/graphDataRange';
import { graphTimeReducer, initialGraphTimeState, statsRange } from './logic/graphTimeState';
import { maxMeasuredLatency, nextLatencyScale, InitialLatencyScaleState, type LatencyScale } from './logic/latencyScale';
import { isHeaderRow, parseRowId } from './logic/rowId';
import { selectionAfterClick, selectionAfterRowsChanged, type ClickModifiers } from './logic/rowSelection';
import { splitterFraction, timelineGraphHeight } from './logic/timelineLayout';
import { formatTimeRangeText } from './logic/timeRangeText';
import { chosenAgent, type AgentItem } from './logic/agentPicker';
import { entryReducer, initialEntryState, playAction } from './logic/playAction';
import { parseVisibleGraphs, serializeVisibleGraphs, toggleVisibleGraph, visibleGraphHosts } from './logic/visibleGraphs';
import { PopupMenu, type MenuItem } from './PopupMenu';
import { TimelineGraph, type CommentAction } from './TimelineGraph';
import { TraceGrid } from './TraceGrid';
import { useTargetRows } from './useTargetRows';
import { forgetOpenTarget } from './openTarget';

const SplitterPx = 8;
/** The agents this console knows: the appliance itself, online while it answers (remote agents come with CloudConnect). */
const KnownAgents = [{ id: LocalMachineAgentId, online: true }];
const hostLabel = (r: TargetRow) => (r.DNSName && r.DNSName !== r.IP ? `${r.DNSName} (${r.IP})` : r.IP || '*');

export function TargetWindow({ targetId }: { targetId?: string }) {
  const navigate = useNavigate();
  const user = useAtomValue(currentUserAtom);
  const claims = user?.Claims ?? [];
  const canManage = claims.includes(Claim.TargetManagement);
  const [time, dispatch] = useReducer(graphTimeReducer, Date.now(), initialGraphTimeState);
  useEffect(() => dispatch({ type: 'reset', nowMs: Date.now() }), [targetId]);

  const focus = statsRange(time);
  const onNewSamples = useCallback((newestMs: number) => dispatch({ type: 'newData', newestMs }), []);
  const { rows: rowsState, refresh } = useTargetRows(targetId, focus, onNewSamples);
  const result = rowsState.status === 'ready' ? rowsState.result : null;
  const rows = result?.Rows ?? [];
  const details = result?.Details ?? null;

  // Data times from the server: the oldest and newest samples.
  useEffect(() => {
    if (!details?.LatestSample) return;
    dispatch({ type: 'newData', newestMs: Date.parse(details.LatestSample), oldestMs: details.FirstSample ? Date.parse(details.FirstSample) : null });
  }, [details?.LatestSample, details?.FirstSample]);

  // Display settings of the target's configuration (Warn, Bad, Scale).
  const [display, setDisplay] = useState<DisplaySettings | null>(null);
  useEffect(() => {
    if (!details) return;
    api.displaySettings(details.ConfigurationID).then(setDisplay, (e) => console.warn('DisplaySettings failed', e));
  }, [details?.ConfigurationID]);
  const warnMs = result?.WarningSpeed ?? display?.Warn ?? DisplaySettingsDefaults.Warn;
  const badMs = result?.BadSpeed ?? display?.Bad ?? DisplaySettingsDefaults.Bad;

  // The Graph column's shared latency scale.
  const [scale, setScale] = useState<LatencyScale>(InitialLatencyScaleState);
  useEffect(() => {
    if (!result) return;
    setScale((s) =>
      nextLatencyScale(s, {
        configuredScale: display?.Scale ?? DisplaySettingsDefaults.Scale,
        targetGraphScale: result.GraphScale,
        maxLatencyOnScreenMs: maxMeasuredLatency(result.Rows.filter((r) => !isHeaderRow(r.UniqueID)).map((r) => r.Maximum)),
      }),
    );
  }, [result, display?.Scale]);

  // Columns: server defs under the user's Target-Columns preferences.
  const [columns, setColumns] = useState<ColumnDef[]>([]);
  useEffect(() => {
    if (!targetId) return;
    api.columnDefs(targetId).then(
      (defs) => setColumns(applyColumnPrefs(defs ?? [], parseStoredColumnPrefs(localStorage.getItem(StorageKeys.TargetColumns)))),
      () => undefined, // a missing target shows its own heading
    );
  }, [targetId]);
  const updateColumns = (next: ColumnDef[]) => {
    setColumns(next);
    localStorage.setItem(StorageKeys.TargetColumns, serializeColumnPrefs(next));
  };

  // Selection and new-target mode.
  const [selection, setSelection] = useState<readonly string[]>([]);
  const [newTargetMode, setNewTargetMode] = useState(false);
  const rowIds = useMemo(() => rows.map((r) => r.UniqueID), [rows]);
  useEffect(() => {
    setSelection((sel) => (newTargetMode ? sel.filter((id) => rowIds.includes(id)) : selectionAfterRowsChanged(sel, rowIds, false)));
  }, [rowIds, newTargetMode]);
  // Select All: every hop row, or none when they all are selected already.
  const selectAll = () => {
    const hops = rowIds.filter((id) => !isHeaderRow(id));
    setSelection((sel) => (hops.length > 0 && hops.every((id) => sel.includes(id)) ? [] : hops));
    setNewTargetMode(false);
  };
  const clickRow = (rowId: string, mods: ClickModifiers) => {
    setSelection((sel) => {
      const next = selectionAfterClick(sel, rowId, mods);
      if (next !== sel) setNewTargetMode(false);
      return next;
    });
  };

  // Visible graphs (Visible_Graphs_{targetId}).
  const [storedGraphs, setStoredGraphs] = useState<number[] | null>(null);
  useEffect(() => setStoredGraphs(targetId ? parseVisibleGraphs(localStorage.getItem(visibleGraphsStorageKey(targetId))) : null), [targetId]);
  const hopIds = useMemo(() => rows.filter((r) => !isHeaderRow(r.UniqueID)).map((r) => r.HopNum), [rows]);
  const graphHops = useMemo(() => visibleGraphHosts(storedGraphs, hopIds), [storedGraphs, hopIds]);
  const setGraphVisible = (hop: number, visible: boolean) => {
    const next = toggleVisibleGraph(graphHops, hop, visible);
    setStoredGraphs(next);
    if (targetId) localStorage.setItem(visibleGraphsStorageKey(targetId), serializeVisibleGraphs(next));
  };

  // Entry text and trace interval.
  const targetName = details ? details.TargetDescription || details.TargetDNSName || details.TargetIPAddress : '';
  const [entry, entryEvent] = useReducer(entryReducer, initialEntryState);
  const entryText = entry.text;
  useEffect(() => entryEvent({ type: 'targetName', name: targetName }), [targetName]);
  const [intervalMs, setIntervalMs] = useState(DefaultTraceIntervalMs);
  // The target whose interval the user chose: its details may answer after the choice (a
  // slow first load), and must not put the old interval back over the user's.
  const intervalChosenFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (details && intervalChosenFor.current !== targetId) setIntervalMs(Math.round(details.TraceInterval * 1000));
  }, [details?.TraceInterval]);

  // Agents (GetAgents) for the Agent picker and newtarget's agentID; configurations for the
  // Settings picker.
  const [agents, setAgents] = useState<AgentItem[]>([]);
  const [agentId, setAgentId] = useState<number | null>(null);
  const [settingsList, setSettingsList] = useState<api.SettingsListItem[]>([]);
  useEffect(() => {
    invoke<AgentItem[]>('GetAgents').then((list) => setAgents(list ?? []), (e) => console.warn('GetAgents failed', e));
    api.getSettingsList().then((list) => setSettingsList(list ?? []), (e) => console.warn('getsettingslist failed', e));
  }, []);
  const agent = chosenAgent(agents, agentId);

  const hasTarget = !!targetId && !!details;
  const running = !!details?.IsRunning;
  const play = playAction({ hasTarget, newTargetMode, running, entryText, targetName });
  const playStarts = play === 'start';
  const rowEditable = details?.Editable ?? false;

  const start = async (target: string) => {
    try {
      const answer = await api.newTarget({ target, traceIntervalMs: intervalMs, configId: details?.ConfigurationID, agentId: agent?.ID });
      if (answer) {
        setNewTargetMode(false);
        navigate(`/targets/${answer.ID}`);
      }
    } catch (e) {
      showToast('error', errorMessage(e) || 'Unknown string');
    }
  };
  const run = (p: Promise<unknown>) => p.then(refresh, (e) => reportError(e));
  const onPlay = () => {
    if (play === 'start') return void start(entryText.trim());
    if (!targetId) return;
    run(play === 'pause' ? api.stopTrace(targetId) : api.resumeTrace(targetId));
  };

  // Comments of the loaded range, refreshed on CommentChanged.
  const [comments, setComments] = useState<Comment[]>([]);
  const [commentTick, setCommentTick] = useState(0);
  const commentRange = dataRangeToLoad(time);
  const commentKey = `${Math.floor(commentRange.startMs / 60_000)}-${Math.ceil(commentRange.endMs / 60_000)}`;
  useEffect(() => {
    if (!targetId) return;
    const leave = keepRegistered('RegisterForComments', 'UnregisterForComments', targetId);
    const off = subscribe<[string, string, number]>('CommentChanged', (tid) => String(tid) === targetId && setCommentTick((t) => t + 1));
    return () => {
      off();
      leave();
    };
  }, [targetId]);
  useEffect(() => {
    if (!targetId) return;
    const [a, b] = commentKey.split('-').map(Number);
    api.getComments(targetId, a * 60_000, Math.min(b * 60_000, Date.now() + 60_000)).then(
      (list) => setComments(list ?? []),
      (e) => console.warn('GetComments failed', e),
    );
  }, [targetId, commentKey, commentTick]);
  const [commentEdit, setCommentEdit] = useState<{ comment?: Comment; atMs: number } | null>(null);
  const onComment = (a: CommentAction) => {
    if (a.kind === 'create') setCommentEdit({ atMs: a.atMs });
    else if (a.kind === 'edit') setCommentEdit({ comment: a.comment, atMs: Date.parse(a.comment.When) });
    else if (window.confirm(`Delete the comment "${a.comment.Text}"?`)) {
      api.deleteComment(targetId!, a.comment.Id).then(() => setCommentTick((t) => t + 1), (e) => reportError(e));
    }
  };

  // Row context menu and host value editor.
  const [rowMenu, setRowMenu] = useState<{ x: number; y: number; row: TargetRow } | null>(null);
  const [hostEdit, setHostEdit] = useState<{ rowId: string; field: 'Name' | 'Notes'; initial: string } | null>(null);
  const rowMenuItems = (row: TargetRow): MenuItem[] => {
    const hop = parseRowId(row.UniqueID)?.hostId ?? 0;
    const header = isHeaderRow(row.UniqueID);
    const copy = (text: string, message: string) => copyText(text).then(() => showInfo(message), (e) => reportError(e));
    const notEditable = row.Editable ? undefined : 'You cannot change this target.';
    return [
      { label: 'Copy IP', disabled: !row.IP, onSelect: () => copy(row.IP, `IP ${row.IP} copied to clipboard`) },
      { label: 'Copy Name', disabled: !row.DNSName, onSelect: () => copy(row.DNSName, `Name ${row.DNSName} copied to clipboard`) },
      ...(header
        ? []
        : [
            { label: graphHops.includes(hop) ? 'Hide timeline graph' : 'Show timeline graph', separator: true, onSelect: () => setGraphVisible(hop, !graphHops.includes(hop)) },
            { label: 'Edit Name', separator: true, disabled: !row.Editable, title: notEditable, onSelect: () => setHostEdit({ rowId: row.UniqueID, field: 'Name', initial: row.DNSName }) },
            { label: 'Edit Notes', disabled: !row.Editable, title: notEditable, onSelect: () => setHostEdit({ rowId: row.UniqueID, field: 'Notes', initial: row.Columns.Notes ?? '' }) },
            { label: 'Re-resolve host name', disabled: !row.Editable, title: notEditable, onSelect: () => void invoke('ReresolveHost', row.UniqueID).then(refresh, (e) => reportError(e)) },
          ]),
      { label: 'Trace final hop only', disabled: !row.Editable || !targetId, title: notEditable, onSelect: () => run(api.finalHop([targetId!])) },
    ];
  };

  // Layout: grid above, graphs below, split at Target-Pane-Splitter-Height.
  const panes = useRef<HTMLDivElement>(null);
  const [paneHeight, setPaneHeight] = useState(600);
  const [fraction, setFraction] = useState(() => splitterFraction(localStorage.getItem(StorageKeys.TargetPaneSplitterHeight)));
  useLayoutEffect(() => {
    const el = panes.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setPaneHeight(el.clientHeight));
    ro.observe(el);
    setPaneHeight(el.clientHeight);
    return () => ro.disconnect();
  }, [hasTarget]);
  const gridHeight = Math.max(90, Math.round((paneHeight - SplitterPx) * fraction));
  const graphsHeight = Math.max(0, paneHeight - SplitterPx - gridHeight);
  const graphHeight = timelineGraphHeight(graphsHeight, Math.max(1, graphHops.length));
  const startSplitDrag = (e: React.MouseEvent) => {
    e.preventDefault();
    const top = panes.current!.getBoundingClientRect().top;
    let last = fraction;
    const move = (ev: MouseEvent) => {
      last = Math.min(0.9, Math.max(0.1, (ev.clientY - top) / Math.max(1, paneHeight - SplitterPx)));
      setFraction(last);
    };
    const up = () => {
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
      localStorage.setItem(StorageKeys.TargetPaneSplitterHeight, String(last));
    };
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
  };

  // "Fully drawn" (the perf suite's signal, docs/benchmarks.md): the grid has painted its
  // last row with every row of the answer, and every visible graph has drawn a frame with
  // data. Marked once per target: a performance mark and data-drawn on the window.
  const root = useRef<HTMLDivElement>(null);
  const drawn = useRef({ target: '', gridRows: 0, graphs: new Set<string>(), done: false });
  const drawnWant = useRef({ rows: 0, graphs: [] as string[] });
  drawnWant.current = {
    rows: rows.length,
    graphs: graphHops.map((h) => rows.find((r) => r.HopNum === h && !isHeaderRow(r.UniqueID))?.UniqueID ?? ''),
  };
  if (drawn.current.target !== (targetId ?? '')) {
    drawn.current = { target: targetId ?? '', gridRows: 0, graphs: new Set(), done: false };
    delete root.current?.dataset.drawn;
  }
  const checkDrawn = useCallback(() => {
    const d = drawn.current;
    const want = drawnWant.current;
    if (d.done || want.rows < 2 || d.gridRows !== want.rows || !want.graphs.every((id) => d.graphs.has(id))) return;
    d.done = true;
    performance.mark('hopwatch:target-drawn', { detail: { target: d.target } });
    if (root.current) root.current.dataset.drawn = d.target;
  }, []);
  const onGridPainted = useCallback((count: number) => {
    drawn.current.gridRows = count;
    checkDrawn();
  }, [checkDrawn]);
  const onGraphDrawn = useCallback((rowId: string) => {
    drawn.current.graphs.add(rowId);
    checkDrawn();
  }, [checkDrawn]);

  const focusText = time.focusMode === FocusMode.AllSamples ? 'All' : time.focusMode === FocusMode.Viewport ? 'Auto' : formatDurationShort(time.statsPeriodMs);
  const graphed = useMemo(() => new Set(graphHops.map((h) => `${targetId}_h_${h}`)), [graphHops, targetId]);
  const fixedScale = (display?.Scale ?? DisplaySettingsDefaults.Scale) > 0 ? (display?.Scale ?? DisplaySettingsDefaults.Scale) : null;

  const heading = !targetId ? (
    'New target'
  ) : rowsState.status === 'notFound' ? (
    `Target ${targetId} not found`
  ) : details ? (
    details.TargetDescription && details.TargetDescription !== details.TargetIPAddress && details.TargetDescription !== details.TargetDNSName
      ? details.TargetDescription
      : details.TargetDNSName && details.TargetDNSName !== details.TargetIPAddress
        ? `${details.TargetDNSName} (${details.TargetIPAddress})`
        : details.TargetIPAddress || details.TargetDescription
  ) : (
    'Loading…'
  );

  return (
    <div className="target-window" ref={root}>
      <header className="target-heading">
        <div className="target-title">
          <h1 data-testid="target-heading">{heading}</h1>
          {details && (
            <span className="via">
              <span>via {LocalMachineAgentName}</span>
              <span className={`state-pill ${running ? 'running' : 'paused'}`} title={running ? 'Tracing' : 'This target is paused.'}>
                {running ? `Tracing every ${formatDurationShort(intervalMs)}` : 'Paused'}
              </span>
            </span>
          )}
        </div>
        <div className="heading-tools">
          {user?.Flags.includes(Flag.Pp2Import) && (
            <button type="button" className="button secondary" disabled title="Data file download is not available on this server yet.">
              Download
            </button>
          )}
          {claims.includes(Claim.AlertsManagement) && (
            <button type="button" className="button secondary" disabled title="Alerts are not available on this server yet.">
              Show alerts
            </button>
          )}
          <label className="insights-toggle" title="Insights are not available on this server yet.">
            <input type="checkbox" disabled /> Insights
          </label>
        </div>
      </header>

      <ControlPanel
        entryText={entryText}
        onEntryText={(text) => entryEvent({ type: 'typed', text })}
        onStart={(t) => void start(t)}
        canManageTargets={canManage}
        canSetAccountDefault={claims.includes(Claim.UserManagement)}
        running={running}
        hasTarget={hasTarget}
        onPlay={onPlay}
        playStarts={playStarts}
        onResetAndRestart={() =>
          invoke<{ ID: number }>('ResetAndRestart', targetId).then((a) => navigate(`/targets/${a.ID}`), (e) => reportError(e))
        }
        onNewTarget={() => navigate('/targets/')}
        onClose={() =>
          api.closeTarget(targetId!).then(() => {
            forgetOpenTarget(targetId!);
            navigate('/');
          }, (e) => reportError(e))
        }
        rowEditable={rowEditable}
        selectionCount={selection.length}
        onReleaseFocus={() => {
          setSelection([]);
          setNewTargetMode(true);
          entryEvent({ type: 'cleared' });
        }}
        intervalMs={intervalMs}
        onInterval={(ms) => {
          intervalChosenFor.current = targetId;
          setIntervalMs(ms);
          if (targetId && rowsState.status !== 'notFound') api.updateTraceInterval(targetId, ms).then(refresh, (e) => showToast('error', errorMessage(e)));
        }}
        focusText={focusText}
        onFocus={(text) => dispatch({ type: 'pickFocus', text })}
        warnMs={warnMs}
        badMs={badMs}
        rangeText={formatTimeRangeText(focus.startMs, focus.endMs)}
        agents={agents}
        agent={agent}
        onAgent={setAgentId}
        settingsList={settingsList}
        configId={details?.ConfigurationID ?? null}
        onConfiguration={(configId) => {
          if (!targetId) return;
          api.updateConfigurationId(targetId, configId).then(refresh, (e) => showToast('error', errorMessage(e)));
        }}
        columns={columns}
        onToggleColumn={(name, visible) => updateColumns(setColumnVisible(columns, name, visible))}
      />

      {!targetId ? (
        <div className="target-empty">
          <h2>Start a trace</h2>
          <p>Type a host name or IP address above and press Enter. Hopwatch traces every hop on the way and keeps the history.</p>
        </div>
      ) : rowsState.status === 'notFound' ? (
        <div className="target-empty">
          <p>This target does not exist, or it belongs to another account. Start a new trace above.</p>
        </div>
      ) : rowsState.status === 'failed' ? (
        <div className="target-empty error">Error loading data: {rowsState.message}</div>
      ) : (
        <div className="target-panes" ref={panes}>
          {result && columns.length > 0 ? (
            <div className="grid-pane" style={{ height: gridHeight }}>
              <TraceGrid
                rows={rows}
                columns={columns}
                selection={selection}
                warnMs={warnMs}
                badMs={badMs}
                scaleMaxMs={scale.maxMs}
                scaleFixed={scale.fixed}
                height={gridHeight}
                graphed={graphed}
                onRowClick={clickRow}
                onRowContextMenu={(row, x, y) => setRowMenu({ row, x, y })}
                onColumnResize={(name, w) => updateColumns(resizeColumn(columns, name, w))}
                onColumnMove={(from, to) => updateColumns(moveColumn(columns, columns.findIndex((c) => c.Name === from), columns.findIndex((c) => c.Name === to)))}
                onLastRowPainted={onGridPainted}
                agents={KnownAgents}
                onSelectAll={selectAll}
              />
            </div>
          ) : (
            <div className="grid-pane loading" style={{ height: gridHeight }}>
              Loading hops…
            </div>
          )}
          <div className="splitter" role="separator" aria-orientation="horizontal" title="Drag to resize" onMouseDown={startSplitDrag} style={{ height: SplitterPx }} />
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
                    subtitle={`${row.Columns.ConfigName ?? ''} · ${LocalMachineAgentName}`}
                    state={time}
                    dispatch={dispatch}
                    warnMs={warnMs}
                    badMs={badMs}
                    fixedScaleMs={fixedScale}
                    height={graphHeight}
                    comments={comments}
                    canComment={canManage}
                    onComment={onComment}
                    reloadToken={0}
                    onDrawnWithData={onGraphDrawn}
                  />
                );
              })}
          </div>
        </div>
      )}

      {rowMenu && <PopupMenu x={rowMenu.x} y={rowMenu.y} items={rowMenuItems(rowMenu.row)} onClose={() => setRowMenu(null)} header={<div className="popup-title">{hostLabel(rowMenu.row)}</div>} />}
      {hostEdit && <HostValueDialog {...hostEdit} onClose={() => (setHostEdit(null), refresh())} />}
      {commentEdit && targetId && <CommentDialog targetId={targetId} comment={commentEdit.comment} atMs={commentEdit.atMs} onClose={() => (setCommentEdit(null), setCommentTick((t) => t + 1))} />}
    </div>
  );
}

