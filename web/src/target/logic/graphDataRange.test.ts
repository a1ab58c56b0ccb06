import { describe, expect, it } from 'vitest';
import { bucketPeriodSeconds, dataRangeToLoad, liveFetchRange, needsDataReload } from './graphDataRange';
import { graphTimeReducer, initialGraphTimeState } from './graphTimeState';
import { Ms } from './constants';

const T0 = Date.UTC(2026, 0, 1, 12);

describe('dataRangeToLoad', () => {
  it('is twice the viewport span, centred on it', () => {
    const r = dataRangeToLoad(initialGraphTimeState(T0));
    expect(r).toEqual({ startMs: T0 - 15 * Ms.Minute, endMs: T0 + 5 * Ms.Minute });
    expect(r.endMs - r.startMs).toBe(2 * 10 * Ms.Minute);
  });
});

describe('needsDataReload', () => {
  const s = graphTimeReducer(initialGraphTimeState(T0), { type: 'newData', oldestMs: T0 - Ms.Day, newestMs: T0 });
  const loaded = dataRangeToLoad(s);
  it('reloads when nothing is loaded', () => expect(needsDataReload(null, s)).toBe(true));
  it('keeps data while the viewport stays inside it', () => {
    expect(needsDataReload(loaded, s)).toBe(false);
    expect(needsDataReload(loaded, graphTimeReducer(s, { type: 'pan', deltaMs: -4 * Ms.Minute }))).toBe(false);
  });
  it('reloads when the viewport leaves it or the period changes', () => {
    expect(needsDataReload(loaded, graphTimeReducer(s, { type: 'pan', deltaMs: -6 * Ms.Minute }))).toBe(true);
    expect(needsDataReload(loaded, graphTimeReducer(s, { type: 'choosePeriod', periodMs: Ms.Hour }))).toBe(true);
  });
});

describe('liveFetchRange', () => {
  it('overlaps the last fetch by 500 ms', () => {
    expect(liveFetchRange(T0, T0 + 2500)).toEqual({ startMs: T0 - 500, endMs: T0 + 2500 });
  });
});

describe('bucketPeriodSeconds', () => {
  it('is about one bucket per pixel, at least 1 s', () => {
    expect(bucketPeriodSeconds(10 * Ms.Minute, 600)).toBe(1);
    expect(bucketPeriodSeconds(Ms.Day, 1000)).toBe(87);
    expect(bucketPeriodSeconds(Ms.Minute, 0)).toBe(1);
  });
});
