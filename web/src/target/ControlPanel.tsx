// The control panel above the grid (spec 2 "Control panel"): target entry, play/pause with
// its dropdown, Release Focus, the Agent picker (multi-agent only), Trace Interval and Focus
// pickers, the Settings picker (more than one configuration), the latency colour legend,
// the focus time-range display and the "Show / hide columns" chooser.
import { useAtomValue } from 'jotai';
import { useRef, useState } from 'react';
import { currentUserAtom } from '../state/user';
import { VisitorTargetEntry } from '../liveshare/VisitorTargetEntry';
import type { ColumnDef } from '../../../server/contract/targets';
import { TraceIntervalChoicesMs } from '../../../server/contract/targets';
import { LatencyColours } from './colours';
import { FocusChoiceLabels, NoPermissionToStartTracesTooltip } from './logic/constants';
import type { PlayAction } from './logic/playAction';
import { playButtonTitle } from './logic/playTitle';
import { formatDurationShort, parseTraceIntervalText } from './logic/duration';
import { parseFocusChoiceText } from './logic/focusChoice';
import { ChoiceField } from './ChoiceField';
import { PopupMenu, type MenuItem } from './PopupMenu';
import { TargetEntry } from './TargetEntry';
import { AgentPicker } from './AgentPicker';
import { SettingsPicker } from './SettingsPicker';
import type { SettingsListItem } from './api';
import { agentPickerDisabled, agentPickerVisible, type AgentItem } from './logic/agentPicker';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { closeAndStopConfirmation, resetAndRestartConfirmation } from './logic/sessionEndConfirmations';

export interface ControlPanelProps {
  entryText: string;
  onEntryText: (t: string) => void;
  onStart: (target: string) => void;
  canManageTargets: boolean;
  canSetAccountDefault: boolean;
  /** A target is open and running. */
  running: boolean;
  hasTarget: boolean;
  /** Play with the current text: start, pause or resume. */
  onPlay: () => void;
  /** The play button would start a new trace (not pause/resume). */
  playStarts: boolean;
  /** Called after the user confirmed: it ends the current session. */
  onResetAndRestart: () => void;
  onNewTarget: () => void;
  /** Called after the user confirmed: it ends the current session. */
  onClose: () => void;
  /** The open target's name, for the confirmations ("this target" without it). */
  targetName?: string;
  rowEditable: boolean;
  selectionCount: number;
  onReleaseFocus: () => void;
  intervalMs: number;
  onInterval: (ms: number) => void;
  focusText: string;
  onFocus: (text: string) => void;
  warnMs: number;
  badMs: number;
  rangeText: string;
  agents: readonly AgentItem[];
  agent: AgentItem | null;
  onAgent: (id: number) => void;
  settingsList: readonly SettingsListItem[];
  /** The open target's configuration (null without a target). */
  configId: number | null;
  onConfiguration: (id: number) => void;
  columns: ColumnDef[];
  onToggleColumn: (name: string, visible: boolean) => void;
}

export function ControlPanel(p: ControlPanelProps) {
  // A LiveShare visitor cannot add targets (spec 2 section 1): its entry says so.
  const visitor = !!useAtomValue(currentUserAtom)?.IsLiveshare;
  const [menu, setMenu] = useState<{ x: number; y: number; kind: 'play' | 'columns' } | null>(null);
  // Reset And Restart and Close (and Stop) end the session: they ask first.
  const [confirming, setConfirming] = useState<'reset' | 'close' | null>(null);
  const dropdown = useRef<HTMLButtonElement>(null);
  const chooser = useRef<HTMLButtonElement>(null);
  const below = (el: HTMLElement | null) => {
    const r = el?.getBoundingClientRect();
    return { x: r?.left ?? 0, y: (r?.bottom ?? 0) + 4 };
  };
  const noPermission = p.canManageTargets ? undefined : NoPermissionToStartTracesTooltip;
  const playCommand: PlayAction = p.playStarts ? 'start' : p.running ? 'pause' : 'resume';
  const playLabel = playButtonTitle(playCommand, true);
  const playItems: MenuItem[] = [
    { label: 'Reset And Restart', disabled: !p.hasTarget || !p.rowEditable, onSelect: () => setConfirming('reset') },
    { label: 'New Target', onSelect: p.onNewTarget },
    { label: 'Close (and Stop)', disabled: !p.hasTarget || !p.rowEditable, onSelect: () => setConfirming('close') },
  ];
  const columnItems: MenuItem[] = p.columns.map((c) => ({
    label: c.MenuCaption || c.Caption,
    checked: c.Visible,
    disabled: !c.CanChangeVisible,
    keepOpen: true,
    onSelect: () => p.onToggleColumn(c.Name, !c.Visible),
  }));

  return (
    <div className="control-panel">
      <div className="control-row">
        {visitor ? (
          <VisitorTargetEntry />
        ) : (
          <TargetEntry
            text={p.entryText}
            onText={p.onEntryText}
            onStart={p.onStart}
            disabled={!p.canManageTargets}
            disabledTitle={NoPermissionToStartTracesTooltip}
            canSetAccountDefault={p.canSetAccountDefault}
          />
        )}
        <div className="split-button">
          <button
            type="button"
            className={`button play ${p.running && !p.playStarts ? 'running' : ''}`}
            aria-label={playLabel}
            title={playButtonTitle(playCommand, p.canManageTargets)}
            disabled={!p.canManageTargets || (p.playStarts && p.entryText.trim() === '') || (!p.playStarts && !p.rowEditable)}
            onClick={p.onPlay}
          >
            {p.running && !p.playStarts ? <span className="pause-glyph" /> : <span className="play-glyph" />}
            {playLabel}
          </button>
          <button
            ref={dropdown}
            type="button"
            className="button play-more"
            aria-label="More trace commands"
            onClick={() => setMenu({ ...below(dropdown.current), kind: 'play' })}
          >
            ▾
          </button>
        </div>
        {p.selectionCount > 0 && (
          <button type="button" className="button secondary release" onClick={p.onReleaseFocus} title="Release the selected rows and enter a new target">
            Release Focus <span aria-hidden>+</span>
          </button>
        )}
        {agentPickerVisible(p.agents) && (
          <AgentPicker
            agents={p.agents}
            chosen={p.agent}
            onChoose={p.onAgent}
            disabled={agentPickerDisabled(p.selectionCount)}
            title={agentPickerDisabled(p.selectionCount) ? 'Release the selected rows to choose an agent' : 'The agent new traces run on'}
          />
        )}
        <ChoiceField
          label="Trace Interval"
          value={formatDurationShort(p.intervalMs)}
          choices={TraceIntervalChoicesMs.map(formatDurationShort)}
          disabled={!p.canManageTargets}
          title={noPermission}
          onCommit={(text) => {
            const ms = parseTraceIntervalText(text);
            if (ms === null) return false;
            p.onInterval(ms);
            return true;
          }}
        />
        <ChoiceField
          label="Focus"
          value={p.focusText}
          choices={FocusChoiceLabels}
          onCommit={(text) => {
            if (parseFocusChoiceText(text) === null) return false;
            p.onFocus(text);
            return true;
          }}
        />
        {p.settingsList.length > 1 && (
          <SettingsPicker
            items={p.settingsList}
            configId={p.configId}
            onChoose={p.onConfiguration}
            disabled={!p.canManageTargets || !p.hasTarget || !p.rowEditable}
            title={noPermission}
          />
        )}
      </div>
      <div className="control-row secondary-row">
        <div className="legend" aria-label="Latency colours">
          <span className="legend-item">
            <i style={{ background: LatencyColours.Good }} />
            Good &lt; {p.warnMs} ms
          </span>
          <span className="legend-item">
            <i style={{ background: LatencyColours.Warn }} />
            Warn {p.warnMs} ms
          </span>
          <span className="legend-item">
            <i style={{ background: LatencyColours.Bad }} />
            Bad {p.badMs} ms
          </span>
        </div>
        <span className="focus-range" data-testid="focus-range" title={`The time range the grid statistics cover: ${p.rangeText}`}>
          {p.rangeText}
        </span>
        <button
          ref={chooser}
          type="button"
          className="button secondary columns-button"
          onClick={() => setMenu({ ...below(chooser.current), kind: 'columns' })}
        >
          Show / hide columns
        </button>
      </div>
      {menu && <PopupMenu x={menu.x} y={menu.y} items={menu.kind === 'play' ? playItems : columnItems} onClose={() => setMenu(null)} />}
      {confirming && (
        <ConfirmDialog
          confirmation={confirming === 'reset' ? resetAndRestartConfirmation(p.targetName) : closeAndStopConfirmation(p.targetName)}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            setConfirming(null);
            if (confirming === 'reset') p.onResetAndRestart();
            else p.onClose();
          }}
        />
      )}
    </div>
  );
}
