import { describe, expect, it } from 'vitest';
import { contextOf } from './repository.js';

describe('contextOf', () => {
  it('names the session and the test of an Insights feedback', () => {
    expect(contextOf('12', '{"testTitle":"Route Change Test","insight":"x"}')).toBe('session 12, Route Change Test');
    expect(contextOf('12', '{"TestTitle":"Loss Test"}')).toBe('session 12, Loss Test');
    expect(contextOf('', 'free text context')).toBe('free text context');
    expect(contextOf('3', '{}')).toBe('session 3');
    expect(contextOf('3', 'null')).toBe('session 3');
    expect(contextOf('', '')).toBe('');
  });
});
