import { describe, expect, it } from 'vitest';
import { FocusChoices, parseFocusChoiceText } from './focusChoice';
import { FocusMode } from './constants';

describe('parseFocusChoiceText', () => {
  it('text containing "all" is all samples, "auto" is the viewport', () => {
    expect(parseFocusChoiceText('All')).toEqual({ focusMode: FocusMode.AllSamples });
    expect(parseFocusChoiceText('show all samples')).toEqual({ focusMode: FocusMode.AllSamples });
    expect(parseFocusChoiceText('AUTO')).toEqual({ focusMode: FocusMode.Viewport });
  });
  it('anything else is a period', () => {
    expect(parseFocusChoiceText('5 min')).toEqual({ focusMode: FocusMode.Explicit, statsPeriodMs: 300_000 });
    expect(parseFocusChoiceText('90')).toEqual({ focusMode: FocusMode.Explicit, statsPeriodMs: 90_000 });
    expect(parseFocusChoiceText('0:01:00:00')).toEqual({ focusMode: FocusMode.Explicit, statsPeriodMs: 3_600_000 });
  });
  it('ignores a zero or unreadable period', () => {
    expect(parseFocusChoiceText('0')).toBeNull();
    expect(parseFocusChoiceText('0 min')).toBeNull();
    expect(parseFocusChoiceText('soon')).toBeNull();
  });
});

describe('FocusChoices', () => {
  it('lists 5 s, 30 s, 60 s, 5 min, 30 min, 60 min, Auto, All with their focus', () => {
    expect(FocusChoices.map((c) => c.label)).toEqual(['5 s', '30 s', '60 s', '5 min', '30 min', '60 min', 'Auto', 'All']);
    const periods = FocusChoices.slice(0, 6).map((c) => (c.choice.focusMode === FocusMode.Explicit ? c.choice.statsPeriodMs : -1));
    expect(periods).toEqual([5_000, 30_000, 60_000, 300_000, 1_800_000, 3_600_000]);
    expect(FocusChoices[6].choice.focusMode).toBe(FocusMode.Viewport);
    expect(FocusChoices[7].choice.focusMode).toBe(FocusMode.AllSamples);
  });
});
