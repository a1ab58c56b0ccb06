// Account operations (spec 1 section 7 "Account"): one function per operation.
import { DeploymentMode, PasswordMaxLength, type CurrentUser, type LoginRequest } from '../contract/account.js';
import type { Config } from '../config.js';
import { badRequest, forbidden, HttpError, tooManyRequests } from '../http/errors.js';
import type { Store } from '../store/db.js';
import type { DomainEventBus } from '../events.js';
import { findUserById, findUserByLogin, updateUserPassword } from '../users/repository.js';
import { isSuspended } from '../accounts/repository.js';
import { SuspendedAccountText } from '../contract/accounts.js';
import { expiredTrialError, trialExpired } from './authenticate.js';
import { createLoginSession, deleteLoginSession, deleteOtherLoginSessions, hashToken } from './login-sessions.js';
import type { LoginThrottle } from './login-throttle.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';
import { passwordProblem } from './password-policy.js';
import { UserEventKind } from '../contract/staff.js';
import { insertSignIn } from '../staff/sessionaudit/repository.js';
import { insertUserEvent } from '../staff/userandevents/repository.js';
import { currentUserOf, principalOf, type Principal } from './principal.js';

export interface AccountDeps {
  store: Store;
  config: Config;
  throttle: LoginThrottle;
  events: DomainEventBus;
}

/** One message for unknown user and wrong password alike. */
export const LoginFailedText = 'The user name or password is not correct.';

export async function login(
  deps: AccountDeps,
  req: LoginRequest,
  address: string,
  userAgent = '',
): Promise<{ user: CurrentUser; token: string; persistent: boolean }> {
  const username = req.Username.trim();
  if (!username) throw badRequest('Your username cannot be blank');
  if (!req.Password) throw badRequest('Password cannot be blank');
  const wait = await deps.throttle.retryAfter(username, address);
  if (wait > 0) {
    throw tooManyRequests(`Too many failed sign-in attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`, wait);
  }
  const user = await deps.store.read((q) => findUserByLogin(q, username));
  const ok = await verifyPassword(req.Password, user ? user.passwordHash : await decoyHash());
  if (!user || !ok) {
    await deps.throttle.recordFailure(username, address);
    // A known user's failed sign-in is one of their events (staff Users and Events); an
    // unknown name is not kept: it may be a password typed in the wrong field.
    if (user) {
      await deps.store.exclusive((q) => insertUserEvent(q, { accountId: user.accountId, userId: user.id, kind: UserEventKind.SignInFailed, method: 'POST', route: '/api/Account/Login', status: 401, address }));
    }
    throw new HttpError(401, LoginFailedText);
  }
  await deps.throttle.recordSuccess(username, address);
  if (trialExpired(deps.config)) throw expiredTrialError();
  // Told only after the right password: a suspended account's users learn why they cannot sign in.
  if ((await deps.store.read((q) => isSuspended(q, user.accountId))).suspended) throw forbidden(SuspendedAccountText);
  const persistent = req.RememberMe === true;
  // The sign-in's record (staff Session Audit; the token's hash only) and event come with it.
  const token = await deps.store.transaction(async (q) => {
    const t = await createLoginSession(q, user.id, persistent);
    await insertSignIn(q, { tokenHash: hashToken(t), userId: user.id, accountId: user.accountId, address, userAgent, persistent });
    await insertUserEvent(q, { accountId: user.accountId, userId: user.id, kind: UserEventKind.SignIn, method: 'POST', route: '/api/Account/Login', status: 200, address });
    return t;
  });
  return { user: currentUserOf(principalOf(user), deps.config.licenseMode), token, persistent };
}

export async function logout(deps: AccountDeps, token: string | undefined): Promise<void> {
  if (!token) return;
  await deps.store.exclusive((q) => deleteLoginSession(q, token));
  // Hub connections opened with this session close too.
  deps.events.emit('SignedOut', hashToken(token));
}

export function getCurrentUser(deps: AccountDeps, p: Principal): CurrentUser {
  return currentUserOf(p, deps.config.licenseMode);
}

/** Checks shared with the console's change-password modal (spec 1 section 5). */
export function newPasswordProblem(newPassword: string, currentPassword: string | undefined): string | undefined {
  if (!newPassword) return 'The new password cannot be blank.';
  if (newPassword.length > PasswordMaxLength) return `A password has at most ${PasswordMaxLength} characters.`;
  if (currentPassword !== undefined && newPassword === currentPassword) return 'New password can not match current password';
  return undefined;
}

export async function changePassword(
  deps: AccountDeps,
  p: Principal,
  currentPassword: string | undefined,
  newPassword: string,
  keepToken: string | undefined,
  address = '',
): Promise<CurrentUser> {
  // The cloud flavour asks no current password: an impersonator must not set the user's.
  if (p.impersonator) throw forbidden('Passwords cannot be changed while impersonating a user.');
  const selfHosted = deps.config.deployment === DeploymentMode.SelfHosted;
  if (selfHosted && !currentPassword) throw badRequest('The current password is required.');
  const problem = newPasswordProblem(newPassword, currentPassword);
  if (problem) throw badRequest(problem);
  const user = await deps.store.read((q) => findUserById(q, p.userId));
  if (!user) throw badRequest('Your user no longer exists.');
  if (selfHosted) {
    // A wrong current password is a failed sign-in attempt: a stolen session cannot guess it at speed.
    const wait = await deps.throttle.retryAfter(user.name, address);
    if (wait > 0) throw tooManyRequests(`Too many wrong passwords. Try again in ${Math.ceil(wait / 60)} minute(s).`, wait);
    if (!(await verifyPassword(currentPassword!, user.passwordHash))) {
      await deps.throttle.recordFailure(user.name, address);
      throw badRequest('The current password is not correct.');
    }
  }
  const weak = passwordProblem(newPassword, user);
  if (weak) throw badRequest(weak);
  const hash = await hashPassword(newPassword);
  const kept = keepToken === undefined ? undefined : hashToken(keepToken);
  await deps.store.transaction(async (q) => {
    await updateUserPassword(q, user.id, hash, false);
    // Other devices signed in with the old password must sign in again, hub connections too.
    await deleteOtherLoginSessions(q, user.id, kept);
  });
  deps.events.emit('LoginSessionsEnded', user.id, kept);
  deps.events.emit('UserUpdated', user.accountId, user.id);
  return currentUserOf(principalOf({ ...user, tempPassword: false }), deps.config.licenseMode);
}
