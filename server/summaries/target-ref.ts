// Resolving a target id from a call (a session id, or a row id {sessionId}_h_{hop}) to a
// session of the caller's account. Another account's session is "not found", never 403.
import { parseTargetId } from '../contract/targets.js';
import { badRequest, notFound } from '../http/errors.js';
import type { Queryable } from '../store/db.js';
import { findSession, type SessionRef } from './repository.js';

export function sessionIdOf(targetId: string, what = 'target id'): number {
  const parsed = parseTargetId(targetId);
  if (!parsed || !Number.isSafeInteger(parsed.sessionId) || parsed.sessionId < 1) {
    throw badRequest(`"${targetId.slice(0, 64)}" is not a ${what}.`);
  }
  return parsed.sessionId;
}

export async function requireSession(q: Queryable, accountId: number, targetId: string): Promise<SessionRef> {
  const id = sessionIdOf(targetId);
  const session = await findSession(q, accountId, id);
  if (!session) throw notFound(`Target ${id} not found.`);
  return session;
}
