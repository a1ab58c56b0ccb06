import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MaxJsonDepth } from './json-depth.js';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('jsonDepthExceeds', () => {
  it('accepts values up to the limit and refuses deeper ones', () => {
    expect(jsonDepthExceeds(1)).toBe(false);
    expect(jsonDepthExceeds({ a: [1, { b: 2 }] })).toBe(false);
    expect(jsonDepthExceeds(nested(MaxJsonDepth))).toBe(false);
    expect(jsonDepthExceeds(nested(MaxJsonDepth + 1))).toBe(true);
    expect(jsonDepthExceeds({ a: 1, b: { c: nested(MaxJsonDepth) } })).toBe(true);
  });

  it('walks a value far deeper than the call stack allows without overflowing', () => {
    const deep = nested(200_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonDepthExceeds(deep)).toBe(true);
  });
});
