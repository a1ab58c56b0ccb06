// Change-password rules of spec 1 section 5 and the 45-character limit of section 9.
import { Claim, PasswordMaxLength, type CurrentUser } from '../../../server/contract/account';

export interface ChangePasswordInput {
  current: string;
  next: string;
  confirm: string;
  /** Self-hosted mode asks for (and checks against) the current password. */
  requireCurrent: boolean;
}

export interface ChangePasswordCheck {
  valid: boolean;
  /** Texts to show next to the fields. */
  errors: { current?: string; next?: string; confirm?: string };
}

export const TooLong = `At most ${PasswordMaxLength} characters`;
export const MatchesCurrent = 'New password can not match current password';
export const ConfirmMismatch = 'Confirm does not match';

export function checkChangePassword(input: ChangePasswordInput): ChangePasswordCheck {
  const errors: ChangePasswordCheck['errors'] = {};
  let valid = true;
  if (input.requireCurrent) {
    if (input.current === '') valid = false;
    else if (input.current.length > PasswordMaxLength) errors.current = TooLong;
  }
  if (input.next === '') valid = false;
  else if (input.next.length > PasswordMaxLength) errors.next = TooLong;
  else if (input.requireCurrent && input.next === input.current) errors.next = MatchesCurrent;
  if (input.confirm.length > PasswordMaxLength) errors.confirm = TooLong;
  // A mismatch is reported once something is typed in the confirmation.
  else if (input.confirm !== '' && input.confirm !== input.next) errors.confirm = ConfirmMismatch;
  if (input.confirm !== input.next) valid = false;
  return { valid: valid && !errors.current && !errors.next && !errors.confirm, errors };
}

/**
 * A web user signed in with a password an admin set: Change Password opens by itself and
 * stays until they pick their own (issue 26). Root's generated password only warns.
 */
export const mustReplacePassword = (user: CurrentUser | null | undefined): boolean =>
  !!user && user.IsUser && !user.IsRoot && user.Claims.includes(Claim.TempPassword);
