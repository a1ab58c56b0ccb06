// What a password must be (issue 26, item 5), wherever one is set: by the user, or by an
// admin for another user. The 45-character limit is the console's (spec 1 section 9); the
// minimum and the user-name rule are ours (docs/decisions.md). A root password given by the
// operator in HOPWATCH_ROOT_PASSWORD is the operator's choice and is not checked here.
import { PasswordMaxLength } from '../contract/account.js';

export const PasswordMinLength = 8;

/** The names a password may not be or contain: the user name, the e-mail and its local part. */
function namesOf(user: { name: string; email?: string }): string[] {
  const names = [user.name, user.email ?? ''];
  for (const n of [...names]) {
    const local = n.split('@')[0] ?? '';
    // A very short local part ("a@x") would forbid half of all passwords.
    if (n.includes('@') && local.length >= 3) names.push(local);
  }
  return names.map((n) => n.trim().toLowerCase()).filter((n) => n.length > 0);
}

/** Why the password cannot be used, as a text for `{"Error": ...}`; undefined when it can. */
export function passwordProblem(password: string | undefined, user: { name: string; email?: string }): string | undefined {
  if (!password) return 'A password is required.';
  if (password.length < PasswordMinLength) return `A password needs at least ${PasswordMinLength} characters.`;
  if (password.length > PasswordMaxLength) return `A password has at most ${PasswordMaxLength} characters.`;
  const lower = password.toLowerCase();
  if (namesOf(user).some((n) => lower.includes(n))) return 'A password cannot be or contain the user name.';
  return undefined;
}
