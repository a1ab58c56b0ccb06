// The graph time state of spec 2 section 4: which stretch of time the timeline graphs show
// (the viewport), which stretch the grid's statistics cover (the focus), and whether each
// follows the newest sample (live). A pure reducer, so every gesture is one action and the
// screens only draw what it returns. Times are epoch milliseconds.
import {
  DefaultStatsPeriodMs,
  DefaultViewportPeriodMs,
  ExplicitFocusStatsStepsMs,
  ExplicitFocusViewportDivisor,
  FocusMode,
  SelectedRangeTrailFraction,
  SelectedRangeViewportMultiple,
  ViewportPeriodCapMs,
  WheelDeltaPerNotch,
  WheelZoomFactorPerNotch,
  ZoomFloorViewportMs,
} from './constants';
import { parseFocusChoiceText } from './focusChoice';

export interface GraphTimeState {
  focusMode: FocusMode;
  /** The viewport ends at the newest sample and follows it. */
  viewportLive: boolean;
  /** The explicit focus ends at the newest sample and follows it. */
  statsLive: boolean;
  viewportPeriodMs: number;
  viewportEndMs: number;
  /** Length of the explicit focus (also kept while in the other modes). */
  statsPeriodMs: number;
  /** End of the explicit focus. */
  statsEndMs: number;
  /** Oldest and newest trace sample times known so far (null before any data). */
  oldestSampleMs: number | null;
  newestSampleMs: number | null;
}

export interface TimeRange {
  startMs: number;
  endMs: number;
}

export type GraphTimeAction =
  /** Defaults again; an optional wish for the viewport period is capped at 7 days. */
  | { type: 'reset'; nowMs: number; viewportPeriodMs?: number }
  /** A view period preset or custom span; endMs places it back in time (graph context menu). */
  | { type: 'choosePeriod'; periodMs: number; endMs?: number }
  /** "Reset to Current": viewport and stats live again. */
  | { type: 'resetToCurrent'; nowMs: number }
  /** Drag by deltaMs (positive = later); see dragDeltaMs. */
  | { type: 'pan'; deltaMs: number }
  /** Scroll/zoom by factor (> 1 zooms out) keeping atMs under the pointer; see wheelZoomFactor. */
  | { type: 'zoom'; factor: number; atMs: number }
  /** Double click on a graph at atMs: explicit stats focus there. */
  | { type: 'doubleClick'; atMs: number }
  /** Focus picker text ("All", "Auto", "5 min", "90 s", ...). */
  | { type: 'pickFocus'; text: string }
  /** New data arrived: the oldest (if known) and newest trace sample times. */
  | { type: 'newData'; newestMs: number; oldestMs?: number | null }
  /** A dataset/segment range was selected. */
  | { type: 'selectRange'; startMs: number; endMs: number };

/** Default state: Viewport focus, live, stats period 60 s, viewport 10 min, ending at nowMs. */
export function initialGraphTimeState(nowMs: number): GraphTimeState {
  return {
    focusMode: FocusMode.Viewport,
    viewportLive: true,
    statsLive: true,
    viewportPeriodMs: DefaultViewportPeriodMs,
    viewportEndMs: nowMs,
    statsPeriodMs: DefaultStatsPeriodMs,
    statsEndMs: nowMs,
    oldestSampleMs: null,
    newestSampleMs: null,
  };
}

/**
 * Explicit stats period for the first double click in viewport mode: about one fifteenth
 * of the viewport, rounded up to 1, 5, 10, 30 min, 1, 3, 6, 12 h or 1 day (1 day at most).
 */
export function explicitStatsPeriodForViewport(viewportPeriodMs: number): number {
  const wanted = viewportPeriodMs / ExplicitFocusViewportDivisor;
  return ExplicitFocusStatsStepsMs.find((step) => step >= wanted) ?? ExplicitFocusStatsStepsMs[ExplicitFocusStatsStepsMs.length - 1];
}

/** Zoom factor for a wheel event's deltaY: one notch (100) zooms out by 1.25, back in by 1/1.25. */
export function wheelZoomFactor(deltaY: number): number {
  return WheelZoomFactorPerNotch ** (deltaY / WheelDeltaPerNotch);
}

/** Time moved by a drag of dxPx over a plot plotWidthPx wide: dragging right looks back. */
export function dragDeltaMs(dxPx: number, plotWidthPx: number, viewportPeriodMs: number): number {
  if (plotWidthPx <= 0) return 0;
  return (-dxPx * viewportPeriodMs) / plotWidthPx;
}

/** Where live tracking puts the end: the newest sample, or now before any data. */
function liveEnd(state: GraphTimeState, nowMs?: number): number {
  return state.newestSampleMs ?? nowMs ?? state.viewportEndMs;
}

/**
 * Puts the viewport end at endMs after a gesture: reaching the newest sample turns live on
 * (and the view stops there), anything earlier leaves live off.
 */
function settleViewport(state: GraphTimeState, endMs: number, periodMs: number): GraphTimeState {
  const newest = state.newestSampleMs;
  if (newest !== null && endMs >= newest) {
    return { ...state, viewportPeriodMs: periodMs, viewportEndMs: newest, viewportLive: true };
  }
  return { ...state, viewportPeriodMs: periodMs, viewportEndMs: endMs, viewportLive: false };
}

export function graphTimeReducer(state: GraphTimeState, action: GraphTimeAction): GraphTimeState {
  switch (action.type) {
    case 'reset': {
      const wished = action.viewportPeriodMs ?? DefaultViewportPeriodMs;
      const periodMs = Math.min(Math.max(wished, ZoomFloorViewportMs), ViewportPeriodCapMs);
      const end = liveEnd(state, action.nowMs);
      return {
        ...initialGraphTimeState(end),
        viewportPeriodMs: periodMs,
        oldestSampleMs: state.oldestSampleMs,
        newestSampleMs: state.newestSampleMs,
      };
    }
    case 'choosePeriod': {
      if (!(action.periodMs > 0)) return state;
      const periodMs = Math.max(action.periodMs, ZoomFloorViewportMs);
      if (action.endMs !== undefined) return settleViewport(state, action.endMs, periodMs);
      if (state.viewportLive) return { ...state, viewportPeriodMs: periodMs, viewportEndMs: liveEnd(state) };
      // Off live but less than the chosen span behind the newest sample (a wheel zoom about
      // the pointer leaves the end a little back): the span ending at the newest sample still
      // shows where the user was looking, so the choice shows the present and follows it, as
      // the picker's "10 min" reads. Further back, the user is studying the past: keep the end.
      const newest = state.newestSampleMs;
      if (newest !== null && newest - state.viewportEndMs < periodMs) return settleViewport(state, newest, periodMs);
      return settleViewport(state, state.viewportEndMs, periodMs);
    }
    case 'resetToCurrent': {
      const end = liveEnd(state, action.nowMs);
      return { ...state, viewportLive: true, statsLive: true, viewportEndMs: end, statsEndMs: end };
    }
    case 'pan': {
      if (action.deltaMs === 0 || !Number.isFinite(action.deltaMs)) return state;
      let end = state.viewportEndMs + action.deltaMs;
      // A drag cannot go before the oldest sample: the viewport start stays at or after it.
      if (state.oldestSampleMs !== null) end = Math.max(end, state.oldestSampleMs + state.viewportPeriodMs);
      return settleViewport(state, end, state.viewportPeriodMs);
    }
    case 'zoom': {
      if (!(action.factor > 0) || action.factor === 1) return state;
      const periodMs = Math.max(state.viewportPeriodMs * action.factor, ZoomFloorViewportMs);
      const start = state.viewportEndMs - state.viewportPeriodMs;
      // Keep the time under the pointer at the same place in the plot.
      const pointerFraction = (action.atMs - start) / state.viewportPeriodMs;
      const newStart = action.atMs - pointerFraction * periodMs;
      return settleViewport(state, newStart + periodMs, periodMs);
    }
    case 'doubleClick': {
      const statsPeriodMs =
        state.focusMode === FocusMode.Viewport ? explicitStatsPeriodForViewport(state.viewportPeriodMs) : state.statsPeriodMs;
      return { ...state, focusMode: FocusMode.Explicit, statsLive: false, statsPeriodMs, statsEndMs: action.atMs };
    }
    case 'pickFocus': {
      const choice = parseFocusChoiceText(action.text);
      if (!choice) return state;
      if (choice.focusMode !== FocusMode.Explicit) return { ...state, focusMode: choice.focusMode };
      // Leaving viewport focus, the explicit focus ends where the viewport ends, so the
      // statistics stay at the time the user is looking at.
      const fromViewport = state.focusMode === FocusMode.Viewport;
      const statsLive = fromViewport ? state.viewportLive : state.statsLive;
      const statsEndMs = statsLive ? liveEnd(state) : fromViewport ? state.viewportEndMs : state.statsEndMs;
      return { ...state, focusMode: FocusMode.Explicit, statsPeriodMs: choice.statsPeriodMs, statsLive, statsEndMs };
    }
    case 'newData': {
      const newest = state.newestSampleMs === null ? action.newestMs : Math.max(state.newestSampleMs, action.newestMs);
      const given = action.oldestMs ?? null;
      const oldest =
        given === null ? (state.oldestSampleMs ?? action.newestMs) : Math.min(state.oldestSampleMs ?? given, given);
      return {
        ...state,
        oldestSampleMs: oldest,
        newestSampleMs: newest,
        viewportEndMs: state.viewportLive ? newest : state.viewportEndMs,
        statsEndMs: state.statsLive ? newest : state.statsEndMs,
      };
    }
    case 'selectRange': {
      const length = action.endMs - action.startMs;
      if (!(length > 0)) return state;
      return {
        ...state,
        focusMode: FocusMode.Explicit,
        statsPeriodMs: length,
        statsEndMs: action.endMs,
        viewportPeriodMs: Math.max(length * SelectedRangeViewportMultiple, ZoomFloorViewportMs),
        viewportEndMs: action.endMs + length * SelectedRangeTrailFraction,
        viewportLive: false,
        statsLive: false,
      };
    }
  }
}

/** The stretch of time the timeline graphs show. */
export function viewportRange(state: GraphTimeState): TimeRange {
  return { startMs: state.viewportEndMs - state.viewportPeriodMs, endMs: state.viewportEndMs };
}

/**
 * The stretch of time the grid statistics cover: AllSamples = oldest to newest sample
 * (the viewport until data is known), Viewport = the viewport, Explicit = the explicit period.
 */
export function statsRange(state: GraphTimeState): TimeRange {
  switch (state.focusMode) {
    case FocusMode.AllSamples:
      if (state.oldestSampleMs === null || state.newestSampleMs === null) return viewportRange(state);
      return { startMs: state.oldestSampleMs, endMs: state.newestSampleMs };
    case FocusMode.Viewport:
      return viewportRange(state);
    case FocusMode.Explicit:
      return { startMs: state.statsEndMs - state.statsPeriodMs, endMs: state.statsEndMs };
  }
}
