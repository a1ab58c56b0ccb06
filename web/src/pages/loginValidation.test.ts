import { describe, expect, it } from 'vitest';
import { hasLoginErrors, isExpiredLogin, validateLogin } from './loginValidation';

describe('login validation', () => {
  it('reports a blank username and a blank password with the spec texts', () => {
    expect(validateLogin('', '')).toEqual({ username: 'Your username cannot be blank', password: 'Password cannot be blank' });
    expect(validateLogin('   ', 'pw')).toEqual({ username: 'Your username cannot be blank' });
    expect(validateLogin('admin', '')).toEqual({ password: 'Password cannot be blank' });
  });

  it('has no errors when both are given, so the call is made', () => {
    const errors = validateLogin('admin', 'secret');
    expect(errors).toEqual({});
    expect(hasLoginErrors(errors)).toBe(false);
    expect(hasLoginErrors(validateLogin('admin', ''))).toBe(true);
  });

  it('detects the expired notice from the query or the route segment', () => {
    expect(isExpiredLogin(new URLSearchParams('expired=true'), undefined)).toBe(true);
    expect(isExpiredLogin(new URLSearchParams('expired'), undefined)).toBe(true);
    expect(isExpiredLogin(new URLSearchParams('expired=false'), undefined)).toBe(false);
    expect(isExpiredLogin(new URLSearchParams(''), 'expired')).toBe(true);
    expect(isExpiredLogin(new URLSearchParams('u=a&p=b'), undefined)).toBe(false);
  });
});
