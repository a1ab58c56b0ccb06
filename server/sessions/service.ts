// The sessions page's operations (spec 2 sections 3, 4 and 7): one function per operation,
// called by the REST routes (plugin.ts) and the hub's PerformSessionListCommand alike.
import { Claim } from '../contract/account.js';
import {
  LocalMachineAgentId,
  SessionListCommandType,
  SessionState,
  type Session,
  type SessionListCommand,
  type SessionListCommandResult,
} from '../contract/sessions.js';
import { requireClaim } from '../account/authenticate.js';
import type { Principal } from '../account/principal.js';
import type { DomainEventBus } from '../events.js';
import { badRequest, conflict, notFound } from '../http/errors.js';
import type { Store } from '../store/db.js';
import * as targets from '../targets/repository.js';
import { sessionDto } from './dto.js';
import { agentNames } from '../agents/repository.js';
import { closedReads } from '../store/closed-reads.js';
import { closedBefore, deleteSessionRows, leftoverImports, listedSessions, sessionsByIds, type CommandedSession } from './repository.js';

export interface SessionDeps {
  store: Store;
  events: DomainEventBus;
}

export const DayMs = 86_400_000;

/** Refused DELETE of an open session: the Error text of the 409. */
export const openSessionText = (ids: number[]) =>
  `Session${ids.length > 1 ? 's' : ''} ${ids.join(', ')} ${ids.length > 1 ? 'are' : 'is'} still open (running or paused). ` +
  'Close the target (Close (and Stop)) first, then delete the session. Nothing was deleted.';

/** The account's sessions, oldest first (the console sorts; default End descending). */
export async function listSessions(deps: SessionDeps, p: Principal): Promise<Session[]> {
  requireClaim(p, Claim.SessionManagement);
  // Will Delete (left out there): a session on its way out (left by a stop during an import of an earlier release).
  const [rows, names] = await deps.store.read(async (q) => {
    const list = await listedSessions(q, p.accountId);
    return [list, await agentNames(q, list.map((s) => s.sentinelId))] as const;
  });
  return rows.map((s) => sessionDto(s, names.get(s.sentinelId)));
}

async function sessionsOf(deps: SessionDeps, p: Principal, cmd: SessionListCommand): Promise<CommandedSession[]> {
  if (cmd.PingServerId !== LocalMachineAgentId) throw notFound(`Agent ${cmd.PingServerId} not found.`);
  const ids = [...new Set(cmd.IDs)];
  if (!ids.length) throw badRequest('Name at least one session in IDs.');
  const found = await deps.store.read((q) => sessionsByIds(q, ids));
  return ids.map((id) => {
    const s = found.get(id);
    if (!s || s.accountId !== p.accountId || s.state === SessionState.WillDelete) throw notFound(`Session ${id} not found`);
    return s;
  });
}

/** OPEN, DELETE or EXPORT for a list of sessions; all or nothing. */
export async function performSessionListCommand(deps: SessionDeps, p: Principal, cmd: SessionListCommand): Promise<SessionListCommandResult> {
  requireClaim(p, Claim.SessionManagement);
  const sessions = await sessionsOf(deps, p, cmd);
  const IDs = sessions.map((s) => s.id);
  switch (cmd.Type) {
    case SessionListCommandType.OPEN:
      await openSessions(deps, p, sessions);
      return { Type: cmd.Type, IDs, DownloadUrls: [] };
    case SessionListCommandType.DELETE:
      await deleteSessions(deps, p.accountId, sessions);
      return { Type: cmd.Type, IDs, DownloadUrls: [] };
    case SessionListCommandType.EXPORT:
      // A hub answer cannot carry a file: EXPORT names the data file download of each session.
      return { Type: cmd.Type, IDs, DownloadUrls: IDs.map((id) => `/api/data/DownloadPP2File?ID=${id}`) };
    default:
      throw badRequest('Type must be 0 (OPEN), 1 (DELETE) or 2 (EXPORT).');
  }
}

/** A closed session becomes an open, paused target again (in All Targets, not probing). */
async function openSessions(deps: SessionDeps, p: Principal, sessions: CommandedSession[]): Promise<void> {
  const closed = sessions.filter((s) => s.state === SessionState.Archived);
  if (!closed.length) return;
  await deps.store.transaction(async (q) => {
    for (const s of closed) await targets.setSessionState(q, s.id, SessionState.Pause, s.endTime);
  });
  deps.events.emit('SessionsChanged', p.accountId);
  deps.events.emit('SummaryListChanged', p.accountId);
}

/**
 * Deletes closed sessions with everything recorded for them, in one transaction; an open
 * (running or paused) one refuses the whole command with 409, so a running trace is never
 * deleted by a filter that happened to include it.
 */
async function deleteSessions(deps: SessionDeps, accountId: number, sessions: CommandedSession[]): Promise<void> {
  const open = sessions.filter((s) => s.state === SessionState.Active || s.state === SessionState.Pause).map((s) => s.id);
  if (open.length) throw conflict(openSessionText(open));
  await deleteForGood(deps, sessions.map((s) => s.id));
  deps.events.emit('SessionsChanged', accountId);
  deps.events.emit('SummaryListChanged', accountId);
}

/**
 * The rows go in one transaction; then a CHECKPOINT writes the database without them, so
 * their blocks are free at once: reused by the next writes, and given back to the file
 * system when they are at the end of the file (docs/store.md, "Deleting sessions").
 */
export async function deleteForGood(deps: Pick<SessionDeps, 'store'>, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await deps.store.transaction((q) => deleteSessionRows(q, ids));
  // Their closed rollup rows read before must not answer again (server/store/closed-reads.ts).
  closedReads(deps.store).forget(ids);
  await deps.store.reclaim();
}

/** Retention: deletes closed sessions that ended more than `days` ago. Answers how many. */
export async function deleteExpiredSessions(deps: SessionDeps, days: number, now = Date.now()): Promise<number> {
  const expired = await deps.store.read((q) => closedBefore(q, now - days * DayMs));
  await deleteForGood(deps, expired.map((s) => s.id));
  for (const accountId of new Set(expired.map((s) => s.accountId))) deps.events.emit('SessionsChanged', accountId);
  return expired.length;
}

/** At start: sessions a stop left half-imported are deleted (their import never answered). */
export async function deleteLeftoverImports(deps: SessionDeps): Promise<number> {
  const left = await deps.store.read((q) => leftoverImports(q));
  await deleteForGood(deps, left.map((s) => s.id));
  return left.length;
}
