import { describe, expect, it } from 'vitest';
import { FocusMode } from './constants';
import { focusStorageKey, storedFocusChoice } from './focusMemory';
import { graphTimeReducer, initialGraphTimeState } from './graphTimeState';

describe('Focus choice per target', () => {
  it('has one key per target', () => {
    expect(focusStorageKey('12')).toBe('Target-Focus_12');
    expect(focusStorageKey('12')).not.toBe(focusStorageKey('13'));
  });
  it('gives back a stored choice that still parses, and nothing for missing or unreadable text', () => {
    expect(storedFocusChoice('All')).toBe('All');
    expect(storedFocusChoice('5 min')).toBe('5 min');
    expect(storedFocusChoice(null)).toBeNull();
    expect(storedFocusChoice('0')).toBeNull();
    expect(storedFocusChoice('banana')).toBeNull();
  });
  it('a stored choice applied after the reset of a reopened target restores that focus', () => {
    const reset = graphTimeReducer(initialGraphTimeState(1_000_000), { type: 'reset', nowMs: 2_000_000 });
    const s = graphTimeReducer(reset, { type: 'pickFocus', text: storedFocusChoice('5 min')! });
    expect(s).toMatchObject({ focusMode: FocusMode.Explicit, statsPeriodMs: 300_000 });
  });
});
