import { describe, expect, it } from 'vitest';
import { checkNewPassword, tokenFromHash } from './activationLink';

describe('tokenFromHash', () => {
  it('takes the token after #, and nothing that is not one', () => {
    const token = 'AbC_-0123456789abcdefghijklmnopqrstuvwxyzQ';
    expect(tokenFromHash(`#${token}`)).toBe(token);
    expect(tokenFromHash('')).toBeUndefined();
    expect(tokenFromHash('#')).toBeUndefined();
    expect(tokenFromHash('#short')).toBeUndefined();
    expect(tokenFromHash(`#${token}<script>`)).toBeUndefined();
  });
});

describe('checkNewPassword', () => {
  it('needs a password of at most 45 characters and the same confirmation', () => {
    expect(checkNewPassword('', '').valid).toBe(false);
    expect(checkNewPassword('a good one 1', '').valid).toBe(false);
    expect(checkNewPassword('a good one 1', 'a good one').errors.confirm).toBe('Confirm does not match');
    expect(checkNewPassword('x'.repeat(46), 'x'.repeat(46))).toEqual({ valid: false, errors: { next: 'At most 45 characters' } });
    expect(checkNewPassword('a good one 1', 'a good one 1')).toEqual({ valid: true, errors: {} });
  });
});
