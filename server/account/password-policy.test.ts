import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy.js';

const carol = { name: 'carol@example.org', email: 'carol@example.org' };

describe('password policy', () => {
  it('refuses blank, short and over-long passwords with their reason', () => {
    expect(passwordProblem('', carol)).toBe('A password is required.');
    expect(passwordProblem(undefined, carol)).toBe('A password is required.');
    expect(passwordProblem('x', carol)).toBe('A password needs at least 8 characters.');
    expect(passwordProblem('1234567', carol)).toBe('A password needs at least 8 characters.');
    expect(passwordProblem('x'.repeat(46), carol)).toBe('A password has at most 45 characters.');
  });

  it('refuses a password that is or contains the user name, ignoring case', () => {
    expect(passwordProblem('carol@example.org', carol)).toBe('A password cannot be or contain the user name.');
    expect(passwordProblem('my-CAROL-pass', carol)).toBe('A password cannot be or contain the user name.');
    expect(passwordProblem('admin2024!', { name: 'admin' })).toBe('A password cannot be or contain the user name.');
  });

  it('accepts 8 to 45 characters that do not name the user', () => {
    expect(passwordProblem('12345678', carol)).toBeUndefined();
    expect(passwordProblem('x'.repeat(45), carol)).toBeUndefined();
    // A short e-mail local part is no rule: it would forbid too many passwords.
    expect(passwordProblem('a-long-password', { name: 'a@x.org', email: 'a@x.org' })).toBeUndefined();
  });
});
