// /api/Sessions calls of spec 2 section 7: the list, PATCH / (open), DELETE / (delete) and
// PATCH /PerformSessionListCommand. The hub's PerformSessionListCommand calls the same service.
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../account/authenticate.js';
import { Claim } from '../contract/account.js';

/** Every sessions call needs SessionManagement (the service checks it too). */
const access = { claim: Claim.SessionManagement };
import { LocalMachineAgentId, SessionListCommandType, type SessionListCommand } from '../contract/sessions.js';
import { badRequest } from '../http/errors.js';
import { SessionListCommandResultSchema, SessionListSchema, sessionListCommandBody } from './schemas.js';
import { scheduleRetention } from './retention.js';
import * as sessions from './service.js';

type Body = { Type?: number; IDs: number[]; PingServerId?: number };

/** The body as a command; `only`: the route's own command (a different Type is refused). */
function command(body: Body, only?: number): SessionListCommand {
  const Type = body.Type ?? only!;
  if (only !== undefined && Type !== only) throw badRequest(`This call performs Type ${only} only; use PATCH /api/Sessions/PerformSessionListCommand for others.`);
  return { Type, IDs: body.IDs, PingServerId: body.PingServerId ?? LocalMachineAgentId };
}

export default async function sessionsPlugin(app: FastifyInstance) {
  const deps: sessions.SessionDeps = { store: app.store, events: app.events };
  const answers = { 200: SessionListCommandResultSchema };

  app.get('/api/Sessions', { config: { changesState: false, access }, schema: { response: { 200: SessionListSchema } } }, async (request) =>
    sessions.listSessions(deps, requireUser(request)),
  );
  app.patch<{ Body: Body }>('/api/Sessions', { config: { access }, schema: { body: sessionListCommandBody(false), response: answers } }, async (request) =>
    sessions.performSessionListCommand(deps, requireUser(request), command(request.body, SessionListCommandType.OPEN)),
  );
  app.delete<{ Body: Body }>('/api/Sessions', { config: { access }, schema: { body: sessionListCommandBody(false), response: answers } }, async (request) =>
    sessions.performSessionListCommand(deps, requireUser(request), command(request.body, SessionListCommandType.DELETE)),
  );
  app.patch<{ Body: Body }>(
    '/api/Sessions/PerformSessionListCommand',
    { config: { access }, schema: { body: sessionListCommandBody(true), response: answers } },
    async (request) => sessions.performSessionListCommand(deps, requireUser(request), command(request.body)),
  );

  scheduleRetention(app, deps);
}
