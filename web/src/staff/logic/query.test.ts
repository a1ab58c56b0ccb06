import { describe, expect, it } from 'vitest';
import { idParam } from './query';

describe('idParam', () => {
  it('reads a positive id, ignoring anything else', () => {
    expect(idParam(new URLSearchParams('userId=12'), 'userId')).toBe(12);
    for (const v of ['', '0', '-3', 'abc', '1e3', '99999999999']) expect(idParam(new URLSearchParams({ userId: v }), 'userId')).toBeUndefined();
    expect(idParam(new URLSearchParams(''), 'userId')).toBeUndefined();
  });
});
