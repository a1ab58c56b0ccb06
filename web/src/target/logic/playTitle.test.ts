// Issue 41 item 12: the disabled Pause button said "No permission to start traces". The
// tooltip names what the button would do.
import { describe, expect, it } from 'vitest';
import { NoPermissionToStartTracesTooltip } from './constants';
import { playButtonTitle } from './playTitle';

describe('playButtonTitle', () => {
  it('without the permission, says which command is refused', () => {
    expect(playButtonTitle('start', false)).toBe(NoPermissionToStartTracesTooltip);
    expect(playButtonTitle('pause', false)).toBe('No permission to pause traces.');
    expect(playButtonTitle('resume', false)).toBe('No permission to resume traces.');
  });
  it('with it, names the command', () => {
    expect(playButtonTitle('start', true)).toBe('Start');
    expect(playButtonTitle('pause', true)).toBe('Pause');
    expect(playButtonTitle('resume', true)).toBe('Resume');
  });
});
