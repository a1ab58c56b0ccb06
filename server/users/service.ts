// Web user management (spec 1 section 7 "Web users"): one function per operation.
import { AssignableClaims, Claim } from '../contract/account.js';
import { passwordProblem } from '../account/password-policy.js';
import type { RoleClaim, WebUser } from '../contract/users.js';
import { requireClaim } from '../account/authenticate.js';
import { hashPassword } from '../account/passwords.js';
import type { Principal } from '../account/principal.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';
import type { DomainEventBus } from '../events.js';
import { deleteOtherLoginSessions } from '../account/login-sessions.js';
import * as repo from './repository.js';
import { validEmailAddress } from './email-address.js';

export interface UserDeps {
  store: Store;
  events: DomainEventBus;
}

const toWebUser = (u: repo.UserRecord): WebUser => ({
  Id: u.id,
  Name: u.name,
  EmailAddress: u.email,
  Roles: u.isRoot ? [...AssignableClaims] : [...u.roles],
  IsRoot: u.isRoot,
});

/** "TargetManagement" -> "Target Management". */
const displayName = (claim: string) => claim.replace(/([a-z])([A-Z])/g, '$1 $2');

export function listRoles(p: Principal): RoleClaim[] {
  requireClaim(p, Claim.UserManagement);
  return AssignableClaims.map((c) => ({ DisplayString: displayName(c), StorageString: c }));
}

function checkRoles(roles: string[]): string[] {
  const unknown = roles.filter((r) => !(AssignableClaims as string[]).includes(r));
  if (unknown.length) throw badRequest(`Unknown permission: ${unknown.join(', ')}.`);
  return [...new Set(roles)];
}

/** The password policy (server/account/password-policy.ts) for the user it is set for. */
function checkPassword(password: string | undefined, user: { name: string; email: string }): string {
  const problem = passwordProblem(password, user);
  if (problem) throw badRequest(problem);
  return password!;
}

async function userInAccount({ store }: UserDeps, p: Principal, id: number): Promise<repo.UserRecord> {
  const user = await store.read((q) => repo.findUserById(q, id));
  if (!user || user.accountId !== p.accountId) throw notFound(`User ${id} not found.`);
  return user;
}

/** Case-insensitive substring on the e-mail address; if nothing matches, case-sensitive. */
export function filterUsers(users: WebUser[], filter: string | undefined): WebUser[] {
  if (!filter) return users;
  const lower = filter.toLowerCase();
  const found = users.filter((u) => u.EmailAddress.toLowerCase().includes(lower));
  return found.length ? found : users.filter((u) => u.EmailAddress.includes(filter));
}

export async function listWebUsers(deps: UserDeps, p: Principal, filter?: string): Promise<WebUser[]> {
  requireClaim(p, Claim.UserManagement);
  const users = await deps.store.read((q) => repo.listUsers(q, p.accountId));
  return filterUsers(users.map(toWebUser), filter);
}

export async function getWebUser(deps: UserDeps, p: Principal, id: number): Promise<WebUser> {
  requireClaim(p, Claim.UserManagement);
  return toWebUser(await userInAccount(deps, p, id));
}

export async function createWebUser(deps: UserDeps, p: Principal, body: WebUser, password: string | undefined): Promise<WebUser> {
  requireClaim(p, Claim.UserManagement);
  // One mailbox (server/users/email-address.ts): activation mails go to it.
  const email = validEmailAddress(body.EmailAddress);
  if (body.IsRoot) throw badRequest('A root user cannot be created.');
  const roles = checkRoles(body.Roles ?? []);
  const name = body.Name?.trim() || email;
  const hash = await hashPassword(checkPassword(password, { name, email }));
  const id = await deps.store.transaction(async (q) => {
    if (await repo.findUserByLogin(q, name)) throw conflict(`A user named ${name} already exists.`);
    if (name !== email && (await repo.findUserByLogin(q, email))) throw conflict(`A user named ${email} already exists.`);
    // A password set by someone else is temporary: the user is asked to pick their own.
    return repo.insertUser(q, { accountId: p.accountId, name, email, passwordHash: hash, roles, isRoot: false, tempPassword: true });
  });
  return getWebUser(deps, p, id);
}

export async function updateWebUser(deps: UserDeps, p: Principal, id: number, body: WebUser): Promise<WebUser> {
  requireClaim(p, Claim.UserManagement);
  const user = await userInAccount(deps, p, id);
  if (user.isRoot) throw forbidden("The root user's permissions cannot be changed.");
  const roles = checkRoles(body.Roles ?? []);
  await deps.store.exclusive((q) => repo.updateUserRoles(q, id, roles));
  // Open hub connections of the user are checked against the new roles at once.
  deps.events.emit('UserUpdated', user.accountId, id);
  return getWebUser(deps, p, id);
}

export async function deleteWebUser(deps: UserDeps, p: Principal, id: number): Promise<void> {
  requireClaim(p, Claim.UserManagement);
  const user = await userInAccount(deps, p, id);
  if (user.isRoot) throw forbidden('The root user cannot be deleted.');
  if (user.id === p.userId) throw badRequest('You cannot delete the user you are signed in as.');
  await deps.store.transaction((q) => repo.deleteUser(q, id));
  deps.events.emit('LoginSessionsEnded', id, undefined);
  deps.events.emit('UserUpdated', user.accountId, id);
}

export async function setWebUserPassword(deps: UserDeps, p: Principal, id: number, newPassword: string | undefined): Promise<void> {
  requireClaim(p, Claim.UserManagement);
  const user = await userInAccount(deps, p, id);
  if (user.isRoot && !p.isRoot) throw forbidden("Only the root user can change the root user's password.");
  const hash = await hashPassword(checkPassword(newPassword, user));
  // Whoever signed in with the old password signs in again; an admin resetting their own
  // password keeps the session they are using, as a change of their own does.
  const kept = user.id === p.userId ? p.loginSession : undefined;
  await deps.store.transaction(async (q) => {
    await repo.updateUserPassword(q, id, hash, user.id !== p.userId);
    await deleteOtherLoginSessions(q, id, kept);
  });
  deps.events.emit('LoginSessionsEnded', id, kept);
  deps.events.emit('UserUpdated', user.accountId, id);
}
