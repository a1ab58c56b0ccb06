// The target window's business constants, exactly as spec 2 (sections 3, 4, 5 and 9) gives
// them. One place, so the grid, the timeline graphs and the pickers cannot drift apart.
// Values the spec does not give are marked "decision" and listed in docs/target-window-logic.md.
// Constants the server shares (interval choices and bounds, column kinds and enums) come from
// server/contract/targets and are re-exported here, not redefined.
export {
  TraceIntervalChoicesMs,
  DefaultTraceIntervalMs,
  MinTraceIntervalMs,
  MaxTraceIntervalMs,
  GraphColumnKind,
  ColumnGridType,
  ColumnAlign,
  type ColumnDef,
} from '../../../../server/contract/targets';

const Second = 1000;
const Minute = 60 * Second;
const Hour = 60 * Minute;
const Day = 24 * Hour;

export const Ms = { Second, Minute, Hour, Day } as const;

// --- Focus picker ---------------------------------------------------------------------------

/** Focus mode of the graph time state (spec 2 section 3). */
export const FocusMode = { AllSamples: 0, Viewport: 1, Explicit: 2 } as const;
export type FocusMode = (typeof FocusMode)[keyof typeof FocusMode];

/** The focus picker's value for Auto (viewport focus); also the picker default. */
export const FocusAutoValue = -1;
/** Focus choices in picker order: 5 s, 30 s, 60 s, 5 min, 30 min, 60 min, Auto, All. */
export const FocusChoiceLabels: readonly string[] = ['5 s', '30 s', '60 s', '5 min', '30 min', '60 min', 'Auto', 'All'];
export const DefaultFocusChoiceLabel = 'Auto';

// --- Graph time state (spec 2 sections 4 and 9) -------------------------------------------

/** View period presets in minutes, 1 minute to 7 days; the menu adds "Reset to Current". */
export const ViewPeriodPresetsMinutes: readonly number[] = [1, 5, 10, 30, 60, 180, 360, 720, 1440, 2880, 10080];
export const ResetToCurrentLabel = 'Reset to Current';
export const DefaultViewportPeriodMs = 600_000;
export const DefaultStatsPeriodMs = 60_000;
/** A reset caps the viewport period at 7 days. */
export const ViewportPeriodCapMs = 604_800_000;
/** A zoom gesture cannot go below a 10-second viewport. */
export const ZoomFloorViewportMs = 10 * Second;
/** Views are (re)loaded at twice the viewport span. */
export const DataRangeViewportMultiple = 2;
/** First double click in viewport mode: stats period is about 1/15 of the viewport... */
export const ExplicitFocusViewportDivisor = 15;
/** ...rounded up to these steps: 1, 5, 10, 30 min, 1, 3, 6, 12 h, 1 day. */
export const ExplicitFocusStatsStepsMs: readonly number[] = [
  1 * Minute, 5 * Minute, 10 * Minute, 30 * Minute, 1 * Hour, 3 * Hour, 6 * Hour, 12 * Hour, 1 * Day,
];
/** Selecting a dataset/segment range shows 2.5 times its length... */
export const SelectedRangeViewportMultiple = 2.5;
/** ...ending half a length after its end. */
export const SelectedRangeTrailFraction = 0.5;
/** Decision: one wheel notch zooms by this factor (spec gives only the 10 s floor). */
export const WheelZoomFactorPerNotch = 1.25;
/** Browsers report one wheel notch as deltaY 100 in pixel mode. */
export const WheelDeltaPerNotch = 100;

// --- Latency scale and thresholds (spec 2 sections 3 and 9) --------------------------------

export const DefaultWarnMs = 100;
export const DefaultBadMs = 250;
/** Initial latency scale of a graph before any data is on screen. */
export const InitialLatencyScale = 10;
/** Display settings defaults: Scale 100, Bad 250, Warn 100. */
export const DisplaySettingsDefaults = { Scale: 100, Bad: 250, Warn: 100 } as const;
/** Configured Scale 0: automatic scale. */
export const GraphScaleAutomatic = 0;
/** Configured Scale -2: follow the target graph scale. */
export const GraphScaleFollowTarget = -2;
/** Automatic scale = 1.01 x the maximum latency on screen. */
export const AutomaticScaleHeadroom = 1.01;
/** The latency axis shrinks only when the drop exceeds 15%. */
export const LatencyScaleShrinkThreshold = 0.15;
/** Settings editor: custom graph scale default 250 ms. */
export const CustomScaleDefaultMs = 250;

// --- Hop status and graph colours (spec 2 section 4) ---------------------------------------

export const HopStatus = { NoData: -1, Good: 0, Warn: 1, Bad: 2 } as const;
export type HopStatus = (typeof HopStatus)[keyof typeof HopStatus];
/** Packet-loss bar is full at 30% loss. */
export const PacketLossBarFullPercent = 30;

// --- Layout (spec 2 section 9) -------------------------------------------------------------

/**
 * Timeline graph height: (container height - chrome per graph) / number of graphs. The chrome
 * is the 26 px title bar, the frame's two 1 px borders and the 1 px gap below (the spec's 27
 * left the borders out, so each graph's comment strip was cut by 2 px).
 */
export const TimelineGraphChromePx = 29;
/**
 * ...at least this (issue 41 item 9, replacing the spec's 70): a 120 px plot with its axes and
 * axis titles readable, plus the 16 px comment strip. Graphs that do not fit scroll.
 */
export const TimelineGraphMinHeightPx = 136;
export const DefaultSplitterFraction = 0.7;
export const FocusBorderPx = 12;
/**
 * Tick label spacing steps from 5 s up to 36 h. The spec gives only the ends; the steps in
 * between are a decision (the usual clock-friendly spacings).
 */
export const TickSpacingStepsMs: readonly number[] = [
  5 * Second, 10 * Second, 15 * Second, 30 * Second,
  1 * Minute, 2 * Minute, 5 * Minute, 10 * Minute, 15 * Minute, 30 * Minute,
  1 * Hour, 2 * Hour, 3 * Hour, 6 * Hour, 12 * Hour, 24 * Hour, 36 * Hour,
];
export const HistoryDropdownPopupHeightPx = 350;
export const AgentPickerMinWidthPx = 140;
export const MinColumnWidthPx = 10;

// --- Timing (spec 2 section 9) -------------------------------------------------------------

export const DataLoadThrottleMs = 125;
export const LiveDataOverlapMarginMs = 500;
export const ViewportUpdateDebounceMs = 100;
export const RowRefreshBatchMs = 150;
/**
 * Decision: a summary's live batches come at least this far apart (a single target's come a
 * round apart anyway). See docs/target-window-logic.md "Live refresh".
 */
export const SummaryRowRefreshGapMs = 1000;
export const TooltipShowDelayMs = 1000;
export const TooltipHideAfterMs = 10_000;

// --- Time display rule (spec 2 section 9) --------------------------------------------------

/** Time display switches to days at 2 days or more, hours at 2 hours, minutes at 2 minutes. */
export const TimeDisplayDaysFromMs = 2 * Day;
export const TimeDisplayHoursFromMs = 2 * Hour;
export const TimeDisplayMinutesFromMs = 2 * Minute;

// --- Rows (spec 2 section 3) ---------------------------------------------------------------

/** Row UniqueID is {sessionId}_h_{hostId}; this marker sits between the two. */
export const RowIdHostMarker = 'h';
/** Host id 0 is the header row (not selectable); host id 1 is the first hop. */
export const HeaderRowHostId = 0;

// --- Local storage keys (spec 2 section 9) -------------------------------------------------

export const StorageKeys = {
  TargetColumns: 'Target-Columns',
  SummaryColumns: 'Summary-Columns',
  DefaultSummarySortOrder: 'default_summary_sort_order',
  HideSettingNameOnTimegraph: 'hide_setting_name_on_timegraph',
  HideAgentNameOnTimegraph: 'hide_agent_name_on_timegraph',
  TraceTargetHistory: 'TraceTargetHistory',
  TargetPaneSplitterHeight: 'Target-Pane-Splitter-Height',
  SummaryPaneSplitterHeight: 'Summary-Pane-Splitter-Height',
} as const;
/** Visible graphs are stored per target as Visible_Graphs_{targetId}. */
export function visibleGraphsStorageKey(targetId: string): string {
  return `Visible_Graphs_${targetId}`;
}
/** default_summary_sort_order defaults to DNSName ascending. */
export const DefaultSummarySortOrder = { Column: 'DNSName', Ascending: true } as const;

// --- Texts (spec 2 sections 5 and 8) -------------------------------------------------------

export const CommentNoTextMessage = 'Comment not saved - no text entered.';
export const NoPermissionToStartTracesTooltip = 'No permission to start traces.';
