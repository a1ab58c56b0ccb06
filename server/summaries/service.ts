// Summaries (spec 2 sections 3, 4, 6, 7): one function per operation, shared by the /cmd
// routes and the /mainHub methods. Summaries belong to an account; the all-targets
// summary is a pseudo summary of every open target of the account.
import { Claim, LicenseMode } from '../contract/account.js';
import { SessionState } from '../contract/sessions.js';
import { MaxRecordId } from '../contract/targets.js';
import { AllTargetsSummaryName, SummaryNameMaxLength, type Summary } from '../contract/summaries.js';
import { requireClaim, requireLicense } from '../account/authenticate.js';
import type { LiveShareScope, Principal } from '../account/principal.js';
import { summaryOutsideLiveShare } from '../liveshare/scope.js';
import type { Config } from '../config.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Queryable, Store } from '../store/db.js';
import * as repo from './repository.js';
import { requireSession } from './target-ref.js';

export interface SummaryDeps {
  store: Store;
  events: DomainEventBus;
  config: Config;
}

export const AllTargetsFixed = 'Targets cannot be added to or removed from All Targets.';

function toSummary(p: Principal, s: repo.SummaryRecord): Summary {
  const named = !s.isAllTargets;
  return {
    UniqueID: String(s.id),
    Name: s.name,
    CanClose: named && p.claims.includes(Claim.SummaryManagement),
    Editable: named && p.claims.includes(Claim.SummaryManagement),
    IsAllTargets: s.isAllTargets,
    TargetCount: s.targetCount,
    CanChangeTargets: named && p.claims.includes(Claim.TargetManagement),
  };
}

/** Summaries are a feature of the Professional licence (a Sidekick export visitor's too: licenceCovers). */
function gate(deps: SummaryDeps, p: Principal): void {
  requireLicense(deps.config, LicenseMode.Professional, p);
}

function checkName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) throw badRequest('A summary name is required.');
  if (trimmed.length > SummaryNameMaxLength) throw badRequest(`A summary name has at most ${SummaryNameMaxLength} characters.`);
  return trimmed;
}

async function nameFree(q: Queryable, accountId: number, name: string, exceptId?: number): Promise<void> {
  const taken = name.toLowerCase() === AllTargetsSummaryName.toLowerCase() ? { id: -1 } : await repo.findSummaryByName(q, accountId, name);
  if (taken && taken.id !== exceptId) throw conflict(`A summary named "${name}" already exists.`);
}

async function requireSummary(q: Queryable, accountId: number, summaryId: number): Promise<repo.SummaryRecord> {
  // The hub passes ids given as text: one that is no stored id (NaN, 1e20) names no summary.
  const stored = Number.isInteger(summaryId) && summaryId >= 1 && summaryId <= MaxRecordId;
  const s = stored ? await repo.findSummary(q, accountId, summaryId) : undefined;
  if (!s) throw notFound(`Summary ${summaryId} not found.`);
  return s;
}

async function requireNamed(q: Queryable, accountId: number, summaryId: number, allTargetsError: string): Promise<repo.SummaryRecord> {
  const s = await requireSummary(q, accountId, summaryId);
  if (s.isAllTargets) throw badRequest(allTargetsError);
  return s;
}

async function requireOpenSession(q: Queryable, accountId: number, host: string): Promise<number> {
  const session = await requireSession(q, accountId, host);
  if (session.state === SessionState.Archived || session.state === SessionState.WillDelete) {
    throw badRequest(`Target ${session.id} is closed; open it from the Sessions page before adding it to a summary.`);
  }
  return session.id;
}

/**
 * What a LiveShare visitor sees as its summaries (spec 2: "only the first summary, or a
 * pseudo-summary of an agent's targets", which has the id 0).
 */
async function sharedSummary(deps: SummaryDeps, p: Principal, scope: LiveShareScope): Promise<Summary> {
  if (scope.summaryId > 0) return toSummary(p, await deps.store.read((q) => requireSummary(q, p.accountId, scope.summaryId)));
  return { UniqueID: '0', Name: scope.title, CanClose: false, Editable: false, IsAllTargets: false, TargetCount: scope.sessionIds.size, CanChangeTargets: false };
}

/** GET /cmd/getsummaries: the all-targets summary first, then named summaries. */
export async function getSummaries(deps: SummaryDeps, p: Principal): Promise<Summary[]> {
  gate(deps, p);
  if (p.liveShare) return [await sharedSummary(deps, p, p.liveShare)];
  const { rows, created } = await deps.store.transaction(async (q) => {
    const all = await repo.ensureAllTargets(q, p.accountId);
    return { rows: await repo.listSummaries(q, p.accountId), created: all.created };
  });
  // A new All Targets: the hub's summary memberships of the account's targets (event-bridge.ts)
  // are looked up again, else its live rows stayed silent for up to a minute.
  if (created) deps.events.emit('SummaryListChanged', p.accountId);
  return rows.map((s) => toSummary(p, s));
}

/** One summary of the caller's account (for the summary screen and the hub). */
export async function getSummary(deps: SummaryDeps, p: Principal, args: { summaryId: number }): Promise<Summary> {
  gate(deps, p);
  if (p.liveShare) {
    if (summaryOutsideLiveShare(p, args.summaryId)) throw notFound(`Summary ${args.summaryId} not found.`);
    return sharedSummary(deps, p, p.liveShare);
  }
  return toSummary(p, await deps.store.read((q) => requireSummary(q, p.accountId, args.summaryId)));
}

/** Session ids (target ids) a summary shows: its open members, or every open target for All Targets. */
export async function summaryTargetIds(deps: SummaryDeps, p: Principal, args: { summaryId: number }): Promise<number[]> {
  gate(deps, p);
  return deps.store.read(async (q) => repo.memberSessionIds(q, await requireSummary(q, p.accountId, args.summaryId)));
}

/** GET /cmd/newsummary?name&addhost: creates a summary, optionally with a first target. */
export async function newSummary(deps: SummaryDeps, p: Principal, args: { name: string; addhost?: string }): Promise<Summary> {
  gate(deps, p);
  requireClaim(p, Claim.SummaryManagement);
  const addhost = args.addhost?.trim() || undefined;
  if (addhost) requireClaim(p, Claim.TargetManagement);
  const name = checkName(args.name);
  const created = await deps.store.transaction(async (q) => {
    await repo.ensureAllTargets(q, p.accountId);
    await nameFree(q, p.accountId, name);
    const sessionId = addhost ? await requireOpenSession(q, p.accountId, addhost) : undefined;
    const id = await repo.insertSummary(q, p.accountId, name, p.userId);
    if (sessionId !== undefined) await repo.addMember(q, id, sessionId);
    return requireSummary(q, p.accountId, id);
  });
  deps.events.emit('SummaryListChanged', p.accountId);
  return toSummary(p, created);
}

/** GET /cmd/createsummary?name (hub CreateSummary(name)). */
export function createSummary(deps: SummaryDeps, p: Principal, args: { name: string }): Promise<Summary> {
  return newSummary(deps, p, { name: args.name });
}

/** GET /cmd/addhost?host&ID: adds a target to a named summary; adding it again changes nothing. */
export async function addHost(deps: SummaryDeps, p: Principal, args: { host: string; summaryId: number }): Promise<Summary> {
  gate(deps, p);
  requireClaim(p, Claim.TargetManagement);
  const updated = await deps.store.transaction(async (q) => {
    const s = await requireNamed(q, p.accountId, args.summaryId, AllTargetsFixed);
    await repo.addMember(q, s.id, await requireOpenSession(q, p.accountId, args.host));
    return requireSummary(q, p.accountId, s.id);
  });
  deps.events.emit('SummaryChanged', p.accountId, updated.id);
  deps.events.emit('SummaryListChanged', p.accountId);
  return toSummary(p, updated);
}

/** GET /cmd/removefromsummary?host&ID: removing a target that is not a member changes nothing. */
export async function removeFromSummary(deps: SummaryDeps, p: Principal, args: { host: string; summaryId: number }): Promise<Summary> {
  gate(deps, p);
  requireClaim(p, Claim.TargetManagement);
  const updated = await deps.store.transaction(async (q) => {
    const s = await requireNamed(q, p.accountId, args.summaryId, AllTargetsFixed);
    const session = await requireSession(q, p.accountId, args.host);
    await repo.removeMember(q, s.id, session.id);
    return requireSummary(q, p.accountId, s.id);
  });
  deps.events.emit('SummaryChanged', p.accountId, updated.id);
  deps.events.emit('SummaryListChanged', p.accountId);
  return toSummary(p, updated);
}

/** GET /cmd/renamesummary?name&ID. */
export async function renameSummary(deps: SummaryDeps, p: Principal, args: { name: string; summaryId: number }): Promise<Summary> {
  gate(deps, p);
  requireClaim(p, Claim.SummaryManagement);
  const name = checkName(args.name);
  const updated = await deps.store.transaction(async (q) => {
    const s = await requireNamed(q, p.accountId, args.summaryId, 'All Targets cannot be renamed.');
    if (s.name !== name) {
      await nameFree(q, p.accountId, name, s.id);
      await repo.renameSummary(q, s.id, name);
    }
    return requireSummary(q, p.accountId, s.id);
  });
  deps.events.emit('SummaryChanged', p.accountId, updated.id);
  deps.events.emit('SummaryListChanged', p.accountId);
  return toSummary(p, updated);
}

/** GET /cmd/closesummary?ID: deletes the summary (its targets keep running). */
export async function closeSummary(deps: SummaryDeps, p: Principal, args: { summaryId: number }): Promise<void> {
  gate(deps, p);
  requireClaim(p, Claim.SummaryManagement);
  await deps.store.transaction(async (q) => {
    const s = await requireNamed(q, p.accountId, args.summaryId, 'All Targets cannot be deleted.');
    await repo.deleteSummary(q, s.id);
  });
  deps.events.emit('SummaryChanged', p.accountId, args.summaryId);
  deps.events.emit('SummaryListChanged', p.accountId);
}
