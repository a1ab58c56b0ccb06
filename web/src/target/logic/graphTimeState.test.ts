import { describe, expect, it } from 'vitest';
import {
  type GraphTimeAction,
  type GraphTimeState,
  dragDeltaMs,
  explicitStatsPeriodForViewport,
  graphTimeReducer,
  initialGraphTimeState,
  statsRange,
  viewportRange,
  wheelZoomFactor,
} from './graphTimeState';
import { FocusMode, Ms, ViewPeriodPresetsMinutes } from './constants';

const T0 = Date.UTC(2026, 10, 20, 8, 0, 0);

function run(state: GraphTimeState, ...actions: GraphTimeAction[]): GraphTimeState {
  return actions.reduce(graphTimeReducer, state);
}

/** Three hours of data ending at T0, everything live. */
function withData(): GraphTimeState {
  return run(initialGraphTimeState(T0 - Ms.Hour), { type: 'newData', oldestMs: T0 - 3 * Ms.Hour, newestMs: T0 });
}

describe('initial state and reset', () => {
  it('defaults to Viewport focus, live, stats 60 s, viewport 10 min', () => {
    const s = initialGraphTimeState(T0);
    expect(s).toMatchObject({
      focusMode: FocusMode.Viewport,
      viewportLive: true,
      statsLive: true,
      statsPeriodMs: 60_000,
      viewportPeriodMs: 600_000,
      viewportEndMs: T0,
    });
  });
  it('reset restores the defaults, keeps the known samples and ends at the newest one', () => {
    const moved = run(withData(), { type: 'pan', deltaMs: -Ms.Hour }, { type: 'doubleClick', atMs: T0 - 2 * Ms.Hour });
    const s = graphTimeReducer(moved, { type: 'reset', nowMs: T0 + 5000 });
    expect(s).toEqual({ ...initialGraphTimeState(T0), oldestSampleMs: T0 - 3 * Ms.Hour, newestSampleMs: T0 });
  });
  it('reset caps the viewport period at 7 days', () => {
    const s = graphTimeReducer(withData(), { type: 'reset', nowMs: T0, viewportPeriodMs: 30 * Ms.Day });
    expect(s.viewportPeriodMs).toBe(604_800_000);
    expect(graphTimeReducer(withData(), { type: 'reset', nowMs: T0, viewportPeriodMs: Ms.Hour }).viewportPeriodMs).toBe(Ms.Hour);
  });
  it('before any data, reset ends at now', () => {
    expect(graphTimeReducer(initialGraphTimeState(T0), { type: 'reset', nowMs: T0 + 9000 }).viewportEndMs).toBe(T0 + 9000);
  });
});

describe('new data', () => {
  it('live viewport and stats track the latest trace time', () => {
    const s = graphTimeReducer(withData(), { type: 'newData', newestMs: T0 + 2500 });
    expect(s.viewportEndMs).toBe(T0 + 2500);
    expect(s.statsEndMs).toBe(T0 + 2500);
    expect(s.newestSampleMs).toBe(T0 + 2500);
    expect(s.oldestSampleMs).toBe(T0 - 3 * Ms.Hour);
  });
  it('a viewport that is not live stays where it is', () => {
    const back = graphTimeReducer(withData(), { type: 'pan', deltaMs: -Ms.Hour });
    const s = graphTimeReducer(back, { type: 'newData', newestMs: T0 + 2500 });
    expect(s.viewportEndMs).toBe(T0 - Ms.Hour);
    expect(s.viewportLive).toBe(false);
  });
  it('the first sample seen is also the oldest when no oldest time is given', () => {
    const s = graphTimeReducer(initialGraphTimeState(T0), { type: 'newData', newestMs: T0 + 1 });
    expect(s.oldestSampleMs).toBe(T0 + 1);
  });
  it('an older batch never moves the newest sample back', () => {
    const s = graphTimeReducer(withData(), { type: 'newData', newestMs: T0 - Ms.Minute, oldestMs: T0 - 4 * Ms.Hour });
    expect(s.newestSampleMs).toBe(T0);
    expect(s.oldestSampleMs).toBe(T0 - 4 * Ms.Hour);
  });
});

describe('preset spans', () => {
  it('offers 1 minute to 7 days', () => {
    expect(ViewPeriodPresetsMinutes).toEqual([1, 5, 10, 30, 60, 180, 360, 720, 1440, 2880, 10080]);
  });
  it('a span chosen while live stays live at the newest sample', () => {
    const s = graphTimeReducer(withData(), { type: 'choosePeriod', periodMs: 60 * Ms.Minute });
    expect(s).toMatchObject({ viewportPeriodMs: Ms.Hour, viewportEndMs: T0, viewportLive: true });
  });
  it('a span chosen back in time turns live off', () => {
    const s = graphTimeReducer(withData(), { type: 'choosePeriod', periodMs: 5 * Ms.Minute, endMs: T0 - Ms.Hour });
    expect(s).toMatchObject({ viewportPeriodMs: 5 * Ms.Minute, viewportEndMs: T0 - Ms.Hour, viewportLive: false });
  });
  it('a span placed at or after the newest sample is live', () => {
    const back = graphTimeReducer(withData(), { type: 'pan', deltaMs: -Ms.Hour });
    const s = graphTimeReducer(back, { type: 'choosePeriod', periodMs: 5 * Ms.Minute, endMs: T0 + Ms.Hour });
    expect(s).toMatchObject({ viewportEndMs: T0, viewportLive: true });
  });
  it('a span chosen while looking back keeps the end and stays not live', () => {
    const back = graphTimeReducer(withData(), { type: 'pan', deltaMs: -Ms.Hour });
    const s = graphTimeReducer(back, { type: 'choosePeriod', periodMs: 30 * Ms.Minute });
    expect(s).toMatchObject({ viewportPeriodMs: 30 * Ms.Minute, viewportEndMs: T0 - Ms.Hour, viewportLive: false });
  });
  it('a span chosen after a wheel zoom left the end a little back shows the present, live', () => {
    // Issue 15: zoom in about the middle of the live 10 min (end 1 min back), choose 10 min again.
    const zoomed = graphTimeReducer(withData(), { type: 'zoom', factor: 0.8, atMs: T0 - 5 * Ms.Minute });
    expect(zoomed).toMatchObject({ viewportPeriodMs: 8 * Ms.Minute, viewportEndMs: T0 - Ms.Minute, viewportLive: false });
    const s = graphTimeReducer(zoomed, { type: 'choosePeriod', periodMs: 10 * Ms.Minute });
    expect(s).toMatchObject({ viewportPeriodMs: 10 * Ms.Minute, viewportEndMs: T0, viewportLive: true });
    // and it follows new samples again
    expect(graphTimeReducer(s, { type: 'newData', newestMs: T0 + 5000 }).viewportEndMs).toBe(T0 + 5000);
  });
  it('a span longer than the distance back to the newest sample goes live; a shorter one keeps the end', () => {
    const back = graphTimeReducer(withData(), { type: 'pan', deltaMs: -5 * Ms.Minute });
    expect(graphTimeReducer(back, { type: 'choosePeriod', periodMs: 10 * Ms.Minute })).toMatchObject({ viewportEndMs: T0, viewportLive: true });
    expect(graphTimeReducer(back, { type: 'choosePeriod', periodMs: 5 * Ms.Minute })).toMatchObject({ viewportEndMs: T0 - 5 * Ms.Minute, viewportLive: false });
  });
  it('ignores a zero span', () => {
    const s = withData();
    expect(graphTimeReducer(s, { type: 'choosePeriod', periodMs: 0 })).toBe(s);
  });
});

describe('Reset to Current', () => {
  it('makes viewport and stats live again at the newest sample', () => {
    const s = run(
      withData(),
      { type: 'pan', deltaMs: -Ms.Hour },
      { type: 'doubleClick', atMs: T0 - 2 * Ms.Hour },
      { type: 'resetToCurrent', nowMs: T0 + Ms.Hour },
    );
    expect(s).toMatchObject({ viewportLive: true, statsLive: true, viewportEndMs: T0, statsEndMs: T0 });
    expect(s.focusMode).toBe(FocusMode.Explicit);
  });
});

describe('drag', () => {
  it('turns live off and moves the viewport', () => {
    const s = graphTimeReducer(withData(), { type: 'pan', deltaMs: -20 * Ms.Minute });
    expect(s).toMatchObject({ viewportLive: false, viewportEndMs: T0 - 20 * Ms.Minute, viewportPeriodMs: 10 * Ms.Minute });
  });
  it('cannot go before the oldest sample', () => {
    const s = graphTimeReducer(withData(), { type: 'pan', deltaMs: -10 * Ms.Hour });
    expect(viewportRange(s).startMs).toBe(T0 - 3 * Ms.Hour);
    expect(s.viewportLive).toBe(false);
  });
  it('reaching the newest sample turns live on', () => {
    const back = graphTimeReducer(withData(), { type: 'pan', deltaMs: -Ms.Hour });
    const s = graphTimeReducer(back, { type: 'pan', deltaMs: 2 * Ms.Hour });
    expect(s).toMatchObject({ viewportLive: true, viewportEndMs: T0 });
  });
  it('with less data than the viewport there is nowhere to go', () => {
    const s0 = graphTimeReducer(initialGraphTimeState(T0), { type: 'newData', oldestMs: T0 - Ms.Minute, newestMs: T0 });
    const s = graphTimeReducer(s0, { type: 'pan', deltaMs: -Ms.Minute });
    expect(s).toMatchObject({ viewportLive: true, viewportEndMs: T0 });
  });
  it('converts pixels to time: dragging right looks back', () => {
    expect(dragDeltaMs(100, 1000, 10 * Ms.Minute)).toBe(-Ms.Minute);
    expect(dragDeltaMs(-50, 1000, 10 * Ms.Minute)).toBe(30_000);
    expect(dragDeltaMs(10, 0, Ms.Minute)).toBe(0);
  });
});

describe('scroll zoom', () => {
  it('zooms around the pointer and turns live off', () => {
    const s = graphTimeReducer(withData(), { type: 'zoom', factor: 0.5, atMs: T0 - 5 * Ms.Minute });
    expect(viewportRange(s)).toEqual({ startMs: T0 - 7.5 * Ms.Minute, endMs: T0 - 2.5 * Ms.Minute });
    expect(s.viewportLive).toBe(false);
  });
  it('zooming out past the newest sample is live at the newest sample', () => {
    const s = graphTimeReducer(withData(), { type: 'zoom', factor: 2, atMs: T0 - 5 * Ms.Minute });
    expect(s).toMatchObject({ viewportPeriodMs: 20 * Ms.Minute, viewportEndMs: T0, viewportLive: true });
  });
  it('cannot go below a 10-second viewport', () => {
    const s = graphTimeReducer(withData(), { type: 'zoom', factor: 0.0001, atMs: T0 - Ms.Minute });
    expect(s.viewportPeriodMs).toBe(10_000);
    const again = graphTimeReducer(s, { type: 'zoom', factor: 0.5, atMs: T0 - Ms.Minute });
    expect(again.viewportPeriodMs).toBe(10_000);
  });
  it('maps wheel notches to zoom factors', () => {
    expect(wheelZoomFactor(100)).toBeCloseTo(1.25);
    expect(wheelZoomFactor(-100)).toBeCloseTo(0.8);
    expect(wheelZoomFactor(0)).toBe(1);
  });
});

describe('double click', () => {
  it('sets an explicit stats focus at that time and turns stats live off', () => {
    const s = graphTimeReducer(withData(), { type: 'doubleClick', atMs: T0 - 7 * Ms.Minute });
    expect(s).toMatchObject({ focusMode: FocusMode.Explicit, statsLive: false, statsEndMs: T0 - 7 * Ms.Minute });
    expect(s.viewportLive).toBe(true);
  });
  it('first click in viewport mode: about 1/15 of the viewport, rounded up to the steps', () => {
    expect(graphTimeReducer(withData(), { type: 'doubleClick', atMs: T0 }).statsPeriodMs).toBe(Ms.Minute);
    const day = graphTimeReducer(withData(), { type: 'choosePeriod', periodMs: 1440 * Ms.Minute });
    expect(graphTimeReducer(day, { type: 'doubleClick', atMs: T0 }).statsPeriodMs).toBe(3 * Ms.Hour);
  });
  it('a later click keeps the explicit period', () => {
    const s = run(withData(), { type: 'doubleClick', atMs: T0 - Ms.Hour }, { type: 'pickFocus', text: '30 s' }, { type: 'doubleClick', atMs: T0 - 2 * Ms.Hour });
    expect(s.statsPeriodMs).toBe(30_000);
    expect(statsRange(s)).toEqual({ startMs: T0 - 2 * Ms.Hour - 30_000, endMs: T0 - 2 * Ms.Hour });
  });
  it('rounds up to 1, 5, 10, 30 min, 1, 3, 6, 12 h, 1 day', () => {
    const cases: Array<[number, number]> = [
      [10 * Ms.Second, Ms.Minute],
      [15 * Ms.Minute, Ms.Minute],
      [15 * Ms.Minute + 15, 5 * Ms.Minute],
      [60 * Ms.Minute, 5 * Ms.Minute],
      [150 * Ms.Minute, 10 * Ms.Minute],
      [300 * Ms.Minute, 30 * Ms.Minute],
      [720 * Ms.Minute, Ms.Hour],
      [2880 * Ms.Minute, 6 * Ms.Hour],
      [10080 * Ms.Minute, 12 * Ms.Hour],
      [30 * Ms.Day, Ms.Day],
    ];
    for (const [viewport, expected] of cases) expect(explicitStatsPeriodForViewport(viewport)).toBe(expected);
  });
});

describe('focus picker', () => {
  it('"all" is all samples, "auto" is the viewport', () => {
    const all = graphTimeReducer(withData(), { type: 'pickFocus', text: 'All' });
    expect(all.focusMode).toBe(FocusMode.AllSamples);
    expect(statsRange(all)).toEqual({ startMs: T0 - 3 * Ms.Hour, endMs: T0 });
    expect(graphTimeReducer(all, { type: 'pickFocus', text: 'Auto' }).focusMode).toBe(FocusMode.Viewport);
  });
  it('a period gives an explicit focus that ends where the viewport ends', () => {
    const back = graphTimeReducer(withData(), { type: 'pan', deltaMs: -Ms.Hour });
    const s = graphTimeReducer(back, { type: 'pickFocus', text: '5 min' });
    expect(s).toMatchObject({ focusMode: FocusMode.Explicit, statsPeriodMs: 5 * Ms.Minute, statsEndMs: T0 - Ms.Hour, statsLive: false });
    const live = graphTimeReducer(withData(), { type: 'pickFocus', text: '5 min' });
    expect(live).toMatchObject({ statsEndMs: T0, statsLive: true });
  });
  it('ignores a zero or unreadable period', () => {
    const s = withData();
    expect(graphTimeReducer(s, { type: 'pickFocus', text: '0' })).toBe(s);
    expect(graphTimeReducer(s, { type: 'pickFocus', text: 'later' })).toBe(s);
  });
});

describe('select a dataset/segment range', () => {
  it('focuses the range and shows 2.5 times its length ending half a length after it', () => {
    const s = graphTimeReducer(withData(), { type: 'selectRange', startMs: T0 - 2 * Ms.Hour, endMs: T0 - Ms.Hour });
    expect(s).toMatchObject({
      focusMode: FocusMode.Explicit,
      statsPeriodMs: Ms.Hour,
      statsEndMs: T0 - Ms.Hour,
      viewportPeriodMs: 2.5 * Ms.Hour,
      viewportEndMs: T0 - 0.5 * Ms.Hour,
      viewportLive: false,
      statsLive: false,
    });
    expect(statsRange(s)).toEqual({ startMs: T0 - 2 * Ms.Hour, endMs: T0 - Ms.Hour });
  });
  it('ignores an empty range', () => {
    const s = withData();
    expect(graphTimeReducer(s, { type: 'selectRange', startMs: T0, endMs: T0 })).toBe(s);
  });
});

describe('stats range by focus mode', () => {
  it('Viewport follows the viewport; AllSamples falls back to it before data', () => {
    const s = withData();
    expect(statsRange(s)).toEqual(viewportRange(s));
    const empty = graphTimeReducer(initialGraphTimeState(T0), { type: 'pickFocus', text: 'all' });
    expect(statsRange(empty)).toEqual({ startMs: T0 - 10 * Ms.Minute, endMs: T0 });
  });
});
