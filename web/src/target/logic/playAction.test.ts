import { describe, expect, it } from 'vitest';
import { entryReducer, initialEntryState, playAction, type EntryEvent } from './playAction';

const run = (...events: EntryEvent[]) => events.reduce(entryReducer, initialEntryState);
const paused = { hasTarget: true, newTargetMode: false, running: false, targetName: '127.0.0.1' };

describe('playAction', () => {
  it('pauses a running target and resumes a paused one while the text is unchanged', () => {
    expect(playAction({ ...paused, running: true, entryText: '127.0.0.1' })).toBe('pause');
    expect(playAction({ ...paused, entryText: ' 127.0.0.1 ' })).toBe('resume');
  });
  it('starts a new trace with new text, in new-target mode, or without a target', () => {
    expect(playAction({ ...paused, entryText: '127.0.0.2' })).toBe('start');
    expect(playAction({ ...paused, running: true, entryText: '127.0.0.2' })).toBe('start');
    expect(playAction({ ...paused, newTargetMode: true, entryText: '127.0.0.1' })).toBe('start');
    expect(playAction({ ...paused, hasTarget: false, entryText: '127.0.0.1' })).toBe('start');
  });
});

describe('entryReducer', () => {
  it('shows the target name until the user types', () => {
    expect(run({ type: 'targetName', name: '127.0.0.1' })).toEqual({ text: '127.0.0.1', edited: false });
    expect(run({ type: 'targetName', name: 'a' }, { type: 'targetName', name: 'b' }).text).toBe('b');
  });
  it('keeps typed text when the target name arrives after it (the paused target is not resumed)', () => {
    // "/" reopens a paused target; the user changes the interval, types another address,
    // and the target's details (or their refresh) answer only then.
    const entry = run({ type: 'typed', text: '127.0.0.2' }, { type: 'targetName', name: '127.0.0.1' });
    expect(entry.text).toBe('127.0.0.2');
    expect(playAction({ ...paused, entryText: entry.text })).toBe('start');
  });
  it('Release Focus empties the entry and a late name does not refill it', () => {
    expect(run({ type: 'targetName', name: 'x' }, { type: 'cleared' }, { type: 'targetName', name: 'x' }).text).toBe('');
  });
});
