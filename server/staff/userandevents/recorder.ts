// Writes a signed-in user's changes and errors to user_events (the Users and Events page):
// every state-changing call (changesState: not a GET, or a GET declared so) and every call
// answered 400 or more, with method, route pattern and status. Never the query or body: a
// query may carry a password (PATCH /api/Account?newPassword=...). Sign-ins are written by
// the sign-in itself (server/account/service.ts), with the account's other records.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changesState } from '../../http/cross-site.js';
import { UserEventKind } from '../../contract/staff.js';
import { insertUserEvent, type UserEventRecord } from './repository.js';

/** The event a request makes, or undefined (reads that answered, visitors, the hub's own requests). */
export function userEventOf(request: FastifyRequest, status: number): UserEventRecord | undefined {
  const p = request.principal;
  if (!p || p.liveShare) return undefined;
  const config = request.routeOptions.config;
  if (config?.access === 'hubConnection') return undefined;
  const failed = status >= 400;
  if (!failed && !changesState(request)) return undefined;
  return {
    accountId: p.accountId,
    userId: p.userId,
    kind: failed ? UserEventKind.Error : UserEventKind.Change,
    method: request.method,
    route: request.routeOptions.url ?? '(no such route)',
    status,
    address: request.ip,
    detail: p.impersonator ? `while ${p.impersonator.username} impersonated` : '',
  };
}

/** Install on the root instance (its hooks reach every route). */
export function installUserEventLog(app: FastifyInstance): void {
  const written = new WeakSet<object>();
  // onSend, not onResponse: the write is queued before the caller has the answer, so a read
  // that follows sees it (Store.read waits for queued writes).
  app.addHook('onSend', async (request, reply, payload) => {
    if (written.has(request)) return payload;
    const event = userEventOf(request, reply.statusCode);
    if (!event) return payload;
    written.add(request);
    app.store.exclusive((q) => insertUserEvent(q, event)).catch((err: unknown) => request.log.error({ err }, 'could not write the user event'));
    return payload;
  });
}
