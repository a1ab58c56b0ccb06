// Pure helpers of the /activate page.
import { PasswordMaxLength } from '../../../../server/contract/account';

/** The token of an activation link: everything after '#' (the mail's link is /activate#TOKEN). */
export function tokenFromHash(hash: string): string | undefined {
  const token = hash.replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{16,128}$/.test(token) ? token : undefined;
}

export interface NewPasswordCheck {
  valid: boolean;
  errors: { next?: string; confirm?: string };
}

/**
 * What the form checks before sending: filled in, at most 45 characters (spec 1 section 9),
 * and the confirmation equal. The server applies the rest of the password policy.
 */
export function checkNewPassword(next: string, confirm: string): NewPasswordCheck {
  const errors: NewPasswordCheck['errors'] = {};
  if (next.length > PasswordMaxLength) errors.next = `At most ${PasswordMaxLength} characters`;
  if (confirm !== '' && confirm !== next) errors.confirm = 'Confirm does not match';
  return { valid: next !== '' && confirm === next && !errors.next, errors };
}
