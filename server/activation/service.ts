// Activation links (issue 26; spec 1 section 7 names only POST /api/user/SendActivationLink):
// an admin mails a web user a one-time link; opening it lets the user set their own password.
// The token is 32 bytes from the CSPRNG; only its SHA-256 is stored (a high-entropy token
// needs no slow hash), it expires after ActivationLinkHours, works once, and a newer link
// replaces an older one. Tokens are never logged: the link carries it in the URL fragment.
import { randomBytes } from 'node:crypto';
import { Claim } from '../contract/account.js';
import { ActivationLinkHours, type ActivationLinkInfo, type ActivationLinkSent } from '../contract/users.js';
import { requireClaim } from '../account/authenticate.js';
import { deleteOtherLoginSessions, hashToken } from '../account/login-sessions.js';
import type { LoginThrottle } from '../account/login-throttle.js';
import { memoryWindowCounters, type WindowCounters } from '../account/window-counter.js';
import { passwordProblem } from '../account/password-policy.js';
import { hashPassword } from '../account/passwords.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, forbidden, HttpError, notFound, tooManyRequests } from '../http/errors.js';
import { MailError, type SendMail } from '../mail/transport.js';
import type { Store } from '../store/db.js';
import { SlidingWindowLimit } from '../insights/rate-limit.js';
import { findUserById, listUsers, updateUserPassword, type UserRecord } from '../users/repository.js';
import { activationLink, activationMail, sendToOneRecipient } from './mail.js';
import { emailAddressProblem, validEmailAddress } from '../users/email-address.js';
import * as repo from './repository.js';

export const ActivationLinkMs = ActivationLinkHours * 3600_000;

export interface ActivationDeps {
  store: Store;
  events: DomainEventBus;
  sendMail: SendMail;
  /** The SMTP host in effect ('' when none is set): checked before a token is made. */
  smtpHost: () => Promise<string>;
  /** Failed link look-ups per address (a separate LoginThrottle from sign-in's). */
  throttle: LoginThrottle;
  /** Mails per recipient and per sender (a mail bomb through an admin's session). */
  sendLimits: { perUser: SlidingWindowLimit; perSender: SlidingWindowLimit };
  now?: () => number;
}

/** At most this many links per user per hour, and per sending admin per hour. */
export const SendLimits = { perUserPerHour: 5, perSenderPerHour: 30 } as const;

export function defaultSendLimits(counters: WindowCounters = memoryWindowCounters) {
  return {
    perUser: new SlidingWindowLimit(SendLimits.perUserPerHour, 3600_000, counters('activation-mails-per-user')),
    perSender: new SlidingWindowLimit(SendLimits.perSenderPerHour, 3600_000, counters('activation-mails-per-sender')),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** The user of the caller's account with this e-mail address (case-insensitive), if any. */
async function userByEmail(deps: ActivationDeps, accountId: number, email: string): Promise<UserRecord | undefined> {
  const lower = email.toLowerCase();
  const users = await deps.store.read((q) => listUsers(q, accountId));
  return users.find((u) => u.email.toLowerCase() === lower);
}

export async function sendActivationLink(deps: ActivationDeps, p: Principal, emailInput: string, baseUrl: string): Promise<ActivationLinkSent> {
  requireClaim(p, Claim.UserManagement);
  const now = deps.now?.() ?? Date.now();
  // One mailbox, as a user's address is (server/users/email-address.ts): not a list.
  const email = validEmailAddress(emailInput);
  // The caller manages this account's users: saying who is unknown tells them nothing new.
  const user = await userByEmail(deps, p.accountId, email);
  if (!user) throw notFound(`No web user has the e-mail address ${email}.`);
  if (user.isRoot) throw forbidden('The root user cannot be sent an activation link.');
  // A user stored before addresses were checked may hold a list or a header: never mailed.
  const addressProblem = emailAddressProblem(user.email);
  if (addressProblem) {
    throw conflict(`${user.name}'s stored e-mail address is not one valid address (${addressProblem}): no link was sent. Delete the user and create them again with one address, or set a password for them instead.`);
  }
  if (!(await deps.smtpHost())) {
    throw conflict(`No SMTP server is set, so no activation link can be mailed to ${user.email}. Set one in Settings > General > Mail (or HOPWATCH_SMTP_HOST), or set a password for the user instead.`);
  }
  for (const [limit, key, what] of [
    [deps.sendLimits.perUser, `u:${user.id}`, `${SendLimits.perUserPerHour} activation links an hour to one user`],
    [deps.sendLimits.perSender, `s:${p.impersonator?.userId ?? p.userId}`, `${SendLimits.perSenderPerHour} activation links an hour`],
  ] as const) {
    const wait = await limit.take(key, now);
    if (wait > 0) throw tooManyRequests(`At most ${what} can be sent. Try again in ${minutes(wait)} minute(s).`, Math.ceil(wait / 1000));
  }

  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashToken(token);
  const expiresAt = now + ActivationLinkMs;
  await deps.store.transaction(async (q) => {
    await repo.deleteOldLinks(q, now);
    await repo.endOpenLinksOfUser(q, user.id, 'replaced', now);
    await repo.insertLink(q, { tokenHash, userId: user.id, accountId: user.accountId, sentBy: p.userId, createdAt: now, expiresAt });
  });
  const mail = activationMail({ to: user.email, username: user.name, sentBy: p.username, link: activationLink(baseUrl, token), expiresAt: new Date(expiresAt) });
  try {
    await sendToOneRecipient(deps.sendMail, mail, user.email);
  } catch (err) {
    // A link nobody received must not stay usable; the previous one stays replaced (the admin
    // meant to send a new one and can try again).
    await deps.store.transaction((q) => repo.endOpenLinksOfUser(q, user.id, 'replaced', now));
    if (err instanceof MailError) throw new HttpError(502, `The activation link could not be mailed. ${err.message}`);
    throw err;
  }
  return {
    EmailAddress: user.email,
    ExpiresAt: iso(expiresAt),
    Message: `An activation link was mailed to ${user.email}. It works once, for ${ActivationLinkHours} hours.`,
  };
}

/** Why a token cannot be used, as the refusal the page shows; undefined when it works. */
function refusalOf(link: repo.ActivationLinkRecord | undefined, user: UserRecord | undefined, now: number): HttpError | undefined {
  if (!link || !user || user.accountId !== link.accountId || user.isRoot) {
    return notFound('This activation link is not valid. Check that the whole link was opened, or ask your administrator for a new one.');
  }
  if (link.endReason === 'used') return new HttpError(410, 'This activation link was already used to set a password. Sign in with that password, or ask your administrator for a new link.');
  if (link.endReason === 'replaced') return new HttpError(410, 'A newer activation link was sent for this user: use the link in the newest mail.');
  if (link.expiresAt <= now) return new HttpError(410, `This activation link expired at ${iso(link.expiresAt)}. Ask your administrator for a new one.`);
  return undefined;
}

/** What an anonymous caller may try: refused for a while after too many bad links. */
async function checkThrottle(deps: ActivationDeps, address: string): Promise<void> {
  const wait = await deps.throttle.retryAfter('activation', address);
  if (wait > 0) throw tooManyRequests(`Too many activation links that do not work were tried. Try again in ${Math.ceil(wait / 60)} minute(s).`, wait);
}

async function workingLink(deps: ActivationDeps, token: string, address: string, now: number) {
  await checkThrottle(deps, address);
  const tokenHash = hashToken(token);
  const link = await deps.store.read((q) => repo.findLink(q, tokenHash));
  const user = link && (await deps.store.read((q) => findUserById(q, link.userId)));
  const refused = refusalOf(link, user, now);
  if (refused) {
    await deps.throttle.recordFailure('activation', address);
    throw refused;
  }
  return { link: link!, user: user!, tokenHash };
}

/** Whom a link is for, so the page can name the user before asking for a password. */
export async function describeActivationLink(deps: ActivationDeps, token: string, address: string): Promise<ActivationLinkInfo> {
  const { link, user } = await workingLink(deps, token, address, deps.now?.() ?? Date.now());
  return { Username: user.name, EmailAddress: user.email, ExpiresAt: iso(link.expiresAt) };
}

/**
 * Sets the user's own password (not temporary), uses the link up, and ends the user's login
 * sessions (whoever signed in with the old password signs in again).
 */
export async function activate(deps: ActivationDeps, token: string, newPassword: string, address: string): Promise<ActivationLinkInfo> {
  const now = deps.now?.() ?? Date.now();
  const { link, user, tokenHash } = await workingLink(deps, token, address, now);
  const problem = passwordProblem(newPassword, user);
  if (problem) throw badRequest(problem);
  const hash = await hashPassword(newPassword);
  await deps.store.transaction(async (q) => {
    // Again inside the transaction: two tabs submitting the same link set one password.
    const again = refusalOf(await repo.findLink(q, tokenHash), await findUserById(q, user.id), now);
    if (again) throw again;
    await updateUserPassword(q, user.id, hash, false);
    await repo.endOpenLinksOfUser(q, user.id, 'used', now);
    await deleteOtherLoginSessions(q, user.id, undefined);
  });
  deps.events.emit('LoginSessionsEnded', user.id, undefined);
  deps.events.emit('UserUpdated', user.accountId, user.id);
  return { Username: user.name, EmailAddress: user.email, ExpiresAt: iso(link.expiresAt) };
}
