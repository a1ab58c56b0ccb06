// Impersonation (spec 1 sections 2 and 6, issue 26): one function per operation, called by
// the routes in plugin.ts. A login session starts acting as another user of the account and
// ends it; both, and each state-changing call meanwhile, go to the audit table.
import { Claim, ImpersonationAction, type CurrentUser, type ImpersonationAuditEntry, type ImpersonationCandidate } from '../contract/account.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { requireClaim } from '../account/authenticate.js';
import { currentUserOf, impersonating, principalOf, type Principal } from '../account/principal.js';
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';
import { findUserById, listUsers, type UserRecord } from '../users/repository.js';
import * as repo from './repository.js';
import { impersonationProblem } from './rules.js';

export interface ImpersonationDeps {
  store: Store;
  config: Config;
  events: DomainEventBus;
}

export const AlreadyImpersonatingText = 'You are impersonating a user already: clear the impersonation first.';
export const NotImpersonatingText = 'You are not impersonating anyone.';
/** How many audit rows the audit screen shows (newest first). */
export const AuditPageRows = 500;

function refuseWhileImpersonating(p: Principal): void {
  if (p.impersonator) throw conflict(AlreadyImpersonatingText);
}

async function actorOf({ store }: ImpersonationDeps, p: Principal): Promise<UserRecord> {
  const actor = await store.read((q) => findUserById(q, p.userId));
  if (!actor) throw badRequest('Your user no longer exists.');
  return actor;
}

/** The users of the account the caller may impersonate. */
export async function listCandidates(deps: ImpersonationDeps, p: Principal): Promise<ImpersonationCandidate[]> {
  requireClaim(p, Claim.ImpersonateUser);
  refuseWhileImpersonating(p);
  const actor = await actorOf(deps, p);
  const users = await deps.store.read((q) => listUsers(q, p.accountId));
  return users
    .filter((u) => impersonationProblem(actor, u) === undefined)
    .map((u) => ({ Id: u.id, Name: u.name, EmailAddress: u.email, Roles: [...u.roles] }));
}

export async function startImpersonation(deps: ImpersonationDeps, p: Principal, userId: number, address: string): Promise<CurrentUser> {
  requireClaim(p, Claim.ImpersonateUser);
  refuseWhileImpersonating(p);
  if (!p.loginSession) throw badRequest('Impersonation needs a signed-in session.');
  const actor = await actorOf(deps, p);
  const target = await deps.store.read((q) => findUserById(q, userId));
  // Another account's user is unknown to anyone but Staff (issue 23: staff may impersonate any account's users).
  if (!target || (target.accountId !== actor.accountId && !principalOf(actor).claims.includes(Claim.Staff))) throw notFound(`User ${userId} not found.`);
  const problem = impersonationProblem(actor, target);
  if (problem) throw forbidden(problem);
  const session = p.loginSession;
  await deps.store.transaction(async (q) => {
    await repo.purgeOrphanImpersonations(q);
    await repo.deleteImpersonation(q, session);
    await repo.insertImpersonation(q, session, { actorUserId: actor.id, asUserId: target.id }, address);
    await repo.insertAudit(q, auditRow(actor, target, ImpersonationAction.Start, '', 0, address));
  });
  deps.events.emit('ImpersonationChanged', session);
  return currentUserOf({ ...impersonating(actor, target), loginSession: session }, deps.config.licenseMode);
}

export async function clearImpersonation(deps: ImpersonationDeps, p: Principal, address: string): Promise<CurrentUser> {
  if (!p.impersonator || !p.loginSession) throw conflict(NotImpersonatingText);
  const session = p.loginSession;
  const { impersonator } = p;
  const actor = await actorOf(deps, { ...p, userId: impersonator.userId });
  await deps.store.transaction(async (q) => {
    await repo.deleteImpersonation(q, session);
    await repo.insertAudit(q, {
      accountId: p.accountId,
      actorUserId: impersonator.userId,
      actorName: impersonator.username,
      asUserId: p.userId,
      asName: p.username,
      action: ImpersonationAction.End,
      detail: '',
      status: 0,
      address,
    });
  });
  deps.events.emit('ImpersonationChanged', session);
  return currentUserOf({ ...principalOf(actor), loginSession: session }, deps.config.licenseMode);
}

/** Writes a state-changing call made while impersonating (REST: its answer's status). */
export async function recordImpersonatedCall(store: Store, p: Principal, detail: string, status: number, address: string): Promise<void> {
  const { impersonator } = p;
  if (!impersonator) return;
  await store.exclusive((q) =>
    repo.insertAudit(q, {
      accountId: p.accountId,
      actorUserId: impersonator.userId,
      actorName: impersonator.username,
      asUserId: p.userId,
      asName: p.username,
      action: ImpersonationAction.Call,
      detail,
      status,
      address,
    }),
  );
}

export async function listImpersonationAudit(deps: ImpersonationDeps, p: Principal): Promise<ImpersonationAuditEntry[]> {
  // The route declares root only; the service says so too (defence in depth).
  if (!p.isRoot || p.impersonator) throw forbidden('Only the root user can make this call.');
  return deps.store.read((q) => repo.listAudit(q, p.accountId, AuditPageRows));
}

function auditRow(actor: UserRecord, target: UserRecord, action: ImpersonationAction, detail: string, status: number, address: string): repo.AuditRecord {
  return { accountId: actor.accountId, actorUserId: actor.id, actorName: actor.name, asUserId: target.id, asName: target.name, action, detail, status, address };
}
