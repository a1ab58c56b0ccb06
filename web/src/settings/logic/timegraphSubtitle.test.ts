import { describe, expect, it } from 'vitest';
import { ShowBoth, timegraphSubtitle } from './timegraphSubtitle';

describe('the time graph subtitle', () => {
  it('names the configuration and the agent unless General hides them', () => {
    expect(timegraphSubtitle('Default', 'Local Machine', ShowBoth)).toBe('Default · Local Machine');
    expect(timegraphSubtitle('Default', 'Local Machine', { hideSettingName: true, hideAgentName: false })).toBe('Local Machine');
    expect(timegraphSubtitle('Default', 'Local Machine', { hideSettingName: false, hideAgentName: true })).toBe('Default');
    expect(timegraphSubtitle('Default', 'Local Machine', { hideSettingName: true, hideAgentName: true })).toBe('');
  });
});
