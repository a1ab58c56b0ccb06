import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../../server/contract/account';
import { ConfirmMismatch, MatchesCurrent, TooLong, checkChangePassword, mustReplacePassword } from './changePasswordRules';

const selfHosted = (current: string, next: string, confirm: string) => checkChangePassword({ current, next, confirm, requireCurrent: true });
const cloud = (next: string, confirm: string) => checkChangePassword({ current: '', next, confirm, requireCurrent: false });

describe('change-password rules', () => {
  it('accepts a new password that differs from the current one and is confirmed', () => {
    expect(selfHosted('old-pass', 'new-pass', 'new-pass')).toEqual({ valid: true, errors: {} });
  });

  it('is not valid while the current password is missing in self-hosted mode', () => {
    expect(selfHosted('', 'new-pass', 'new-pass').valid).toBe(false);
  });

  it('does not ask for the current password in cloud mode', () => {
    expect(cloud('new-pass', 'new-pass')).toEqual({ valid: true, errors: {} });
  });

  it('needs a non-empty new password', () => {
    expect(selfHosted('old', '', '').valid).toBe(false);
    expect(cloud('', '').valid).toBe(false);
  });

  it('rejects a new password equal to the current one', () => {
    const check = selfHosted('same-pass', 'same-pass', 'same-pass');
    expect(check.valid).toBe(false);
    expect(check.errors.next).toBe(MatchesCurrent);
    expect(MatchesCurrent).toBe('New password can not match current password');
  });

  it('rejects a confirmation that differs, saying so once something is typed', () => {
    const typed = selfHosted('old', 'new-pass', 'new-pas');
    expect(typed.valid).toBe(false);
    expect(typed.errors.confirm).toBe(ConfirmMismatch);
    expect(ConfirmMismatch).toBe('Confirm does not match');
    const empty = selfHosted('old', 'new-pass', '');
    expect(empty.valid).toBe(false);
    expect(empty.errors.confirm).toBeUndefined();
  });

  it('allows 45 characters and no more in each field', () => {
    const p45 = 'a'.repeat(45);
    const p46 = 'a'.repeat(46);
    expect(selfHosted('old', p45, p45).valid).toBe(true);
    expect(selfHosted('old', p46, p46)).toMatchObject({ valid: false, errors: { next: TooLong } });
    expect(selfHosted(p46, 'new', 'new')).toMatchObject({ valid: false, errors: { current: TooLong } });
  });
});

describe('mustReplacePassword', () => {
  const user = (over: Partial<CurrentUser>): CurrentUser => ({
    Username: 'u', Message: '', IsLiveshare: false, IsUser: true, IsRoot: false, LicenseMode: 3, Claims: [], Flags: [], ...over,
  });
  it('holds for a web user with a temporary password only', () => {
    expect(mustReplacePassword(user({ Claims: ['temppassword'] }))).toBe(true);
    expect(mustReplacePassword(user({ Claims: [] }))).toBe(false);
    expect(mustReplacePassword(user({ IsRoot: true, Claims: ['temppassword'] }))).toBe(false);
    expect(mustReplacePassword(null)).toBe(false);
  });
});
